package evidence

import (
	"strings"
	"testing"
	"testing/fstest"

	"github.com/git-adr/git-adr/adr"
)

func TestRoleOf(t *testing.T) {
	for anchor, want := range map[string]sectionRole{
		"proposal": roleProposal, "proposed-solution": roleProposal, "detailed-design": roleProposal,
		"design-and-behavior": roleProposal, "solution-overview": roleProposal, "basic-design": roleProposal,
		"our-decision": roleProposal, "decision-2": roleProposal,
		"per-message-ttl": roleContent, "limit-markers": roleContent, "kv-example": roleContent, "§3": roleContent,
		"context": roleContext, "motivation": roleContext, "context-and-motivation": roleContext,
		"prior-work": roleContext, "decision-drivers": roleContext, "consequences": roleContext, "options-2": roleContext,
		"changelog": roleMeta, "release-history": roleMeta, "revision-history": roleMeta, "author-s": roleMeta,
		"references": roleMeta, "todo": roleMeta, "definitions": roleMeta, "status": roleMeta, "decision-makers": roleMeta,
	} {
		if got := roleOf(adr.Unit{Anchor: anchor}); got != want {
			t.Errorf("roleOf(%q) = %d, want %d", anchor, got, want)
		}
	}
}

// TestMainUnitWithoutDecision: a record with no section called Decision
// answers with the section that states what is done ("Proposal",
// "Design"), else the first section named after its subject, else its
// context; never its changelog, authors or references, which the
// answer would label a decision.
func TestMainUnitWithoutDecision(t *testing.T) {
	fsys := fstest.MapFS{
		// tendermint's shape: Changelog first, then Context, then the
		// proposal under its own name.
		name(1, "block-retention"): {Data: []byte("# ADR 001: Configurable block retention\n\n## Changelog\n\n- 2022-01-01: block retention changed after review\n\n" +
			"## Author(s)\n\n- Someone\n\n## Context\n\nNodes keep every block forever; block retention is unbounded.\n\n" +
			"## Proposal\n\nApplications set a block retention height; blocks below it are pruned.\n\n## Status\n\nAccepted\n")},
		// nats' shape: context, then sections named after their subject.
		name(2, "message-ttl"): {Data: []byte("# Per-message TTL\n\n## Release History\n\n| Rev | Change |\n|---|---|\n| 1 | message ttl added |\n\n" +
			"## Context and motivation\n\nStreams keep messages until limits; a message ttl is asked for.\n\n" +
			"## Per-Message TTL\n\nA header sets the message ttl in seconds; expired messages are removed.\n\n## Limit Markers\n\nMarkers record removals.\n")},
		// Only a changelog and a context: the context.
		name(3, "monitoring"): {Data: []byte("# ADR 003: Monitoring\n\n## Changelog\n\n- monitoring metrics renamed\n\n" +
			"## Context\n\nMonitoring metrics are exported with Prometheus.\n\n## Status\n\nAccepted\n")},
	}
	l := load(t, fsys)
	want := map[string]string{"ADR-0001": "proposal", "ADR-0002": "per-message-ttl", "ADR-0003": "context"}
	for _, r := range l.Records {
		u, ok := mainUnit(r)
		if !ok || u.Anchor != want[r.ID] {
			t.Errorf("%s: main unit %q, want %q", r.ID, u.Anchor, want[r.ID])
		}
	}
	svc := &Service{Log: l}
	for task, text := range map[string]string{
		"how long is block retention":       "Applications set a block retention height",
		"how is a message ttl set":          "A header sets the message ttl in seconds",
		"how are monitoring metrics named?": "Monitoring metrics are exported with Prometheus",
	} {
		resp := answer(t, svc, Request{Task: task})
		if len(resp.Units) == 0 || !strings.Contains(resp.Units[0].Text, text) {
			t.Errorf("%q: units %v, want the first to hold %q", task, unitIDs(resp), text)
		}
		for _, u := range resp.Units {
			for _, meta := range []string{"#changelog", "#release-history", "#author-s"} {
				if strings.Contains(u.ID, meta) {
					t.Errorf("%q: the answer holds %s", task, u.ID)
				}
			}
		}
	}
}
