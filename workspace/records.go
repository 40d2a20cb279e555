package workspace

import (
	"github.com/git-adr/git-adr/adr"
)

// RecordRow is one record of a [RecordsPage].
type RecordRow struct {
	ID     string `json:"id"`
	Status string `json:"status"`
	Date   string `json:"date,omitempty"`
	Title  string `json:"title"`
	Path   string `json:"path"`
}

// RecordsPage is a page of the workspace's records, IDs qualified: Total
// counts every record that matched, Next is where the next page starts
// (nil on the last page).
type RecordsPage struct {
	Records []RecordRow `json:"records"`
	Total   int         `json:"total"`
	Next    *int        `json:"next_offset"`
	// Unavailable are the repositories left out (in a [Workspace.Reading]
	// view), at most maxUnavailableRows of them, and UnavailableTotal
	// how many there are.
	Unavailable      []UnavailableRow `json:"unavailable,omitempty"`
	UnavailableTotal int              `json:"unavailable_total,omitempty"`
}

// UnavailableRow is a repository a page of records leaves out.
type UnavailableRow struct {
	Repository string `json:"repository"`
	Reason     string `json:"reason"`
}

// maxUnavailableRows bounds the repositories a page names as left out: a
// page is sized to fit a message.
const maxUnavailableRows = 10

// UnavailableBudget is the most that the repositories a page leaves out
// add to its JSON, in bytes (names are ASCII, at most 64 bytes): a
// caller that sizes pages to a message keeps this much free.
const UnavailableBudget = maxUnavailableRows*(len(`{"repository":"","reason":"not a git repository"},`)+maxName) + len(`,"unavailable":[],"unavailable_total":1000000`)

// Records pages the records of every member in order (of the member named
// repository alone when it is not ""), those of status want when it is
// not "", from offset. fits reports whether the page still fits what
// carries it: the page ends before the first record that does not, and
// the count goes on. Members are read lazily, one at a time.
func (w *Workspace) Records(repository string, want adr.Status, offset int, fits func(*RecordsPage) bool) (*RecordsPage, error) {
	if repository != "" {
		// That repository alone is read: a view of the one member,
		// whose error is then the answer's (noneRead).
		one := *w
		one.Members = nil
		if m := w.Member(repository); m != nil {
			one.Members = []*Member{m}
		}
		w = &one
	}
	page := &RecordsPage{Records: []RecordRow{}}
	full := false
	err := w.Each(true, func(ld *Loaded) error {
		for _, r := range ld.Log.Records {
			if want != "" {
				if err := ld.Log.Ensure(r); err != nil {
					return err
				}
				if r.Status != want {
					continue
				}
			}
			page.Total++
			if page.Total <= offset || full {
				continue
			}
			if err := ld.Log.Ensure(r); err != nil {
				return err
			}
			page.Records = append(page.Records, RecordRow{Qualify(ld.Member.Name, r.ID), string(r.Status), r.Date, r.Title, r.Path})
			if !fits(page) {
				page.Records = page.Records[:len(page.Records)-1]
				full = true
				next := page.Total - 1
				page.Next = &next
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	if w.skips != nil {
		for _, u := range w.skips.List(w) {
			if page.UnavailableTotal++; len(page.Unavailable) < maxUnavailableRows {
				page.Unavailable = append(page.Unavailable, UnavailableRow{u.Member.Name, u.Reason()})
			}
		}
	}
	return page, nil
}
