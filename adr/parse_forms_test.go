package adr

import (
	"strings"
	"testing"
)

// Forms found by the smoke test over public logs: dated status lines,
// headings decorated with an emoji before their word, and a no-break space
// after a heading's "#" marks.

// TestDatedStatusSection: a status section holding a date then a status
// ("2020-03-25 accepted", CaenCamp; "2017-11-22 提议" then "2017-11-26
// 完成" on the next line, the adr tool's Chinese format) has that status,
// the last entry's when there are several.
func TestDatedStatusSection(t *testing.T) {
	checkWild(t, []wildCase{
		{
			name:   "one dated entry",
			src:    lines("# 1. Use ADRs", "", "Date: 2020-03-04", "", "## Status", "", "2020-03-25 accepted", "", "## Context", "", "x"),
			raw:    "2020-03-25 accepted",
			field:  "2020-03-25 accepted",
			status: Accepted,
		},
		{
			name:   "a history, one entry a line",
			src:    lines("# 1. 编写完整的单元测试", "", "日期: 2017/11/22", "", "## 状态", "", "2017-11-22 提议", "2017-11-26 完成", "", "## 背景", "", "x"),
			raw:    "2017-11-22 提议 2017-11-26 完成",
			field:  "2017-11-22 提议\n2017-11-26 完成",
			status: Accepted,
		},
		{
			name:   "a history ending deprecated",
			src:    lines("# 5. X", "", "## 状态", "", "2017-11-22 提议", "2017-11-26 已弃用", "", "## 背景", "", "x"),
			raw:    "2017-11-22 提议 2017-11-26 已弃用",
			field:  "2017-11-22 提议\n2017-11-26 已弃用",
			status: Deprecated,
		},
	})
}

// TestEIPStatuses: front matter statuses in the EIP vocabulary
// (decentraland/adr).
func TestEIPStatuses(t *testing.T) {
	for _, c := range []struct {
		status string
		want   Status
	}{
		{"Living", Accepted}, {"Final", Accepted}, {"Last Call", Proposed}, {"Review", Proposed},
		{"Stagnant", Proposed}, {"Draft", Proposed}, {"Withdrawn", Rejected},
	} {
		r := Parse([]byte(lines("---", "adr: 1", "status: "+c.status, "---", "", "# Title", "", "## Abstract", "", "x")))
		if r.Status != c.want {
			t.Errorf("status: %s is %s, want %s", c.status, r.Status, c.want)
		}
	}
}

// TestDecoratedHeadings: an emoji before (or after) a heading's word
// decorates it: "## ⚡ Status" is the status section, "## 🔨 Decisão" the
// decision.
func TestDecoratedHeadings(t *testing.T) {
	r := Parse([]byte(lines("# 003 - 📝 🏛️ Arquitetura de Microsserviços", "", "Data: 2024-03-21", "",
		"## ⚡ Status", "", "Proposto", "", "## 🎯 Contexto", "", "x", "", "## 🔨 Decisão", "", "y", "",
		"## ⚖️ Consequências", "", "z", "", "## Context 🤔", "", "w", "", "## 📊 Métricas", "", "v")))
	if r.Status != Proposed || r.RawStatus != "Proposto" {
		t.Errorf("status %q (%s), want Proposto (proposed)", r.RawStatus, r.Status)
	}
	var anchors []string
	for _, u := range r.Units() {
		anchors = append(anchors, u.Anchor)
	}
	if got, want := strings.Join(anchors, " "), "status context decision consequences context-2 métricas"; got != want {
		t.Errorf("anchors %q, want %q", got, want)
	}
	for _, c := range []struct{ heading, key string }{
		{"⚡ Status", "status"},
		{"⚡️Status", "status"},
		{"**⚡ Status**", "status"},
		{"🔨 Decisão", "decisão"},
		{"Context 🤔", "context"},
		{"2. ✅ Status", "status"},
		{"✅ 2. Status", "status"},
		{"8.1 ⚡ Statut", "statut"},
		{"🎉", ""},
		{"C# 🎉", "c#"},
		{"Status", "status"},
	} {
		if got := headingKey(c.heading); got != c.key {
			t.Errorf("headingKey(%q) = %q, want %q", c.heading, got, c.key)
		}
	}
}

// TestNoBreakSpaceHeading: "##\u00a0Status" (a no-break space after the
// marks, which CommonMark renders as text) is read as the heading its
// author meant, for structure and status.
func TestNoBreakSpaceHeading(t *testing.T) {
	r := Parse([]byte(lines("# 28. React Context API", "", "##\u00a0Status", "", "Approved", "", "##\u00a0Context", "", "x")))
	if r.Status != Accepted || r.RawStatus != "Approved" {
		t.Errorf("status %q (%s), want Approved (accepted)", r.RawStatus, r.Status)
	}
	if _, ok := r.Unit("context"); !ok {
		t.Errorf("no context unit in %+v", r.Units())
	}
}

// TestDatedRelationLine: a relation line that starts with the date it was
// written ("2021-05-06 Superseded by [9. Y](0009-y.md)") is that relation,
// not a custom label holding the date.
func TestDatedRelationLine(t *testing.T) {
	r := Parse([]byte("# 3. X\n\nDate: 2020-01-01\n\n## Status\n\nAccepted\n\n2021-05-06 Superseded by [9. Y](0009-y.md)\n\n## Decision\n\nD.\n"))
	for _, rel := range r.Relations {
		if rel.Target == "0009-y.md" {
			if rel.Type != SupersededBy {
				t.Errorf("relation %+v, want superseded-by", rel)
			}
			return
		}
	}
	t.Errorf("no relation to 0009-y.md: %+v", r.Relations)
}

// TestStatusBeforeSubHeading: a sub-heading right after the status value,
// with no blank line between, ends the value.
func TestStatusBeforeSubHeading(t *testing.T) {
	r := Parse([]byte("# 1. X\n\n## Status\nAccepted\n### Notes\nReviewed by the board.\n\n## Decision\n\nD.\n"))
	if r.RawStatus != "Accepted" || r.Status != Accepted {
		t.Errorf("raw status %q (%s), want Accepted", r.RawStatus, r.Status)
	}
}
