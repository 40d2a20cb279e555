package adr

import (
	"strings"
	"testing"
)

func TestNormalizeStatus(t *testing.T) {
	tests := []struct {
		raw  string
		want Status
	}{
		// English, with the decorations real logs use.
		{"Accepted", Accepted},
		{"accepted", Accepted},
		// A history in one value: its last status is the one in force.
		{"Submitted, 2017-01-26; Approved 2017-02-22", Accepted},
		{"Accepted 2020-01-01; superseded by [ADR-5](0005-x.md)", Superseded},
		{"Deprecated; see ADR-5", Deprecated},
		{"Proposed → Accepted", Accepted},
		{"proposed -> accepted -> deprecated", Deprecated},
		{"**Deprecated** → **Superseded by ADR 018: Errors Management**", Superseded},
		{"Accepted => see notes", Accepted},
		{"Submitted", Proposed},
		{"implementable", Accepted},
		{"proposed <!-- optional: draft | proposed | rejected | accepted | deprecated | … -->", Proposed},
		{"<!-- accepted -->", Unknown},
		{"proposed | partially superseded by [008 Controller lifecycle](008-controller-lifecycle.md)", Proposed},
		{"proposed | accepted", Unknown},
		{"[proposed | rejected | accepted | deprecated | … | superseded by [ADR-0005](0005-example.md)]", Unknown},
		{"accepted | superseded by [ADR-9](0009-x.md)", Superseded},
		{"**provisional**", Proposed},
		{"valid", Accepted},
		// A date then a status: the entry of a history, newest last,
		// one per line (joined) or alone.
		{"2020-03-25 accepted", Accepted},
		{"2017-11-22 提议", Proposed},
		{"2017/11/24 完成", Accepted},
		{"2017-11-22 提议 2017-11-26 完成", Accepted},
		{"2017-11-22 提议 2017-11-26 已弃用", Deprecated},
		{"2017-11-22 提议 2017-12-01 通过", Accepted},
		{"2017-11-22: Proposed; 2017-11-26: Accepted", Accepted},
		{"2020-01-02 Proposed, 2020-02-03 Rejected", Rejected},
		{"[2020-01-02] Accepted", Accepted},
		{"3 May 2021: Accepted", Accepted},
		{"March 3rd, 2021 - Accepted", Accepted},
		{"Marked as accepted", Unknown},
		{"2020-01-02 Accepted 2021-05-06 superseded by [ADR-9](0009-x.md)", Superseded},
		{"2020-01-02 Accepted, superseded by ADR-9 on 2024-05-01", Superseded},
		{"2020-01-02 Accepted 2021-05-06 see the notes", Accepted},
		{"2021-03-04", Unknown},
		{"2021-03-04 we met and talked", Unknown},
		// A later clause that says how a record in force ended.
		{"Accepted, superseded by ADR-9 on 2024-05-01", Superseded},
		{"Accepted (superseded by [9. New](0009-new.md))", Superseded},
		{"Accepted. Superseded by ADR-9.", Superseded},
		{"Accepted, later deprecated", Deprecated},
		{"Accepted, deprecated in 2023", Deprecated},
		{"Proposed, rejected on 2023-01-05", Rejected},
		{"Accepted, not deprecated", Accepted},
		{"Accepted, partially superseded by ADR-9", Accepted},
		{"Accepted, amended by ADR-9", Accepted},
		{"Accepted (supersedes ADR-3)", Accepted},
		{"Accepted, rejected alternatives are listed below", Accepted},
		// Struck-out text is no longer the status.
		{"~~Accepted~~ Superseded", Superseded},
		{"~~Accepted~~ Superseded by [9. New](0009-new.md)", Superseded},
		{"<del>Accepted</del> Deprecated", Deprecated},
		{"~~Proposed~~", Proposed},
		{"<DEL>Accepted</DEL> Deprecated", Deprecated},
		// Not UTF-8 (a Latin-1 file): struck text is still found where
		// it is, and nothing panics.
		{"\x89~~", Unknown},
		{"Accept\xe9 ~~Proposed~~", Accepted},
		{"\xe9 <del>Accepted</del> Deprecated", Deprecated},
		{"🤔 Incomplete", Proposed},
		{"Reverted by [discussion #1198](https://example.com/d/1198).", Deprecated},
		// A status that is its amendment: in force, amended.
		{"amended by [ADR-0004](0004-x.md)", Accepted},
		{"augmented by [ADR-0004](0004-decision-making.md)]", Accepted},
		{"Refined by ADR-7", Accepted},
		{"ACCEPTED", Accepted},
		{"Accepted.", Accepted},
		{"**Accepted**", Accepted},
		{"_Accepted_", Accepted},
		{"`accepted`", Accepted},
		{"[Accepted]", Accepted},
		{"- Accepted", Accepted},
		{"> Accepted", Accepted},
		{"✅ Accepted", Accepted},
		{"Accepted (2020-01-02)", Accepted},
		{"Approved.", Accepted},
		{"Implemented", Accepted},
		{"Implemented (moved to cosmos-sdk)", Accepted},
		{"Partially Implemented", Accepted},
		{"Partially implemented ([#5670](https://github.com/tendermint/tendermint/issues/5670))", Accepted},
		{"Partially Accepted", Accepted},
		{"Partly superseded", Accepted},
		{"Proposed", Proposed},
		{"PROPOSED", Proposed},
		{"Proposed.", Proposed},
		{"Draft.", Proposed},
		{"Pending", Proposed},
		{"In Review.", Proposed},
		{"In review", Proposed},
		{"Work in progress", Proposed},
		{"Rejected", Rejected},
		{"Declined", Rejected},
		{"Not accepted", Rejected},
		{"Deprecated", Deprecated},
		{"Obsolete", Deprecated},
		{"Superseded", Superseded},
		{"Superceded", Superseded},
		{"Superseded by [DNS Infrastructure](0015-dns-infrastructure.md)", Superseded},
		{"superseded by [20201016-use-the-adr-slug-as-its-unique-id](20201016-use-the-adr-slug-as-its-unique-id.md)", Superseded},
		{"Superceded by [5. X](0005-x.md)", Superseded},
		{"Superseded by ADR-0009", Superseded},
		{"Replaced by ADR-12", Superseded},
		{"Invalidated by [0018-uuid-resource-names.md](./0018-uuid-resource-names.md)", Superseded},
		{"Obsoleted by ADR-7", Superseded},
		{"Complete", Accepted},
		{"Completed.", Accepted},
		// EIP-style statuses (decentraland/adr): a Living record is kept
		// up to date and in force; Last Call and a Stagnant draft are
		// not decided yet.
		{"Living", Accepted},
		{"Last Call", Proposed},
		{"Stagnant", Proposed},
		{"Review", Proposed},
		{"Final", Accepted},
		{"Withdrawn", Rejected},
		{"Draft", Proposed},
		// Other languages.
		{"Accepté", Accepted},
		{"Proposé", Proposed},
		{"Obsolète", Deprecated},
		{"Rejeté", Rejected},
		{"Remplacé", Superseded},
		{"Akzeptiert", Accepted},
		{"Vorgeschlagen", Proposed},
		{"Abgelehnt", Rejected},
		{"Veraltet", Deprecated},
		{"Ersetzt", Superseded},
		{"Aceptado", Accepted},
		{"已接受", Accepted},
		{"已接受（2024-01-02）", Accepted},
		{"提议", Proposed},
		{"已废弃", Deprecated},
		{"已取代", Superseded},
		// The vocabulary of phodal/adr: 提议 通过 完成 已弃用 已取代.
		{"完成", Accepted},
		{"通过", Accepted},
		{"已弃用", Deprecated},
		{"承認済み", Accepted},
		{"승인됨", Accepted},
		{"Принято", Accepted},
		// Unfilled templates, prose and nothing at all are unknown.
		{"{Deprecated|Proposed|Accepted|Declined}", Unknown},
		{"{Deprecated|Proposed|Accepted}", Unknown},
		{"[proposed | accepted | rejected | deprecated | superseded]", Unknown},
		// The choices separated by "/" are guidance, with or without a
		// label; a value whose words all name one state is that state.
		{"列表：提议/通过/完成/已弃用/已取代", Unknown},
		{"proposed/accepted/done/deprecated/superseded", Unknown},
		{"Status: Proposed / Accepted", Unknown},
		{"Accepted/Implemented", Accepted},
		{"Superseded by [X](../0005-x.md)", Superseded},
		{"proposed | rejected | accepted | deprecated | … | superseded by [ADR-0005](0005-example.md)", Unknown},
		{"The two points above have been implemented; the `config.js` has a Google Analytics identifier", Unknown},
		{"We decided to go ahead", Unknown},
		{"on hold", Unknown},
		{"", Unknown},
		{"   ", Unknown},
		{"**", Unknown},
		{"—", Unknown},
		{"TBD", Unknown},
	}
	for _, tt := range tests {
		if got := NormalizeStatus(tt.raw); got != tt.want {
			t.Errorf("NormalizeStatus(%q) = %q, want %q", tt.raw, got, tt.want)
		}
	}
}

