package adr

import "testing"

// A record with no status gets one, with its note, where its style keeps
// it; every other byte stays, line endings included.
func TestWithStatusNoteInsertsMissingStatus(t *testing.T) {
	tests := []struct{ name, src, want string }{
		{"front matter",
			"---\nparent: D\n---\n# T\n\n## Decision\n\nX.\n",
			"---\nparent: D\nstatus: accepted\nstatus-reason: \"why: this\"\n---\n# T\n\n## Decision\n\nX.\n"},
		{"bullet list, emphasis kept",
			"# T\r\n\r\n  - __Deciders:__ Ann\r\n\r\n## Decision\r\n\r\nX.\r\n",
			"# T\r\n\r\n  - __Status:__ accepted\r\n  - __Reason:__ why: this\r\n  - __Deciders:__ Ann\r\n\r\n## Decision\r\n\r\nX.\r\n"},
		{"section before the first section",
			"# 1. T\n\nDate: 2026-01-01\n\n## Context\n\nX.\n",
			"# 1. T\n\nDate: 2026-01-01\n\n## Status\n\naccepted\n\nReason: why: this\n\n## Context\n\nX.\n"},
		{"no sections, no final newline",
			"# 1. T\n\nJust prose.",
			"# 1. T\n\nJust prose.\n\n## Status\n\naccepted\n\nReason: why: this"},
		{"no sections, final newline",
			"# 1. T\n\nJust prose.\n",
			"# 1. T\n\nJust prose.\n\n## Status\n\naccepted\n\nReason: why: this\n"},
		{"a bullet that is not metadata is prose",
			"# 1. T\n\n- Fast: very\n\n## Context\n\nX.\n",
			"# 1. T\n\n- Fast: very\n\n## Status\n\naccepted\n\nReason: why: this\n\n## Context\n\nX.\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := Parse([]byte(tt.src))
			if r.StatusField.Kind != "" {
				t.Fatalf("the source already has a status field: %+v", r.StatusField)
			}
			got := string(r.WithStatusNote("accepted", "why: this"))
			if got != tt.want {
				t.Errorf("got\n%q\nwant\n%q", got, tt.want)
			}
			if after := Parse([]byte(got)); after.Status != Accepted {
				t.Errorf("re-parsed status %q (raw %q)", after.Status, after.RawStatus)
			}
		})
	}
}

// Setting a status on any record gives a record with that status, and
// touches nothing before the first edited byte.
func FuzzWithStatusNote(f *testing.F) {
	for _, s := range []string{
		"# 1. T\n\n## Status\n\nProposed\n\n## Context\n\nX.\n",
		"---\nstatus: proposed\n---\n# T\n",
		"# T\n\n* Status: proposed\n* Deciders: A\n",
		"| Status | Proposed |\n|---|---|\n",
		"# 1. T\n\nJust prose.",
		"---\nparent: D\n---\n# T\n\n## Decision\n\nX.\n",
		"# T\r\n\r\n- **Deciders:** Ann\r\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		r := Parse(src)
		if r.Status == Superseded || r.Status == Accepted {
			return
		}
		out := r.WithStatusNote("Accepted", "agreed")
		if got := Parse(out); got.Status != Accepted {
			t.Fatalf("status %q (raw %q) after setting it in\n%q\ngiving\n%q", got.Status, got.RawStatus, src, out)
		}
	})
}

// A change log's status changes by a new entry after the last one, in its
// list's marker, keeping a missing final newline missing; the entries
// before stay as they were.
func TestChangeLogStatusEdit(t *testing.T) {
	t.Setenv("ADR_DATE", "2026-12-01")
	for _, c := range []struct{ in, want string }{
		{"# E\n\n## Change Log\n- [approved](u) (2022-07-12)\n\n## Context\n\nx\n",
			"# E\n\n## Change Log\n- [approved](u) (2022-07-12)\n- deprecated (2026-12-01): gone\n\n## Context\n\nx\n"},
		{"# E\n\n## History\n\n* pending (2022-01-01)\n* [approved](u) (2022-07-12)",
			"# E\n\n## History\n\n* pending (2022-01-01)\n* [approved](u) (2022-07-12)\n* deprecated (2026-12-01): gone"},
		{"# E\r\n\r\n## Changelog\r\n  - [approved](u) (2022-07-12)\r\n",
			"# E\r\n\r\n## Changelog\r\n  - [approved](u) (2022-07-12)\r\n  - deprecated (2026-12-01): gone\r\n"},
	} {
		r := Parse([]byte(c.in))
		if r.StatusField.Kind != FieldChangeLog || r.Status != Accepted {
			t.Fatalf("%q: field %q, status %q", c.in, r.StatusField.Kind, r.Status)
		}
		if got := string(r.WithStatusNote("deprecated", "gone")); got != c.want {
			t.Errorf("%q:\n got %q\nwant %q", c.in, got, c.want)
		}
	}
}
