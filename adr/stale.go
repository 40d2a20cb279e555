package adr

import (
	"fmt"
	"time"
)

// Defaults of the staleness signals ([check] in .adr.toml).
const (
	DefaultStaleProposalDays = 90
	DefaultChurnCommits      = 50
)

// Stale is a staleness signal of a record: the kind check reports it as,
// and a label for an answer that shows the record.
type Stale struct {
	Kind  FindingKind
	Label string
	// Date is the date the signal is about (the review_by date, the date
	// of the proposal); Days how long ago it was for a proposal.
	Date string
	Days int
}

// OwnStaleness are the staleness signals a record states itself, on day
// today: a review_by date that has passed (for a record neither
// superseded nor rejected), a proposal dated more than proposalDays ago
// (0: DefaultStaleProposalDays; negative: never). Signals that need the
// repository (a scope that matches no file, governed code that changed a
// lot) are found by check and the context command.
func (r *Record) OwnStaleness(today time.Time, proposalDays int) []Stale {
	if r.Archived {
		return nil
	}
	if proposalDays == 0 {
		proposalDays = DefaultStaleProposalDays
	}
	var out []Stale
	// Most records have no review_by: parsing "" made an error for
	// nothing, once a record in every check.
	if r.ReviewBy != "" && r.Status != Superseded && r.Status != Rejected {
		if d, err := time.Parse("2006-01-02", r.ReviewBy); err == nil && d.Before(today) {
			out = append(out, Stale{Kind: KindReviewDue, Date: r.ReviewBy, Label: fmt.Sprintf("review due: review_by %s has passed", r.ReviewBy)})
		}
	}
	if r.Status == Proposed && proposalDays > 0 {
		if d, err := time.Parse("2006-01-02", r.Date); err == nil && today.Sub(d) > time.Duration(proposalDays)*24*time.Hour {
			days := int(today.Sub(d).Hours() / 24)
			out = append(out, Stale{Kind: KindStaleProposal, Date: r.Date, Days: days, Label: fmt.Sprintf("stale proposal: proposed since %s (%d days)", r.Date, days)})
		}
	}
	return out
}

// TodayTime is Today as a time (the clock's date when ADR_DATE does not
// read as one).
func TodayTime() time.Time {
	if t, err := time.Parse("2006-01-02", Today()); err == nil {
		return t
	}
	now := time.Now()
	return time.Date(now.Year(), now.Month(), now.Day(), 0, 0, 0, 0, time.UTC)
}
