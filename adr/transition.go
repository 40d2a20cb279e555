package adr

import "fmt"

// TransitionError is a status change the decision lifecycle does not
// allow, with the command that does what was most likely meant.
type TransitionError struct {
	Msg, Hint string
}

func (e *TransitionError) Error() string { return e.Msg }

// CheckTransition applies the decision lifecycle to a status change: the
// one set of rules `git adr decide`, acceptance and the pre-commit hook
// (for a status written by hand: what a commit does to rec, now in state
// to) enforce. A record superseded, rejected or deprecated stays so; an
// accepted decision is deprecated or superseded (by a record that says
// so), not rejected or made a proposal again; a proposal is accepted or
// rejected, not deprecated. Anything may be superseded by a record that
// says so. Unknown statuses may change freely.
func CheckTransition(rec *Record, from, to Status, hasSuccessor bool) *TransitionError {
	if from == to || from == Unknown || to == Unknown || from == "" {
		return nil
	}
	refuse := func(msg, hint string) *TransitionError { return &TransitionError{Msg: msg, Hint: hint} }
	switch {
	case from == Superseded:
		succ := ""
		for _, r := range rec.Relations {
			if r.Type == SupersededBy && r.TargetID != "" {
				succ = r.TargetID
			}
		}
		if succ == "" {
			return refuse(fmt.Sprintf("%s is superseded; a superseded record cannot be %s", rec.ID, pastTense(to)),
				fmt.Sprintf("record a new decision instead: `git adr new TITLE --supersedes %s`", rec.ID))
		}
		return refuse(fmt.Sprintf("%s is superseded by %s; a superseded record cannot be %s", rec.ID, succ, pastTense(to)),
			fmt.Sprintf("record a new decision instead: `git adr new TITLE --supersedes %s`", succ))
	case (from == Rejected || from == Deprecated) && !(to == Superseded && hasSuccessor):
		// A record that is not in force may still be superseded by the
		// new decision its refusal hint asks for.
		return refuse(fmt.Sprintf("%s is %s; it cannot be %s", rec.ID, from, pastTense(to)),
			fmt.Sprintf("record a new decision instead: `git adr new TITLE --supersedes %s`", rec.ID))
	case from == Accepted && to == Rejected:
		return refuse(fmt.Sprintf("%s is accepted; an accepted decision is deprecated or superseded, not rejected", rec.ID),
			fmt.Sprintf("run `git adr decide %s deprecate`, or `git adr new TITLE --supersedes %s`", rec.ID, rec.ID))
	case from == Accepted && to == Proposed:
		return refuse(fmt.Sprintf("%s is accepted; it cannot become a proposal again", rec.ID),
			fmt.Sprintf("propose the change as a new record: `git adr new TITLE --supersedes %s --status proposed`", rec.ID))
	case to == Superseded && !hasSuccessor:
		return refuse(fmt.Sprintf("%s is marked superseded, but no record supersedes it", rec.ID),
			fmt.Sprintf("write its successor with `git adr new TITLE --supersedes %s`, or link one with `git adr link NEW Supersedes %s \"Superseded by\"`", rec.ID, rec.ID))
	case from == Proposed && to == Deprecated:
		return refuse(fmt.Sprintf("%s is only proposed; a proposal is rejected, not deprecated", rec.ID),
			fmt.Sprintf("run `git adr decide %s reject`", rec.ID))
	}
	return nil
}

func pastTense(s Status) string {
	switch s {
	case Accepted:
		return "accepted"
	case Rejected:
		return "rejected"
	case Deprecated:
		return "deprecated"
	case Proposed:
		return "proposed again"
	case Superseded:
		return "superseded"
	}
	return string(s)
}