// TestStatusWordsGlued guards the fallback for scripts written without
// spaces: when one status word is a prefix of another ("承認" of "承認済み"),
// both must mean the same, or the result would depend on map order.
func TestStatusWordsGlued(t *testing.T) {
	for a, sa := range statusWords {
		if isASCII(a) || len([]rune(a)) < 2 {
			continue
		}
		for b, sb := range statusWords {
			if a != b && !isASCII(b) && strings.HasPrefix(b, a) && sa != sb {
				t.Errorf("status word %q (%s) is a prefix of %q (%s): glued text is ambiguous", a, sa, b, sb)
			}
		}
	}
}

func TestParseStatus(t *testing.T) {
	for _, s := range Statuses {
		if got, ok := ParseStatus(strings.ToUpper(string(s))); !ok || got != s {
			t.Errorf("ParseStatus(%q) = %q, %v", strings.ToUpper(string(s)), got, ok)
		}
	}
	if _, ok := ParseStatus("implemented"); ok {
		t.Errorf("ParseStatus accepts a raw word; it must name a normalised status only")
	}
}

func TestRelationTypes(t *testing.T) {
	tests := []struct {
		label string
		want  RelationType
	}{
		{"Supersedes", Supersedes},
		{"Supercedes", Supersedes},
		{"Superseded by", SupersededBy},
		{"Superceded by", SupersededBy},
		{"superseded_by", SupersededBy},
		{"**Superseded by:**", SupersededBy},
		{"Amends", Amends},
		{"Amended by", AmendedBy},
		{"Refines", Refines},
		{"Refined by", RefinedBy},
		{"Relates to", RelatesTo},
		{"See also", RelatesTo},
		{"Remplacé par", SupersededBy},
		{"Ersetzt durch", SupersededBy},
		{"Clarifies", RelationType("Clarifies")},
		{"  Updates ", RelationType("Updates")},
	}
	for _, tt := range tests {
		if got := ParseRelationType(tt.label); got != tt.want {
			t.Errorf("ParseRelationType(%q) = %q, want %q", tt.label, got, tt.want)
		}
	}
	for _, rt := range []RelationType{Supersedes, SupersededBy, Amends, AmendedBy, Refines, RefinedBy, RelatesTo} {
		if !rt.Known() || rt.Reverse().Reverse() != rt {
			t.Errorf("%q: Known=%v, reverse of reverse = %q", rt, rt.Known(), rt.Reverse().Reverse())
		}
		if ParseRelationType(rt.Label()) != rt {
			t.Errorf("ParseRelationType(%q.Label() = %q) does not give it back", rt, rt.Label())
		}
	}
	if RelationType("Clarifies").Known() || RelationType("Clarifies").Label() != "Clarifies" {
		t.Errorf("a custom label must stay unknown and verbatim")
	}
}

