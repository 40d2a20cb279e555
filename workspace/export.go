package workspace

import (
	"bufio"
	"encoding/json"
	"io"

	"github.com/git-adr/git-adr/adr"
)

// ExportSchema names the JSON Lines record format [Workspace.Export]
// writes (docs/workspace.md describes each field). A change that removes
// or retypes a field gets a new number.
const ExportSchema = "git-adr.workspace.record/1"

// ExportRecord is one line of an export: one record of one repository,
// its text whole, with what a search engine needs to show and filter it.
type ExportRecord struct {
	Schema      string             `json:"schema"`
	Repository  string             `json:"repository"`
	Source      string             `json:"source"`
	Commit      string             `json:"commit,omitempty"`
	QualifiedID string             `json:"qualified_id"`
	ID          string             `json:"id"`
	Title       string             `json:"title"`
	Status      adr.Status         `json:"status"`
	RawStatus   string             `json:"raw_status"`
	Date        string             `json:"date"`
	Path        string             `json:"path"`
	Archived    bool               `json:"archived"`
	Domains     []string           `json:"domains"`
	Relations   []adr.RelationInfo `json:"relations"`
	Text        string             `json:"text"`
}

// Export writes every record of every member as one JSON line, member by
// member (one log held at a time), and returns how many it wrote.
func (w *Workspace) Export(out io.Writer) (int, error) {
	bw := bufio.NewWriterSize(out, 64<<10)
	enc := json.NewEncoder(bw)
	enc.SetEscapeHTML(false)
	n := 0
	err := w.Each(false, func(ld *Loaded) error {
		for _, r := range ld.Log.Records {
			in := r.Info()
			domains := in.Domains
			if domains == nil {
				domains = []string{}
			}
			rec := ExportRecord{
				Schema: ExportSchema, Repository: ld.Member.Name, Source: ld.Member.Source(), Commit: ld.Commit,
				QualifiedID: Qualify(ld.Member.Name, r.ID), ID: r.ID, Title: r.Title, Status: r.Status, RawStatus: r.RawStatus,
				Date: r.Date, Path: r.Path, Archived: r.Archived, Domains: domains, Relations: in.Relations, Text: string(r.Content()),
			}
			if err := enc.Encode(rec); err != nil {
				return err
			}
			n++
		}
		return nil
	})
	if err != nil {
		// What was exported before the member that failed goes out
		// whole: the buffer may already have sent part of a line, and
		// a consumer reads line by line (the exit status says the
		// export is not complete).
		_ = bw.Flush()
		return n, err
	}
	return n, bw.Flush()
}
