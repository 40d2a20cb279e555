package adr

import "sort"

// Select returns the records with status want ("": any) in domain d ("":
// any), in the log's order.
func (l *Log) Select(want Status, d string) []*Record {
	var out []*Record
	for _, r := range l.Records {
		if want != "" && r.Status != want {
			continue
		}
		if d != "" && !r.InDomain(d) {
			continue
		}
		out = append(out, r)
	}
	return out
}

// HasDomain reports whether a record declares domain d; when none does,
// known are the domains records declare, sorted.
func (l *Log) HasDomain(d string) (ok bool, known []string) {
	seen := map[string]bool{}
	for _, r := range l.Records {
		if r.InDomain(d) {
			return true, nil
		}
		for _, x := range r.Domains {
			seen[x] = true
		}
	}
	known = make([]string, 0, len(seen))
	for x := range seen {
		known = append(known, x)
	}
	sort.Strings(known)
	return false, known
}
