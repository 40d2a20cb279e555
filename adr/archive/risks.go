package archive

import (
	"bytes"
	"fmt"
	"path"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/git-adr/git-adr/adr"
)

// risks finds what the plan cannot repair (the external-link risk):
// mentions of a moved file's path outside the relative links it rewrites
// (URLs, prose, code, configuration files), symbolic links to a moved
// file, and links to one in untracked files or in uncommitted changes.
// Links from outside the repository cannot be found at all; the preview
// says so.
func (pl *planner) risks() error {
	if err := pl.mentions(); err != nil {
		return err
	}
	for _, p := range pl.paths {
		e := pl.entries[p]
		if e.Mode != "120000" {
			continue
		}
		target, err := pl.repo.ReadBlob(e.Hash)
		if err != nil {
			return err
		}
		if _, moved := pl.mv.moves[resolve(p, string(target))]; moved {
			pl.p.Risks = append(pl.p.Risks, Risk{Path: p, Text: string(target), Why: "a symbolic link to a moved record: git-adr does not rewrite links in the file system"})
		}
	}
	if err := pl.workTreeLinks(); err != nil {
		return err
	}
	sort.SliceStable(pl.p.Risks, func(i, j int) bool {
		a, b := pl.p.Risks[i], pl.p.Risks[j]
		if a.Path != b.Path {
			return a.Path < b.Path
		}
		return a.Line < b.Line
	})
	out := pl.p.Risks[:0]
	for i, r := range pl.p.Risks {
		if i > 0 && r.Path == pl.p.Risks[i-1].Path && r.Line == pl.p.Risks[i-1].Line && r.Line > 0 {
			continue
		}
		out = append(out, r)
	}
	pl.p.Risks = out
	return nil
}

// mentions finds, with git grep over the base commit, tracked text files
// that write a moved file's folder and name ("adr/0002-x.md") outside a
// link the plan rewrites.
func (pl *planner) mentions() error {
	type needle struct{ name, dir string }
	var needles []needle
	args := []string{"grep", "-l", "-z", "-I", "-F"}
	for from := range pl.mv.moves {
		n := needle{name: path.Base(from)}
		if d := path.Dir(from); d != "." {
			n.dir = path.Base(d)
		}
		needles = append(needles, n)
		args = append(args, "-e", n.name)
	}
	sort.Slice(needles, func(i, j int) bool { return needles[i].name < needles[j].name })
	args = append(args, pl.req.Base, "--")
	out, err := pl.repo.Git(args...)
	if err != nil {
		return nil // git grep exits 1 when nothing matches
	}
	for _, rec := range strings.Split(string(out), "\x00") {
		_, p, ok := strings.Cut(rec, ":")
		if !ok || p == "" {
			continue
		}
		if c := pl.files[p]; c != nil && (c.kind == FileIndex || c.kind == FileView) {
			continue // regenerated or relocated whole
		}
		if k := pl.kindOf(p); k == FileView {
			continue // the manifest pins paths; the view is relocated or reported
		}
		e, ok := pl.entries[p]
		if !ok {
			continue
		}
		data, err := pl.repo.ReadBlob(e.Hash)
		if err != nil {
			return err
		}
		var covered [][2]int
		if markdown(p) {
			for _, l := range adr.NewText(data).Links() {
				if _, _, decoded, ok := split(l.Dest); ok {
					if _, moved := pl.mv.target(resolve(p, decoded)); moved {
						covered = append(covered, [2]int{l.Start, l.End})
					}
				}
			}
		}
		for _, n := range needles {
			for off := 0; ; {
				i := bytes.Index(data[off:], []byte(n.name))
				if i < 0 {
					break
				}
				i += off
				off = i + len(n.name)
				lead := "/"
				if n.dir != "" {
					lead = n.dir + "/"
				}
				if i < len(lead) || string(data[i-len(lead):i]) != lead || inSpans(covered, i) {
					continue
				}
				line, text := lineAt(data, i)
				pl.p.Risks = append(pl.p.Risks, Risk{Path: p, Line: line, Text: text,
					Why: fmt.Sprintf("names %s%s outside a relative link (a URL, prose, code or configuration): not rewritten", lead, n.name)})
			}
		}
	}
	return nil
}

func inSpans(spans [][2]int, i int) bool {
	for _, s := range spans {
		if i >= s[0] && i < s[1] {
			return true
		}
	}
	return false
}

// lineAt returns the 1-based line holding byte i and its text, trimmed
// and cut to 120 bytes.
func lineAt(data []byte, i int) (int, string) {
	start := bytes.LastIndexByte(data[:i], '\n') + 1
	end := bytes.IndexByte(data[i:], '\n')
	if end < 0 {
		end = len(data)
	} else {
		end += i
	}
	s := strings.TrimSpace(string(data[start:end]))
	if len(s) > 120 {
		cut := 117
		for cut > 0 && !utf8.RuneStart(s[cut]) {
			cut--
		}
		s = s[:cut] + "..."
	}
	return bytes.Count(data[:start], []byte("\n")) + 1, s
}

// workTreeLinks finds links to a moved file in Markdown files a commit
// cannot carry: untracked ones, and uncommitted changes to tracked ones
// the plan does not rewrite.
func (pl *planner) workTreeLinks() error {
	untracked, err := pl.repo.Git("ls-files", "-z", "--others", "--exclude-standard")
	if err != nil {
		return err
	}
	changed, err := pl.repo.Git("diff", "--name-only", "-z", pl.head(), "--")
	if err != nil {
		return err
	}
	check := func(list []byte, why string) error {
		for _, p := range strings.Split(string(list), "\x00") {
			if p == "" || !markdown(p) || pl.files[p] != nil {
				continue
			}
			data, exists, err := adr.ReadWorkFile(pl.repo.Top, p)
			if err != nil || !exists || len(data) > 1<<20 {
				continue
			}
			t := adr.NewText(data)
			for _, l := range t.Links() {
				_, _, decoded, ok := split(l.Dest)
				if !ok {
					continue
				}
				if _, moved := pl.mv.target(resolve(p, decoded)); moved {
					pl.p.Risks = append(pl.p.Risks, Risk{Path: p, Line: l.Line + 1, Text: l.Dest, Why: why})
				}
			}
		}
		return nil
	}
	if err := check(untracked, "an untracked file links to a moved record: only committed files are rewritten"); err != nil {
		return err
	}
	return check(changed, "an uncommitted change links to a moved record: only committed files are rewritten")
}