// TestStatusSectionLines pins what a status section's lines are: a dated
// entry of a history ("2017-11-22 提议"), which a later paragraph may
// continue, and the choices the status may take ("列表：提议/通过/完成"),
// which are guidance and never the status.
func TestStatusSectionLines(t *testing.T) {
	tests := []struct {
		line           string
		dated, choices bool
	}{
		{"2017-11-22 提议", true, false},
		{"2017/11/24 完成", true, false},
		{"2020-03-25 accepted", true, false},
		{"2026-12-01: Superseded by [5. X](0005-x.md)", true, false},
		{"[2020-01-02] **Accepted**", true, false},
		{"2017-11-22 提议 2017-11-26 完成", false, false},
		{"2021-03-04", false, false},
		{"2021-03-04 we met and talked", false, false},
		{"Accepted 2021-03-04", false, false},
		{"Accepted", false, false},
		{"列表：提议/通过/完成/已弃用/已取代", false, true},
		{"proposed/accepted/done/deprecated/superseded", false, true},
		{"Proposed / Accepted / Rejected", false, true},
		{"Accepted/Implemented", false, false},
		{"See [the list](../0005-x.md)/[the other](x.md)", false, false},
		{"Input/output handling is accepted", false, false},
	}
	for _, tt := range tests {
		if got := datedStatusEntry(tt.line); got != tt.dated {
			t.Errorf("datedStatusEntry(%q) = %v, want %v", tt.line, got, tt.dated)
		}
		if got := statusChoices(cleanStatus(tt.line)); got != tt.choices {
			t.Errorf("statusChoices(%q) = %v, want %v", tt.line, got, tt.choices)
		}
	}
	// A quoted status may carry its date before it as after it.
	for _, s := range []string{"2020-01-02 Accepted", "Accepted 2020-01-02"} {
		if !bareStatus(s) {
			t.Errorf("bareStatus(%q) = false, want true", s)
		}
	}
}
