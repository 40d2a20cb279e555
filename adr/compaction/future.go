package compaction

import (
	"fmt"
	"sort"

	"github.com/git-adr/git-adr/adr"
)

// Future applies a consolidation candidate to the log in memory, as its
// acceptance would: every replacement is written at its reserved path with
// a Supersedes link to each record it replaces, then accepted, which marks
// those records superseded with reciprocal links, each edit in the
// record's own style. It returns the files that change (new records and
// edited predecessors, with their future bytes) and the future log. The
// disk is never touched.
func Future(l *adr.Log, p *Plan, c *Candidate) (map[string][]byte, *adr.Log, error) {
	files := map[string][]byte{}
	ov := &adr.Overlay{Base: l.FS, Files: files}
	paths := map[string]string{} // new record ID -> path
	for _, nr := range c.Records {
		for _, res := range p.Reserved {
			if res.ID == nr.ID {
				files[res.Path] = []byte(nr.Content)
				paths[nr.ID] = res.Path
			}
		}
	}
	fl, err := l.Reload(ov)
	if err != nil {
		return nil, nil, err
	}
	ids := make([]string, 0, len(paths))
	for id := range paths {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	// Links the drafter listed but did not write.
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
				return nil, nil, err
			}
			rec = fl.ByPath(paths[nr.ID])
		}
	}
	// Accept each replacement; its supersessions follow.
	for _, id := range ids {
		rec := fl.ByPath(paths[id])
		if rec == nil {
			return nil, nil, fmt.Errorf("replacement %s at %s does not read as a record", id, paths[id])
		}
		changes, _, err := fl.Decide(rec, adr.Accepted, "")
		if err != nil && err != adr.ErrNoChange {
			return nil, nil, fmt.Errorf("accepting %s in the preview: %w", id, err)
		}
		for _, ch := range changes {
			files[ch.Path] = ch.New
		}
		if fl, err = l.Reload(ov); err != nil {
			return nil, nil, err
		}
	}
	return files, fl, nil
}
