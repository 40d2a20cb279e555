package adr

import "strings"

// Pick returns the records named by lists of comma-separated references
// (--ids 3,ADR-0007, repeatable), each once, in the order first named;
// resolve finds each reference's record. No references: every record.
func (l *Log) Pick(lists []string, resolve func(ref string) (*Record, error)) ([]*Record, error) {
	if len(lists) == 0 {
		return l.Records, nil
	}
	var recs []*Record
	seen := map[string]bool{}
	for _, list := range lists {
		for _, ref := range strings.Split(list, ",") {
			if ref = strings.TrimSpace(ref); ref == "" {
				continue
			}
			r, err := resolve(ref)
			if err != nil {
				return nil, err
			}
			if !seen[r.Path] {
				seen[r.Path] = true
				recs = append(recs, r)
			}
		}
	}
	return recs, nil
}
