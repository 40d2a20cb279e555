package compaction

import (
	"bytes"
	"errors"
	"fmt"
	"sort"

	"github.com/git-adr/git-adr/adr"
)

// Drafts returns a consolidation's replacement records as proposals at
// their reserved paths: the drafter's content, with a Supersedes link
// added to every record it lists that the content does not link yet, in
// the record's own style. This is what Save drafts only writes and what
// a pull request branch of the plan holds; nothing is accepted and no
// predecessor is touched. The disk is never touched either.
func Drafts(l *adr.Log, p *Plan, c *Candidate) (map[string][]byte, error) {
	files := map[string][]byte{}
	ov := &adr.Overlay{Base: l.FS, Files: files}
	paths := map[string]string{} // replacement ID -> path
	for _, nr := range c.Records {
		for _, res := range p.Reserved {
			if res.ID == nr.ID {
				files[res.Path] = []byte(nr.Content)
				paths[nr.ID] = res.Path
			}
		}
	}
	if len(files) == 0 {
		return files, nil
	}
	fl, err := l.Reload(ov)
	if err != nil {
		return nil, err
	}
	for _, nr := range c.Records {
		rec := fl.ByPath(paths[nr.ID])
		if rec == nil {
			continue
		}
		for _, s := range nr.Supersedes {
			old, err := fl.Resolve(s)
			if err != nil || old == nil || rec.HasRelation(adr.Supersedes, old) {
				continue
			}
			files[rec.Path] = rec.WithRelation(adr.Supersedes.Label(), old)
			if fl, err = l.Reload(ov); err != nil {
				return nil, err
			}
			rec = fl.ByPath(paths[nr.ID])
		}
	}
	return files, nil
}

// Future applies a consolidation candidate to the log in memory, as its
// acceptance does: the drafts (see [Drafts]) are written and every
// replacement is accepted at once, which marks the records they replace
// superseded, many-to-one with reciprocal links (adr.Log.AcceptAll), each
// edit in the record's own style. It returns the files that change (new
// records and edited predecessors, with their future bytes) and the future
// log. The disk is never touched.
func Future(l *adr.Log, p *Plan, c *Candidate) (map[string][]byte, *adr.Log, error) {
	files, err := Drafts(l, p, c)
	if err != nil {
		return nil, nil, err
	}
	ov := &adr.Overlay{Base: l.FS, Files: files}
	fl, err := l.Reload(ov)
	if err != nil {
		return nil, nil, err
	}
	var recs []*adr.Record
	for _, res := range p.Reserved {
		if _, ok := files[res.Path]; !ok {
			continue
		}
		rec := fl.ByPath(res.Path)
		if rec == nil {
			return nil, nil, fmt.Errorf("replacement %s at %s does not read as a record", res.ID, res.Path)
		}
		recs = append(recs, rec)
	}
	sort.Slice(recs, func(i, j int) bool { return recs[i].ID < recs[j].ID })
	if len(recs) == 0 {
		return files, fl, nil
	}
	changes, _, err := fl.AcceptAll(recs, "", nil)
	if err != nil && !errors.Is(err, adr.ErrNoChange) {
		return nil, nil, fmt.Errorf("accepting the replacements in the preview: %w", err)
	}
	for _, ch := range changes {
		files[ch.Path] = ch.New
	}
	if fl, err = l.Reload(ov); err != nil {
		return nil, nil, err
	}
	// A file the plan would write with the bytes it already has is no
	// change.
	for p, data := range files {
		if cur, err := readFile(l, p); err == nil && bytes.Equal(cur, data) {
			delete(files, p)
		}
	}
	return files, fl, nil
}

func readFile(l *adr.Log, p string) ([]byte, error) {
	if r := l.ByPath(p); r != nil && r.Text() != nil {
		return r.Text().Src, nil
	}
	return nil, errors.New("not a record")
}
