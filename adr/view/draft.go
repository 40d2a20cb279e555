package view

// Draft is what a drafter returns for a summary plan, and what CURRENT.md is
// rendered from. Every statement cites the decision units it restates, and
// Coverage accounts for every unit of every source (spec §4: retained with
// its location, deliberately changed, deliberately retired, or
// unresolved). The schema is documented in docs/current.md.
type Draft struct {
	// Constraints are the decisions in force, as the view states them.
	Constraints []Statement `json:"constraints"`
	// Rationale and Risks are the reasons and risks a reader needs.
	Rationale []Statement `json:"rationale"`
	Risks     []Statement `json:"risks"`
	// Proposals are open proposals, kept apart from constraints.
	Proposals []Statement `json:"proposals"`
	// Conflicts are contradictions and open questions between records.
	Conflicts []Statement `json:"conflicts"`
	// Coverage says what became of every source unit.
	Coverage []UnitCoverage `json:"coverage"`
}

// Statement is one sentence or short paragraph of the view.
type Statement struct {
	// Topic groups statements under a heading ("Storage").
	Topic string `json:"topic,omitempty"`
	Text  string `json:"text"`
	// Sources are the unit locators the statement restates
	// ("ADR-0012#decision").
	Sources []string `json:"sources"`
}

// UnitCoverage is what became of one source unit.
type UnitCoverage struct {
	Unit string `json:"unit"`
	// State is retained, changed, retired or unresolved.
	State    string `json:"state"`
	Location string `json:"location,omitempty"`
	Reason   string `json:"reason,omitempty"`
}
