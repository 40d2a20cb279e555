package main

import (
	"bufio"
	"bytes"
	"fmt"
	"testing"
	"text/tabwriter"
)

// TestWriteColumns: list's column writer prints what text/tabwriter
// printed, wide characters, empty cells and long cells included.
func TestWriteColumns(t *testing.T) {
	rows := [][4]string{
		{"ADR-0001", "accepted", "2024-01-05", "Record architecture decisions"},
		{"ADR-0002", "superseded", "-", "Übersetzung — 日本語のタイトル"},
		{"", "", "", ""},
		{"ADR-10000", "proposed", "2024-13-99 (as written)", "x (archived)"},
		{"über-slug-ünïcode", "unknown", "-", ""},
	}
	for n := 0; n <= len(rows); n++ {
		var want bytes.Buffer
		tw := tabwriter.NewWriter(&want, 0, 0, 2, ' ', 0)
		for _, r := range rows[:n] {
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", r[0], r[1], r[2], r[3])
		}
		tw.Flush()
		var got bytes.Buffer
		bw := bufio.NewWriter(&got)
		writeColumns(bw, rows[:n])
		bw.Flush()
		if got.String() != want.String() {
			t.Errorf("%d rows:\ngot\n%s\nwant\n%s", n, got.String(), want.String())
		}
	}
}
