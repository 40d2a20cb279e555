package adr

import (
	"strings"
)

// RelationType is the normalised kind of a link between records. The known
// types are constants; any other label (adr-tools lets teams invent their
// own, such as "Clarifies") is kept verbatim as its own type.
type RelationType string

// The known relation types. Each has a reverse (see [RelationType.Reverse]).
const (
	Supersedes   RelationType = "supersedes"
	SupersededBy RelationType = "superseded-by"
	Amends       RelationType = "amends"
	AmendedBy    RelationType = "amended-by"
	Refines      RelationType = "refines"
	RefinedBy    RelationType = "refined-by"
	RelatesTo    RelationType = "relates-to"
)

// Reverse returns the type the target should carry back ("" when unknown:
// a custom label's reverse is whatever the team wrote).
func (t RelationType) Reverse() RelationType {
	switch t {
	case Supersedes:
		return SupersededBy
	case SupersededBy:
		return Supersedes
	case Amends:
		return AmendedBy
	case AmendedBy:
		return Amends
	case Refines:
		return RefinedBy
	case RefinedBy:
		return Refines
	case RelatesTo:
		return RelatesTo
	}
	return ""
}

// Known reports whether t is one of the normalised types.
func (t RelationType) Known() bool { return t.Reverse() != "" }

// Label is the phrase git-adr writes for a known type ("Superseded by"),
// matching adr-tools.
func (t RelationType) Label() string {
	switch t {
	case Supersedes:
		return "Supersedes"
	case SupersededBy:
		return "Superseded by"
	case Amends:
		return "Amends"
	case AmendedBy:
		return "Amended by"
	case Refines:
		return "Refines"
	case RefinedBy:
		return "Refined by"
	case RelatesTo:
		return "Relates to"
	}
	return string(t)
}

// relationWords maps lower-case labels, in several languages and both
// spellings adr-tools has seen, to known types.
var relationWords = map[string]RelationType{
	"supersedes": Supersedes, "supercedes": Supersedes, "replaces": Supersedes, "supersede": Supersedes,
	"superseded by": SupersededBy, "superceded by": SupersededBy, "superseded-by": SupersededBy,
	"superseded_by": SupersededBy, "supersededby": SupersededBy, "replaced by": SupersededBy,
	"superseeded by": SupersededBy, "superseded": SupersededBy,
	"invalidated by": SupersededBy, "obsoleted by": SupersededBy,
	"amends": Amends, "amended by": AmendedBy, "amended-by": AmendedBy, "amended_by": AmendedBy, "amendedby": AmendedBy,
	"augments": Amends, "augmented by": AmendedBy,
	"refines": Refines, "refined by": RefinedBy, "refined-by": RefinedBy, "refined_by": RefinedBy, "refinedby": RefinedBy,
	"relates to": RelatesTo, "related to": RelatesTo, "relates-to": RelatesTo, "related-to": RelatesTo,
	"relates_to": RelatesTo, "related": RelatesTo, "see also": RelatesTo, "relatesto": RelatesTo,
	// French, German, Spanish, Portuguese.
	"remplace": Supersedes, "remplacé par": SupersededBy, "remplacée par": SupersededBy,
	"modifie": Amends, "modifié par": AmendedBy, "lié à": RelatesTo, "voir aussi": RelatesTo,
	"ersetzt": Supersedes, "ersetzt durch": SupersededBy, "abgelöst durch": SupersededBy,
	"ergänzt": Amends, "ergänzt durch": AmendedBy, "siehe auch": RelatesTo,
	"reemplaza": Supersedes, "reemplazado por": SupersededBy, "sustituye": Supersedes, "sustituido por": SupersededBy,
	"substitui": Supersedes, "substituído por": SupersededBy, "relacionado con": RelatesTo, "relacionado com": RelatesTo,
}

// ParseRelationType normalises a link label. Unknown labels are returned as
// written (trimmed), so they survive verbatim.
func ParseRelationType(label string) RelationType {
	l := strings.ToLower(strings.Trim(strings.TrimSpace(label), "*_:"))
	l = strings.Join(strings.Fields(l), " ")
	if t, ok := relationWords[l]; ok {
		return t
	}
	return RelationType(strings.TrimSpace(label))
}

// Relation is one link from a record to another.
type Relation struct {
	Type RelationType `json:"type"`
	// Label is the phrase as written in the record ("Superceded by").
	Label string `json:"label"`
	// Target is the target as written: a link path, an ID or a file name.
	Target string `json:"target"`
	// TargetID is the resolved target's ID, "" when it resolves to no record.
	TargetID string `json:"target_id,omitempty"`
	// Line is the 1-based line the relation was read from.
	Line int `json:"line"`
	// Section is the decision unit the relation belongs to, for sectioned
	// containers ("" for the whole record).
	Section string `json:"section,omitempty"`
}
