package main

import (
	"errors"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/git-adr/git-adr/adr"
	"github.com/git-adr/git-adr/adr/compaction"
)

// This file runs `git adr compaction` once its contract has passed
// (compaction.go): the analysis, or the mode run it hands to, and the
// text report of a read-only analysis or a dry run.

func runCompaction(env *Env, o compactionOptions) error {
	if o.planID != "" {
		return runConfirm(env, o)
	}
	// The load writes nothing, not even the parse cache: the analysis
	// promises no write at all, and a mode run checks its drafter and
	// scope before it writes its plan. So a run without a parse cache
	// (the first in a clone, in CI) parses every record: each text is let
	// go of once parsed, and read again when the analysis reads it, as a
	// record the parse cache serves is.
	env.readOnly = true
	l, err := env.LogWithoutTexts()
	env.readOnly = o.analysisOnly()
	if err != nil {
		return err
	}
	if err := env.requireRoots(l); err != nil {
		return err
	}
	opt := o.analyzeOptions()
	progress, done := terminalProgress(env.Err, "analysing records")
	opt.Progress = progress
	a, err := compaction.Analyze(l, opt)
	done()
	if err != nil {
		var se *compaction.ScopeError
		if errors.As(err, &se) {
			flag := "--domain"
			if len(o.sources) > 0 {
				flag = "--sources"
			}
			e := usagef("%s: %s", flag, se.Msg)
			if se.Hint != "" {
				e.hint(strings.Split(se.Hint, "\n")...)
			}
			return e
		}
		return err
	}
	if !o.analysisOnly() {
		if se := compaction.LogFileScope(l, a, o.mode); se != nil {
			return usagef("%v", se).hint(se.Hint(), "name records that are files with --sources, or choose a --domain without the log's sections; `git adr compaction` without --mode analyses the log read-only")
		}
		return runDrafting(env, o, a)
	}
	if o.json {
		return writeJSON(env.Out, a)
	}
	return writeAnalysis(env.Out, o, a)
}

// writeAnalysis prints the text report: what ran, the scope with its roots
// and counts, the counts per class, the records of each class with their
// reasons, then the issues as path:line: kind: message.
func writeAnalysis(out io.Writer, o compactionOptions, a *compaction.Analysis) error {
	w := &strings.Builder{} // escaped as a whole: it quotes records
	if o.mode == "" {
		fmt.Fprintln(w, "read-only analysis: no model call, nothing written")
	} else {
		fmt.Fprintf(w, "dry run of --mode %s%s: no plan, no model call, nothing written\n", o.mode, numberingNote(o))
	}
	total := len(a.Records)
	fmt.Fprintf(w, "scope: %s, %s in %s\n", scopeText(o), plural(total, "record"), plural(len(a.Roots), "root"))
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	for _, r := range a.Roots {
		fmt.Fprintf(tw, "  %s\t%d\n", r.Path, r.Count)
	}
	tw.Flush()
	var counts []string
	for _, c := range compaction.Classes {
		counts = append(counts, fmt.Sprintf("%d %s", a.Count(c), c))
	}
	fmt.Fprintf(w, "classes: %s\n", strings.Join(counts, ", "))
	for _, c := range compaction.Classes {
		n := a.Count(c)
		if n == 0 {
			continue
		}
		fmt.Fprintf(w, "\n%s (%d):\n", c, n)
		for _, r := range a.Records {
			if r.Class == c {
				fmt.Fprintf(w, "  %s %s %s\n    %s\n", r.ID, r.Status, r.Path, r.Reason)
			}
		}
	}
	writeInferred(w, a.Inferred)
	if len(a.Issues) == 0 {
		fmt.Fprintln(w, "\nissues: none")
	} else {
		fmt.Fprintf(w, "\nissues (%d):\n", len(a.Issues))
		for _, is := range a.Issues {
			at := is.Path
			if is.Line > 0 {
				at = fmt.Sprintf("%s:%d", is.Path, is.Line)
			}
			fmt.Fprintf(w, "%s: %s: %s\n", at, is.Kind, is.Message)
		}
	}
	_, err := io.WriteString(out, adr.EscapeBody(w.String()))
	return err
}

// writeInferred prints the inferred groups: members, why they were
// grouped, the evolution seen, and the command that plans their
// consolidation.
func writeInferred(w io.Writer, gs []compaction.InferredGroup) {
	if len(gs) == 0 {
		fmt.Fprintln(w, "\ninferred groups: none")
		return
	}
	fmt.Fprintf(w, "\ninferred groups (%d): records about one subject that no relation links, found from their words (no model); nothing changes until you plan them\n", len(gs))
	for _, g := range gs {
		fmt.Fprintf(w, "  %s: similarity %.2f", strings.Join(g.IDs, ", "), g.Similarity)
		if len(g.SharedTerms) > 0 {
			fmt.Fprintf(w, "; shared words: %s", strings.Join(g.SharedTerms, ", "))
		}
		if len(g.TitleWords) > 0 {
			fmt.Fprintf(w, "; title words: %s", strings.Join(g.TitleWords, ", "))
		}
		fmt.Fprintln(w)
		for _, r := range g.Records {
			date := r.Date
			if date == "" {
				date = "(no date)"
			}
			fmt.Fprintf(w, "    %s %s %s %s: %s\n", r.ID, r.Status, date, r.Path, r.Title)
		}
		for _, ev := range g.Evolved {
			fmt.Fprintf(w, "    evolved without a marker: %s\n", strings.Join(ev.Signals, "; "))
			for _, q := range ev.Evidence {
				fmt.Fprintf(w, "      %s:%d: %s\n", q.Path, q.Line, q.Text)
			}
		}
		if g.Command != "" {
			fmt.Fprintf(w, "    next: %s\n", g.Command)
		} else {
			fmt.Fprintf(w, "    next: %s\n", g.Note)
		}
	}
}

func scopeText(o compactionOptions) string {
	switch {
	case o.domain != "":
		return "domain " + o.domain
	case len(o.sources) > 0:
		return "sources " + strings.Join(o.sources, ", ")
	}
	return "every unarchived record"
}

// numberingNote names the targets a dry run of a mode would use.
func numberingNote(o compactionOptions) string {
	var parts, targets []string
	if o.style != "" {
		parts = append(parts, "style "+string(o.style))
	}
	if o.drafter != "" {
		parts = append(parts, "drafter "+o.drafter)
	}
	switch {
	case o.archive && o.ack:
		parts = append(parts, "archive on acceptance, external-link risks acknowledged")
	case o.archive:
		parts = append(parts, "archive on acceptance")
	}
	if o.baseline != "" {
		targets = append(targets, "baseline "+o.baseline)
	}
	if o.iteration != "" {
		targets = append(targets, "iteration "+o.iteration)
	}
	if len(targets) > 0 {
		verb := " is a numbering target, not a filter"
		if len(targets) > 1 {
			verb = " are numbering targets, not filters"
		}
		parts = append(parts, andList(targets)+verb)
	}
	if len(parts) == 0 {
		return ""
	}
	return " (" + strings.Join(parts, "; ") + ")"
}
