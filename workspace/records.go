package workspace

import (
	"strings"

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
}

// Records pages the records of every member in order (of the member named
// repository alone when it is not ""), those of status want when it is
// not "", from offset. fits reports whether the page still fits what
// carries it: the page ends before the first record that does not, and
// the count goes on. Members are read lazily, one at a time.
func (w *Workspace) Records(repository string, want adr.Status, offset int, fits func(*RecordsPage) bool) (*RecordsPage, error) {
	page := &RecordsPage{Records: []RecordRow{}}
	full := false
	err := w.Each(true, func(ld *Loaded) error {
		if repository != "" && !strings.EqualFold(repository, ld.Member.Name) {
			return nil
		}
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
	return page, nil
}
