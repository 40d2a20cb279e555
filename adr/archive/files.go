package archive

import (
	"bytes"
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strings"

	"github.com/git-adr/git-adr/adr"
	"github.com/git-adr/git-adr/adr/view"
	"github.com/git-adr/git-adr/gitops"
)

// markdown reports a file name Markdown link rewriting reads.
func markdown(p string) bool {
	switch strings.ToLower(path.Ext(p)) {
	case ".md", ".markdown", ".mdx":
		return true
	}
	return false
}

// rewriteAll rewrites the links of every tracked Markdown file: the moved
// files' own (outbound) links, and every link that reaches a moved file
// (inbound). Files that cannot mention a moved file are not parsed.
func (pl *planner) rewriteAll() error {
	var needles [][]byte
	for from := range pl.mv.moves {
		b := path.Base(from)
		needles = append(needles, []byte(strings.TrimSuffix(b, path.Ext(b))))
	}
	for _, p := range pl.paths {
		e := pl.entries[p]
		if e.Type != "blob" || e.Mode == "120000" || !markdown(p) {
			continue
		}
		to := pl.mv.where(p)
		data, err := pl.repo.ReadBlob(e.Hash)
		if err != nil {
			return err
		}
		if to == p && !containsAny(data, needles) {
			continue
		}
		t := adr.NewText(data)
		edits, risks := pl.mv.rewrite(t, p, to)
		pl.p.Risks = append(pl.p.Risks, risks...)
		if len(edits) == 0 && to == p {
			continue
		}
		c := &change{path: to, kind: pl.kindOf(p), mode: e.Mode, old: data}
		if to != p {
			c.from = p
		}
		var ae []adr.Edit
		for _, ed := range edits {
			ae = append(ae, ed.Edit)
			c.links = append(c.links, LinkEdit{Line: ed.line, Old: ed.old, New: ed.new})
		}
		c.data = t.Apply(ae...)
		pl.files[to] = c
	}
	// A restore gives back the exact bytes of what nobody changed since.
	for now, back := range pl.exact {
		to := pl.mv.where(now)
		e := pl.entries[now]
		data, err := pl.repo.ReadBlob(back)
		if err != nil {
			return fmt.Errorf("the archival's copy of %s: %w", now, err)
		}
		c := pl.files[to]
		if c == nil {
			old, err := pl.repo.ReadBlob(e.Hash)
			if err != nil {
				return err
			}
			c = &change{path: to, kind: pl.kindOf(now), mode: e.Mode, old: old}
			if to != now {
				c.from = now
			}
			pl.files[to] = c
		}
		c.data, c.exact = data, true
	}
	return nil
}

func containsAny(data []byte, needles [][]byte) bool {
	for _, n := range needles {
		if bytes.Contains(data, n) {
			return true
		}
	}
	return false
}

// kindOf classifies a file for the preview.
func (pl *planner) kindOf(p string) string {
	if _, ok := pl.mv.moves[p]; ok {
		return FileRecord
	}
	if pl.before.ByPath(p) != nil {
		return FileInbound
	}
	for _, root := range pl.before.Roots {
		switch p {
		case root.Join(root.IndexName()):
			return FileIndex
		case root.Join(view.CurrentFile), root.Join(view.ManifestFile):
			return FileView
		}
		rest, ok := strings.CutPrefix(p, root.Join(""))
		if root.Path == "" {
			rest, ok = p, true
		}
		if first, _, nested := strings.Cut(rest, "/"); ok && nested && languageTag(first) {
			return FileTranslation
		}
	}
	return FileMarkdown
}

// languageTag reports a folder name a translation mirror uses: "zh",
// "de", "pt-BR", "zh_CN".
func languageTag(s string) bool {
	lang, region, _ := strings.Cut(strings.ReplaceAll(s, "_", "-"), "-")
	if len(lang) < 2 || len(lang) > 3 || strings.ToLower(lang) != lang || s == "adr" {
		return false
	}
	for _, r := range lang {
		if r < 'a' || r > 'z' {
			return false
		}
	}
	return region == "" || len(region) >= 2 && len(region) <= 4
}

// afterLog is the log as the plan leaves it: the base commit with the
// moved and rewritten files over it.
func (pl *planner) afterLog(wl *adr.Log) (*adr.Log, error) {
	ov := &adr.Overlay{Base: pl.base, Files: map[string][]byte{}}
	for _, c := range pl.files {
		if c.from != "" {
			ov.Files[c.from] = nil
		}
		ov.Files[c.path] = c.data
	}
	for from, to := range pl.mv.moves {
		if _, ok := ov.Files[to]; !ok {
			data, err := fs.ReadFile(pl.base, from)
			if err != nil {
				return nil, err
			}
			ov.Files[from], ov.Files[to] = nil, data
		}
	}
	return wl.Reload(ov)
}

// files2plan lists the changes in the plan, sorted by path.
func (pl *planner) files2plan() {
	var ps []string
	for p := range pl.files {
		ps = append(ps, p)
	}
	sort.Strings(ps)
	for _, p := range ps {
		c := pl.files[p]
		f := File{Path: c.path, From: c.from, Kind: c.kind, Mode: modeOr(c.mode), Before: view.BlobHash(c.old), After: view.BlobHash(c.data),
			Links: c.links, Exact: c.exact}
		if f.Links == nil {
			f.Links = []LinkEdit{}
		}
		pl.p.Files = append(pl.p.Files, f)
	}
	// Moved records whose bytes stay the same are files of the plan too.
	for _, m := range pl.p.Records {
		if _, ok := pl.files[m.To]; ok {
			continue
		}
		e := pl.entries[m.From]
		pl.p.Files = append(pl.p.Files, File{Path: m.To, From: m.From, Kind: FileRecord, Mode: modeOr(e.Mode), Before: e.Hash, After: e.Hash, Links: []LinkEdit{}})
	}
	sort.SliceStable(pl.p.Files, func(i, j int) bool { return pl.p.Files[i].Path < pl.p.Files[j].Path })
}

// changes are all the plan's tree changes as one step.
func (pl *planner) changes() []gitops.TreeChange {
	var out []gitops.TreeChange
	for _, f := range pl.p.Files {
		c := pl.files[f.Path]
		data := []byte(nil)
		if c != nil {
			data = c.data
		} else if d, err := fs.ReadFile(pl.base, f.From); err == nil {
			data = d
		}
		out = append(out, gitops.TreeChange{Path: f.Path, From: f.From, Data: data, Mode: f.Mode})
	}
	return out
}
