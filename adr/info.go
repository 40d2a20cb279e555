package adr

// RecordInfo is the stable, documented JSON shape of a record (see
// docs/json.md). Number is null for records identified by slug.
type RecordInfo struct {
	ID        string         `json:"id"`
	Number    *int           `json:"number"`
	Title     string         `json:"title"`
	Status    Status         `json:"status"`
	RawStatus string         `json:"raw_status"`
	Date      string         `json:"date"`
	Path      string         `json:"path"`
	Root      string         `json:"root"`
	Style     Style          `json:"style"`
	Archived  bool           `json:"archived"`
	Domains   []string       `json:"domains"`
	Iteration string         `json:"iteration,omitempty"`
	Scope     string         `json:"scope,omitempty"`
	AppliesTo []string       `json:"applies_to,omitempty"`
	ReviewBy  string         `json:"review_by,omitempty"`
	Relations []RelationInfo `json:"relations"`
	Problems  []string       `json:"problems,omitempty"`
	// Lines is the 1-based line range of a section of a single-file log
	// in its file; absent for a record file.
	Lines *[2]int `json:"lines,omitempty"`
}

// RelationInfo is the JSON shape of a relation.
type RelationInfo struct {
	Type     RelationType `json:"type"`
	Label    string       `json:"label"`
	Target   string       `json:"target"`
	TargetID *string      `json:"target_id"`
	Line     int          `json:"line"`
	Section  string       `json:"section,omitempty"`
}

// Info returns the record's JSON shape.
func (r *Record) Info() RecordInfo {
	in := RecordInfo{
		ID: r.ID, Title: r.Title, Status: r.Status, RawStatus: r.RawStatus, Date: r.Date,
		Path: r.Path, Style: r.Style, Archived: r.Archived, Domains: r.Domains, Problems: r.Problems,
		Iteration: r.Iteration, Scope: r.Scope, AppliesTo: r.AppliesTo, ReviewBy: r.ReviewBy,
		Relations: []RelationInfo{},
	}
	if in.Domains == nil {
		in.Domains = []string{}
	}
	if r.Root != nil {
		in.Root = r.Root.Dir()
	}
	if r.Numbered {
		n := r.Number
		in.Number = &n
	}
	if r.InLogFile() {
		from, to := r.LineRange()
		in.Lines = &[2]int{from, to}
	}
	for _, rel := range r.Relations {
		ri := RelationInfo{Type: rel.Type, Label: rel.Label, Target: rel.Target, Line: rel.Line, Section: rel.Section}
		if rel.TargetID != "" {
			id := rel.TargetID
			ri.TargetID = &id
		}
		in.Relations = append(in.Relations, ri)
	}
	return in
}
