package adr

import "testing"

// TestDatedStatusParagraphs: a status section holding a history one dated
// entry a paragraph, after the vocabulary line of the adr tool's Chinese
// template, has the status of its last entry; the vocabulary line is
// guidance.
func TestDatedStatusParagraphs(t *testing.T) {
	checkWild(t, []wildCase{
		{
			name:   "entries in paragraphs",
			src:    lines("# 1. X", "", "## 状态", "", "2017-11-22 提议", "", "2017-11-26 完成", "", "## 背景", "", "x"),
			raw:    "2017-11-22 提议 2017-11-26 完成",
			field:  "2017-11-22 提议\n\n2017-11-26 完成",
			status: Accepted,
		},
		{
			name:   "vocabulary line, then entries, a blank line holding a space",
			src:    lines("# 7. X", "", "## 状态", "", "列表：提议/通过/完成/已弃用/已取代", "", "2017-11-23 提议", " ", "2017-11-23 通过", "", "2017/11/24 已弃用", "", "## 背景", "", "x"),
			raw:    "2017-11-23 提议 2017-11-23 通过 2017/11/24 已弃用",
			field:  "2017-11-23 提议\n \n2017-11-23 通过\n\n2017/11/24 已弃用",
			status: Deprecated,
		},
		{
			name:   "vocabulary line, one entry",
			src:    lines("# 10. X", "", "## 状态", "", "列表：提议/通过/完成/已弃用/已取代", "", "2017-11-23 提议", "", "## 背景", "", "x"),
			raw:    "2017-11-23 提议",
			field:  "2017-11-23 提议",
			status: Proposed,
		},
		{
			name:   "a later paragraph that is prose stays out",
			src:    lines("# 1. X", "", "## Status", "", "2020-03-25 accepted", "", "2021-01-01 we revisited it and kept it", "", "## Context", "", "x"),
			raw:    "2020-03-25 accepted",
			field:  "2020-03-25 accepted",
			status: Accepted,
		},
		{
			name:   "an undated value is not continued",
			src:    lines("# 1. X", "", "## Status", "", "Accepted", "", "2021-01-01 Deprecated", "", "## Context", "", "x"),
			raw:    "Accepted",
			field:  "Accepted",
			status: Accepted,
		},
		{
			name:   "vocabulary only",
			src:    lines("# 1. X", "", "## Status", "", "proposed/accepted/deprecated", "", "## Context", "", "x"),
			raw:    "",
			field:  "",
			status: Unknown,
		},
	})
}
