package archive

import (
	"bytes"
	"fmt"
	"io/fs"

	"github.com/git-adr/git-adr/adr"
	"github.com/git-adr/git-adr/adr/view"
)

// generated refreshes each root's INDEX.md (regenerated when it was up to
// date) and CURRENT view (relocated without a model when it can be).
func (pl *planner) generated(after *adr.Log) error {
	ixs, err := pl.before.Indexes()
	if err != nil {
		return err
	}
	rewritten := map[string]string{}
	for _, c := range pl.files {
		// Link rewrites, verified below, and exact restores of what an
		// archival's verified rewrite left.
		if c.kind != FileIndex && c.kind != FileView {
			rewritten[c.path] = view.BlobHash(c.old)
		}
	}
	for _, ix := range ixs {
		if ix.State != adr.IndexUpToDate {
			continue // hand-written or stale: its links were rewritten like any file's
		}
		if c := pl.files[ix.Path]; c != nil && c.exact {
			c.kind, c.links = FileIndex, nil
			pl.generatedNote(ix.Path, "given back its bytes from before the archival")
			continue
		}
		root := rootAt(after, ix.Root.Path)
		if root == nil {
			continue
		}
		data := adr.RenderIndex(root, after)
		if bytes.Equal(data, ix.Current) {
			delete(pl.files, ix.Path)
			continue
		}
		pl.files[ix.Path] = &change{path: ix.Path, kind: FileIndex, mode: pl.entries[ix.Path].Mode, old: ix.Current, data: data}
		pl.generatedNote(ix.Path, "regenerated: "+pl.indexNote(ix.Root))
	}
	for _, root := range pl.before.Roots {
		f := view.Check(pl.before, root)
		if f.Manifest == nil {
			continue
		}
		curPath, manPath := f.CurrentPath, f.ManifestPath
		if c := pl.files[curPath]; c != nil && c.exact {
			pl.generatedNote(curPath, "given back its bytes from before the archival, with "+view.ManifestFile)
			continue
		}
		cur := f.Current
		if c := pl.files[curPath]; c != nil {
			cur = c.data
		}
		nr := rootAt(after, root.Path)
		m, data, err := view.Moved(after, nr, f.Manifest, cur, view.Moves{Paths: pl.mv.moves, Rewritten: rewritten})
		if err == nil {
			again := freshness(after, nr, map[string][]byte{curPath: data, manPath: m.Encode()})
			if f.State == view.Fresh && again.State != view.Fresh {
				err = fmt.Errorf("relocated, it would be %s: %s", again.State, again.Summary())
			}
		}
		if err != nil {
			touched := pl.touches(f)
			delete(pl.files, curPath) // a pair is changed whole or not at all
			if touched {
				pl.generatedNote(curPath, fmt.Sprintf("left as it is (%v); regenerate it with `%s`", err, f.Fix()))
			}
			continue
		}
		manData := m.Encode()
		oldMan, _ := fs.ReadFile(pl.base, manPath)
		if bytes.Equal(data, f.Current) && bytes.Equal(manData, oldMan) {
			continue
		}
		pl.files[curPath] = &change{path: curPath, kind: FileView, mode: modeOr(pl.entries[curPath].Mode), old: f.Current, data: data, links: linksOf(pl.files[curPath])}
		pl.files[manPath] = &change{path: manPath, kind: FileView, mode: modeOr(pl.entries[manPath].Mode), old: oldMan, data: manData}
		state := "stays fresh"
		if f.State != view.Fresh {
			state = "still " + string(f.State) + ": " + f.Summary()
		}
		pl.generatedNote(curPath, "relocated without a model (paths, blobs and unit hashes in "+view.ManifestFile+"); "+state)
	}
	return nil
}

func linksOf(c *change) []LinkEdit {
	if c == nil {
		return nil
	}
	return c.links
}

func modeOr(m string) string {
	if m == "" {
		return "100644"
	}
	return m
}

// touches reports whether a view pins or links a moved file.
func (pl *planner) touches(f view.Freshness) bool {
	for _, s := range append(append([]view.Source(nil), f.Manifest.Sources...), f.Manifest.Dependencies...) {
		if _, ok := pl.mv.moves[s.Path]; ok {
			return true
		}
	}
	return pl.files[f.CurrentPath] != nil
}

func (pl *planner) indexNote(root *adr.Root) string {
	var ids []string
	for _, m := range pl.p.Records {
		if r := pl.before.ByPath(m.From); r != nil && r.Root == root {
			ids = append(ids, m.ID)
		}
	}
	if len(ids) == 0 {
		return "links to the moved records follow them"
	}
	if pl.p.Kind == KindRestore {
		return joinIDs(ids, 5) + " listed with the live records again"
	}
	return joinIDs(ids, 5) + " listed under Archived"
}

func (pl *planner) generatedNote(p, action string) {
	pl.p.Generated = append(pl.p.Generated, Generated{Path: p, Action: action})
}

func rootAt(l *adr.Log, p string) *adr.Root {
	for _, r := range l.Roots {
		if r.Path == p {
			return r
		}
	}
	return nil
}

// freshness checks a root's view of l with the pair's files replaced.
func freshness(l *adr.Log, root *adr.Root, pair map[string][]byte) view.Freshness {
	c := *l
	c.FS = &adr.Overlay{Base: l.FS, Files: pair}
	return view.Check(&c, root)
}
