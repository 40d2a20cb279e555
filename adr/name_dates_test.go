package adr

import (
	"fmt"
	"testing"
	"testing/fstest"
)

// TestNameGivesTitleAndDate: a record that states no date has the date
// its file or folder name starts with, and a title made from such a name
// leaves the date out.
func TestNameGivesTitleAndDate(t *testing.T) {
	tests := []struct {
		path, src   string
		title, date string
	}{
		{"docs/developer/decision-records/2022-11-09-api-refactoring/README.md", lines("This record has two parts."), "Api refactoring", "2022-11-09"},
		{"docs/developer/decision-records/2022-02-03-integration-testing/README.md", lines("# Integration Testing", "", "## Decision", "", "X."), "Integration Testing", "2022-02-03"},
		{"docs/decisions/20230206-use-flyway.md", lines("# Use Flyway", "", "- Status: accepted", "- Date: [YYYY-MM-DD when the decision was last updated] <!-- optional -->"), "Use Flyway", "2023-02-06"},
		{"docs/decisions/20201016-use-the-adr-slug.md", lines("# Use the ADR slug", "", "- Date: 2020-10-20"), "Use the ADR slug", "2020-10-20"},
		{"docs/adr/2022-03-28_017-udp-networking.md", lines("---", "title: |", "  17. Use UDP protocol for Hydra networking", "---", "", "## Status", "Superseded"), "Use UDP protocol for Hydra networking", "2022-03-28"},
		{"docs/adr/2022-03-28_017-udp-networking.md", lines("## Status", "Superseded"), "Udp networking", "2022-03-28"},
		{"docs/adr/2026-01-plan.md", lines("# Plan", "", "## Decision", "", "X."), "Plan", ""},
		{"docs/adr/0007-use-kafka.md", lines("# 7. Use Kafka"), "Use Kafka", ""},
		{"docs/adr/2021-06-05-0007-use-kafka.md", lines("Text."), "Use kafka", "2021-06-05"},
	}
	for _, tt := range tests {
		r := Parse([]byte(tt.src))
		fn := nameOf(tt.path)
		r.settleTitle(fn)
		if r.Title != tt.title || r.Date != tt.date {
			t.Errorf("%s: title %q, date %q; want %q, %q", tt.path, r.Title, r.Date, tt.title, tt.date)
		}
	}
}

// TestDateFields: the forms of a record's date seen in real logs, and
// template placeholders that are no date.
func TestDateFields(t *testing.T) {
	for src, want := range map[string]string{
		lines("# T", "", "Date of submission: 2019-06-21", "", "## Context"):                          "2019-06-21",
		lines("# T", "", "- Status: accepted", "- Date 2023-09-26", "", "## Context"):                 "2023-09-26",
		lines("# T", "", "* **Date** 2023-09-28"):                                                     "2023-09-28",
		lines("# T", "", "- Date: [YYYY-MM-DD when the decision was last updated] <!-- optional -->"): "",
		lines("# T", "", "Date: {YYYY-MM-DD when the decision was last updated}"):                     "",
		lines("---", "date: {YYYY-MM-DD when the decision was last updated}", "---", "# T"):           "",
		lines("---", `date: "YYYY-MM-DD"`, "---", "# T"):                                              "",
		lines("# T", "", "Date: DD/MM/YYYY"):                                                          "",
		lines("# T", "", "Date: <date>"):                                                              "",
		lines("# T", "", "- Date: [YYYY-MM-DD]", "", "## Changelog", "", "- 2021-02-03: proposed"):    "2021-02-03",
		lines("# T", "", "Date: sometime in 2020"):                                                    "sometime in 2020",
		lines("# T", "", "Date format matters to us."):                                                "",
		lines("# T", "", "Dates 2023-09-26 and 2023-10-01 were missed."):                              "",
		lines("# T", "", "## Context", "", "- Date 2023-09-26 was the launch."):                       "",
	} {
		if r := Parse([]byte(src)); r.Date != want {
			t.Errorf("%q: date %q, want %q", src, r.Date, want)
		}
	}
}

// TestLeadOn: a new record in a log whose names start with their date
// gets its own date there.
func TestLeadOn(t *testing.T) {
	for _, c := range [][3]string{
		{"2021-06-05_", "2026-12-01", "2026-12-01_"},
		{"2021-06-05-", "2026-12-01", "2026-12-01-"},
		{"20210605_", "2026-12-01", "20261201_"},
		{"adr-", "2026-12-01", "adr-"},
		{"", "2026-12-01", ""},
		{"2021-06-05_", "", "2021-06-05_"},
	} {
		if got := leadOn(c[0], c[1]); got != c[2] {
			t.Errorf("leadOn(%q, %q) = %q, want %q", c[0], c[1], got, c[2])
		}
	}
}

// TestNewNameTakesItsDate: in a log named "YYYY-MM-DD_NNN-slug" a new
// record's name starts with its own date, not the date the log's names
// happened to share.
func TestNewNameTakesItsDate(t *testing.T) {
	rec := func(n int) []byte {
		return []byte(fmt.Sprintf("# %d. R\n\nDate: 2022-03-28\n\n## Status\n\nAccepted\n\n## Decision\n\nD.\n", n))
	}
	l, err := Load(fstest.MapFS{
		"docs/adr/2022-03-28_016-a.md": {Data: rec(16)},
		"docs/adr/2022-03-28_017-b.md": {Data: rec(17)},
	}, LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := l.Roots[0].FileName(18, "Try new", "2026-12-04"), "2026-12-04_018-try-new.md"; got != want {
		t.Errorf("FileName = %q, want %q", got, want)
	}
}

// TestWholeValueDates: a date written with a two-digit year, or with the
// month's name between dashes, is read when it is the whole value.
func TestWholeValueDates(t *testing.T) {
	for in, want := range map[string]string{
		"10/04/18":      "2018-04-10",
		"12/02/26":      "2026-02-12",
		"11/23/21":      "2021-11-23",
		"11-April-2023": "2023-04-11",
		"3-Feb-2024":    "2024-02-03",
		"10/04/18 x":    "10/04/18 x",
		"99/99/99":      "99/99/99",
		"insert date":   "insert date",
	} {
		if got := normalizeDate(in); got != want {
			t.Errorf("normalizeDate(%q) = %q, want %q", in, got, want)
		}
	}
}
