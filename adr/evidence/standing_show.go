package evidence

import "github.com/git-adr/git-adr/adr"

// Standing is whether a record, or a unit of it, is in force, as
// adr_context labels its units ([Unit.InForce], [Unit.Note]).
type Standing struct {
	InForce bool
	// Note says why a record is not in force ("superseded by ADR-0002",
	// "proposed", "status unknown"), that it states no status ("status not
	// stated"), or that its text says it is being replaced ("possibly
	// superseded: its text says "..." (see ADR-0009)"); empty otherwise.
	Note string
}

// StandingOf is the standing of r, or of its unit u when u is not nil,
// by the rule of context answers, for tools that show a record by itself
// (adr_show): so that both say the same of it. A container section with
// a status of its own stands by that status, as in an answer.
func (s *Service) StandingOf(r *adr.Record, u *adr.Unit) Standing {
	var st standing
	if u != nil && u.Status != "" {
		st = st.forUnit(*u) // no need to read the record's text
	} else {
		st = s.standingOf(r)
	}
	return Standing{InForce: st.inForce, Note: st.note}
}
