package jsonadr

import (
	"maps"
	"slices"
	"time"

	"github.com/git-adr/git-adr/adr"
)

// AddedDates are the days git first recorded each record (by path), for
// the records whose own date is not a YYYY-MM-DD date (JSON-ADR requires
// one): added is asked once, for the roots of those records (a `git log`
// over them, [gitops.Repo.AddedDates]). Records it has no day for, or all
// of them when it fails, are left out: the export then dates them today.
func AddedDates(recs []*adr.Record, added func(dirs []string) (map[string]string, error)) map[string]string {
	dirs := map[string]bool{}
	want := map[string]bool{}
	for _, r := range recs {
		if _, err := time.Parse("2006-01-02", r.Date); err == nil {
			continue
		}
		want[r.Path] = true
		if r.Root != nil {
			dirs[r.Root.Dir()] = true
		}
	}
	out := map[string]string{}
	if len(want) == 0 {
		return out
	}
	days, err := added(slices.Sorted(maps.Keys(dirs)))
	if err != nil {
		return out
	}
	for p := range want {
		if d, ok := days[p]; ok {
			out[p] = d
		}
	}
	return out
}
