package workflow

import (
	"bytes"
	"encoding/json"
	"errors"

	"github.com/git-adr/git-adr/adr/accept"
	"github.com/git-adr/git-adr/adr/compaction"
)

// Acceptable is what the choices of a drafted consolidation offer: the
// acceptance of plan p's newest revision over in when it is validated
// and the service accepts it (nil otherwise), the service's refusal, and
// the number of blockers that take Accept and execute away (those of the
// refusal, or of the stored review of a plan not validated: 1 when it
// cannot be read).
func Acceptable(in accept.Input, p *compaction.Plan) (acc *accept.Acceptance, refusal *accept.Refusal, blockers int, err error) {
	if p.State != compaction.Validated {
		if _, rv, err := LoadReview(in.Repo, p.ID); err == nil {
			return nil, nil, len(rv.Blockers), nil
		}
		return nil, nil, 1, nil
	}
	acc, err = accept.ForPlan(in, p.ID, p.Revision)
	if errors.As(err, &refusal) {
		return nil, refusal, len(refusal.Problems), nil
	}
	if err != nil {
		return nil, nil, 0, err
	}
	return acc, nil, 0, nil
}

// ReviewArchive is the archive part of plan p's acceptance as `compaction
// review` shows it, for a consolidation planned with --archive and not
// done (nil, nil otherwise): computed through the acceptance service
// over the input input returns (read-only: it writes git objects only).
// part is nil when it cannot be computed; the review says why.
func ReviewArchive(p *compaction.Plan, input func() (accept.Input, error)) (review *compaction.ArchiveReview, part *accept.ArchivePart) {
	if p.Mode != compaction.Consolidate || !p.Archive || p.Done() {
		return nil, nil
	}
	in, err := input()
	var acc *accept.Acceptance
	if err == nil {
		acc, err = accept.ForPlan(in, p.ID, p.Revision)
	}
	if err != nil {
		return &compaction.ArchiveReview{Plan: json.RawMessage("null"), Blocked: "cannot be computed now: " + err.Error(), Held: []string{}}, nil
	}
	review = &compaction.ArchiveReview{Plan: json.RawMessage("null"), Blocked: acc.Archive.Blocked, Held: append([]string{}, acc.Archive.Held...)}
	if acc.Archive.Plan != nil {
		review.Plan = bytes.TrimSpace(acc.Archive.Plan.Encode())
	}
	return review, acc.Archive
}
