package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/urfave/cli/v2"

	"github.com/git-adr/git-adr/adr"
)

type listOptions struct {
	status   string
	domain   string
	archived bool
	json     bool
}

func listCommand(env *Env) *cli.Command {
	var o listOptions
	return &cli.Command{
		Name:  "list",
		Usage: "list records (ID, status, date, title)",
		Description: `Lists the records of every ADR root in number order (slug-identified records
by slug). Archived records are shown with --archived and always in --json.

Examples:
   git adr list
   git adr list --status accepted --domain storage
   git adr list --json | jq '.[] | select(.status == "superseded") | .id'`,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "status", Usage: "only records with normalised status `S` (proposed, accepted, rejected, deprecated, superseded, unknown)", Destination: &o.status},
			&cli.StringFlag{Name: "domain", Usage: "only records tagged with domain `D`", Destination: &o.domain},
			&cli.BoolFlag{Name: "archived", Usage: "include archived records in text output (always in --json)", Destination: &o.archived},
			&cli.BoolFlag{Name: "json", Usage: "print a JSON array", Destination: &o.json},
		},
		Action: func(c *cli.Context) error {
			if c.NArg() > 0 {
				return usagef("list takes no arguments, got %q", c.Args().First()).hint("run `git adr show ID` to see one record")
			}
			return runList(env, o)
		},
	}
}

func runList(env *Env, o listOptions) error {
	var want adr.Status
	if o.status != "" {
		st, ok := adr.ParseStatus(o.status)
		if !ok {
			return usagef("--status %q is not a status", o.status).hint("use one of: proposed, accepted, rejected, deprecated, superseded, unknown")
		}
		want = st
	}
	if env.acrossWorkspace(true) {
		return runWorkspaceList(env, o, want)
	}
	l, err := env.LogWithoutTexts()
	if err != nil {
		return err
	}
	if err := env.requireRoots(l); err != nil {
		return err
	}
	if o.domain != "" {
		if err := knownDomain(l, o.domain); err != nil {
			return err
		}
	}
	recs := l.Select(want, o.domain)
	if o.json {
		bw := bulkWriter(env.Out)
		if err := writeJSONArray(bw, len(recs), func(i int) any { return recs[i].Info() }); err != nil {
			return err
		}
		return bw.Flush()
	}
	rows := make([][4]string, 0, len(recs))
	for _, r := range recs {
		if r.Archived && !o.archived {
			continue
		}
		date := r.Date
		if date == "" {
			date = "-"
		}
		title := r.Title
		if r.Archived {
			title += " (archived)"
		}
		rows = append(rows, [4]string{adr.Escape(r.ID), string(r.Status), adr.Escape(date), adr.Escape(title)})
	}
	bw := bulkWriter(env.Out)
	writeColumns(bw, rows)
	return bw.Flush()
}

// writeJSONArray prints the n values elem gives as writeJSON prints a
// slice of them, one element at a time: at 10,000 records the whole
// array, encoded then indented, held several times the log's size.
func writeJSONArray(w io.Writer, n int, elem func(i int) any) error {
	if n == 0 {
		_, err := io.WriteString(w, "[]\n")
		return err
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetIndent("  ", "  ")
	enc.SetEscapeHTML(false)
	buf.WriteString("[\n")
	for i := 0; i < n; i++ {
		buf.WriteString("  ")
		if err := enc.Encode(elem(i)); err != nil {
			return err
		}
		buf.Truncate(buf.Len() - 1) // Encode's newline
		if i < n-1 {
			buf.WriteByte(',')
		}
		buf.WriteByte('\n')
		if i == n-1 {
			buf.WriteString("]\n")
		}
		if _, err := w.Write(buf.Bytes()); err != nil {
			return err
		}
		buf.Reset()
	}
	return nil
}

// writeColumns prints rows as text/tabwriter does with padding 2 and
// spaces (every column but the last as wide as its widest cell, in runes,
// and two more), without its per-cell buffering: a list of 10,000 records
// spent more in tabwriter than in reading the log. The cells hold no tab
// or newline (adr.Escape escapes them).
func writeColumns(w *bufio.Writer, rows [][4]string) {
	var width [3]int
	for _, row := range rows {
		for c := range width {
			width[c] = max(width[c], utf8.RuneCountInString(row[c]))
		}
	}
	const pad = "                                                                "
	for _, row := range rows {
		for c := range width {
			w.WriteString(row[c])
			for n := width[c] + 2 - utf8.RuneCountInString(row[c]); n > 0; {
				k := min(n, len(pad))
				w.WriteString(pad[:k])
				n -= k
			}
		}
		w.WriteString(row[3])
		w.WriteByte('\n')
	}
}

// knownDomain refuses a --domain no record declares, as context does,
// naming the domains there are.
func knownDomain(l *adr.Log, d string) error {
	ok, names := l.HasDomain(d)
	if ok {
		return nil
	}
	e := usagef("no record has domain %q", d)
	if len(names) == 0 {
		return e.hint("no record declares a domain (a `Domains:` line or `domains:` in front matter)")
	}
	if len(names) > 20 {
		names = append(names[:20], "...")
	}
	return e.hint("known domains: " + strings.Join(names, ", "))
}
