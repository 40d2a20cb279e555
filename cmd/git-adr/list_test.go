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

// TestWriteJSONArray: list --json printed element by element is what
// writeJSON printed for the whole slice: nested values, empty slices,
// characters JSON may escape as HTML, no element at all.
func TestWriteJSONArray(t *testing.T) {
	type rel struct {
		Type   string  `json:"type"`
		Target *string `json:"target_id"`
	}
	type elem struct {
		ID    string            `json:"id"`
		Title string            `json:"title"`
		Rels  []rel             `json:"relations"`
		Tags  []string          `json:"tags"`
		Meta  map[string]string `json:"meta,omitempty"`
		N     *int              `json:"n,omitempty"`
	}
	id, n := "ADR-0002", 7
	all := []elem{
		{ID: "ADR-0001", Title: "<Use> & \"escape\" — 日本語", Rels: []rel{{"supersedes", &id}, {"amends", nil}}, Tags: []string{}, N: &n},
		{ID: "ADR-0002", Title: "x\ty\u2028z", Meta: map[string]string{"b": "1", "a": "2"}},
		{},
	}
	for k := 0; k <= len(all); k++ {
		vals := all[:k]
		var want, got bytes.Buffer
		if err := writeJSON(&want, vals); err != nil {
			t.Fatal(err)
		}
		if err := writeJSONArray(&got, len(vals), func(i int) any { return vals[i] }); err != nil {
			t.Fatal(err)
		}
		if got.String() != want.String() {
			t.Errorf("%d elements:\ngot\n%s\nwant\n%s", k, got.String(), want.String())
		}
	}
}
