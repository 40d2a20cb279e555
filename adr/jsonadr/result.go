package jsonadr

import "github.com/git-adr/git-adr/adr"

// ImportResult is what an import did or, with dryRun, would do (`git adr
// import json --json`, docs/json.md).
type ImportResult struct {
	Imported []ImportedRecord `json:"imported"`
	Warnings []string         `json:"warnings"`
	DryRun   bool             `json:"dry_run"`
}

// ImportedRecord is one record of an [ImportResult].
type ImportedRecord struct {
	Number int    `json:"number"`
	To     int    `json:"to"`
	Title  string `json:"title"`
	Path   string `json:"path"`
	// Status is "written", "unchanged" or, with --dry-run, "would write".
	Status string `json:"status"`
	// Lossless is true when the record's own bytes were carried in the
	// export; false when it was rendered from JSON-ADR fields.
	Lossless bool `json:"lossless"`
}

// Result is the plan's result and the changes that carry it out: none
// with dryRun, and none for a file that already holds its record.
func (p *ImportPlan) Result(dryRun bool) (ImportResult, []adr.FileChange) {
	res := ImportResult{Imported: []ImportedRecord{}, Warnings: p.Warnings, DryRun: dryRun}
	if res.Warnings == nil {
		res.Warnings = []string{}
	}
	var changes []adr.FileChange
	for _, f := range p.Files {
		st := "written"
		switch {
		case f.Unchanged:
			st = "unchanged"
		case dryRun:
			st = "would write"
		default:
			changes = append(changes, adr.FileChange{Path: f.Path, New: f.Data})
		}
		res.Imported = append(res.Imported, ImportedRecord{Number: f.From, To: f.To, Title: f.Title, Path: f.Path, Status: st, Lossless: f.Lossless})
	}
	return res, changes
}
