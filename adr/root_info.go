package adr

// RootInfo is what `git adr roots` says of a root (its JSON shape).
type RootInfo struct {
	Path     string `json:"path"`
	Source   string `json:"source"`
	Name     string `json:"name,omitempty"`
	Prefix   string `json:"prefix"`
	Digits   int    `json:"digits"`
	Style    string `json:"style"`
	Records  int    `json:"records"`
	Archived int    `json:"archived"`
	// Refused says why the directory is not read (a link leading outside
	// the repository).
	Refused string `json:"refused,omitempty"`
	// Skipped is set with verbose: every entry of the root that is not a
	// record, with the reason.
	Skipped []Skipped `json:"skipped,omitempty"`
}

// RootInfos describes every root of the log, in order: where it is, how
// it was found, its conventions and how many live and archived records
// it holds; with verbose, also what it holds that is not a record.
func (l *Log) RootInfos(verbose bool) []RootInfo {
	infos := []RootInfo{}
	for _, r := range l.Roots {
		in := RootInfo{Path: r.Dir(), Source: r.Source, Name: r.Name, Prefix: r.Prefix, Digits: r.Digits, Style: string(r.Style)}
		if r.Refused != nil {
			in.Refused = r.Refused.Error()
		}
		for _, rec := range r.Records {
			if rec.Archived {
				in.Archived++
			} else {
				in.Records++
			}
		}
		if verbose {
			in.Skipped = r.Skipped
		}
		infos = append(infos, in)
	}
	return infos
}
