package main

import (
	"errors"
	"fmt"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/git-adr/git-adr/adr"
	"github.com/git-adr/git-adr/adr/ledger"
)

func showCommand(env *Env) *cli.Command {
	var asJSON bool
	return &cli.Command{
		Name:      "show",
		Usage:     "show one record, or one decision unit of it",
		ArgsUsage: "ID[#unit|§N]",
		Description: `ID may be written in any form: ADR-0007, adr-7, 7, 0007, a slug, a file name or
a path. A unit locator shows one excerpt: ADR-0012#decision, ADR-0012#decision.2
(the second paragraph or list item of the section), ADR-0042§3.

Examples:
   git adr show 7
   git adr show ADR-0012#decision --json`,
		Flags: []cli.Flag{&cli.BoolFlag{Name: "json", Destination: &asJSON, Usage: "print JSON"}},
		Action: func(c *cli.Context) error {
			if c.NArg() != 1 {
				return usagef("show needs exactly one ID, got %d arguments", c.NArg()).hint("run `git adr list` to see IDs")
			}
			return runShow(env, c.Args().First(), asJSON)
		},
	}
}

// maxCandidates is how many records an ambiguous reference's error
// names ("2023" may start a year's records).
const maxCandidates = 10

// resolveRecord resolves a user-given reference, turning paths relative to
// the working directory into repository paths, and maps lookup errors to
// usage errors with hints.
func resolveRecord(env *Env, l *adr.Log, ref string) (*adr.Record, error) {
	r, err := lookupRecord(env, l, ref)
	if err == nil {
		return r, nil
	}
	var amb *adr.AmbiguousError
	if errors.As(err, &amb) {
		e := usagef("%q names %d records", ref, len(amb.Candidates))
		for i, c := range amb.Candidates {
			if i == maxCandidates {
				e.hint(fmt.Sprintf("and %d more (`git adr list` shows them)", len(amb.Candidates)-i))
				break
			}
			e.hint(fmt.Sprintf("%s is %s", c.ID, c.Locus()))
		}
		if amb.Prefix {
			return nil, e.hint("name one by more of its ID, for example `" + amb.Candidates[0].ID + "`")
		}
		return nil, e.hint("name one by its path, for example `" + amb.Candidates[0].Locus() + "`")
	}
	if adr.IsNotFound(err) {
		return nil, usagef("no record %q", ref).hint("run `git adr list` to see IDs")
	}
	return nil, err
}

// lookupRecord is resolveRecord with the log's own errors
// (*adr.AmbiguousError, not found), for callers that word them otherwise.
func lookupRecord(env *Env, l *adr.Log, ref string) (*adr.Record, error) {
	var rel func(string) (string, bool)
	if repo, err := env.Repo(); err == nil {
		rel = repo.Rel
	}
	return l.LookupTyped(ref, rel)
}

type showJSON struct {
	adr.RecordInfo
	Units   []adr.Unit `json:"units"`
	Content string     `json:"content"`
	Unit    *adr.Unit  `json:"unit,omitempty"`
	// ImplementedBy is the newest commit with an Implements: trailer
	// naming the record.
	ImplementedBy *ledger.RecordCommit `json:"implemented_by,omitempty"`
	// Repository is the workspace member the record belongs to (only
	// with --workspace).
	Repository string `json:"repository,omitempty"`
}

func runShow(env *Env, ref string, asJSON bool) error {
	if env.acrossWorkspace(true) {
		return runWorkspaceShow(env, ref, asJSON)
	}
	// What show prints of the other records is their IDs (the targets of
	// the record's relations), which their file names give: the log is
	// loaded by name and only the record shown is read and parsed
	// (TestLazyEnsure checks it is then the record a full load yields).
	l, err := env.LazyLog()
	if err != nil {
		return err
	}
	if err := env.requireRoots(l); err != nil {
		return err
	}
	r, err := resolveRecord(env, l, ref)
	if err != nil {
		return err
	}
	if err := l.Ensure(r); err != nil {
		return err
	}
	var impl *ledger.RecordCommit
	if repo, err := env.Repo(); err == nil {
		impl = ledger.LatestImplementation(repo, l, r)
	}
	return printRecord(env, r, ref, "", impl, asJSON)
}

// printRecord prints a record as show does; repository names the
// workspace member it belongs to ("" outside a workspace), which then
// qualifies its ID.
func printRecord(env *Env, r *adr.Record, ref, repository string, impl *ledger.RecordCommit, asJSON bool) error {
	_, anchor := adr.SplitLocator(ref)
	var unit *adr.Unit
	content := string(r.Content())
	if anchor != "" {
		u, text, ok := r.Excerpt(anchor)
		if !ok {
			var anchors []string
			for _, u := range r.Units() {
				anchors = append(anchors, u.ID)
			}
			return usagef("%s has no unit %q", r.ID, anchor).hint("its units are: " + strings.Join(anchors, ", "))
		}
		unit, content = &u, text
	}
	if asJSON {
		units := r.Units()
		if units == nil {
			units = []adr.Unit{}
		}
		return writeJSON(env.Out, showJSON{RecordInfo: r.Info(), Units: units, Content: content, Unit: unit, ImplementedBy: impl, Repository: repository})
	}
	w := env.Out
	esc := adr.Escape
	id := r.ID
	if repository != "" {
		id = repository + ":" + id
	}
	fmt.Fprintf(w, "%s  %s\n", esc(id), esc(r.Title))
	raw := r.RawStatus
	if raw == "" {
		raw = "none"
	}
	fmt.Fprintf(w, "status:  %s (%s)\n", r.Status, esc(raw))
	if r.Date != "" {
		fmt.Fprintf(w, "date:    %s\n", esc(r.Date))
	}
	if r.InLogFile() {
		from, to := r.LineRange()
		fmt.Fprintf(w, "path:    %s:%d-%d (a section of a single-file log)\n", esc(r.Path), from, to)
	} else {
		fmt.Fprintf(w, "path:    %s\n", esc(r.Path))
	}
	fmt.Fprintf(w, "style:   %s\n", r.Style)
	if len(r.Domains) > 0 {
		fmt.Fprintf(w, "domains: %s\n", esc(strings.Join(r.Domains, ", ")))
	}
	for _, rel := range r.Relations {
		target := rel.TargetID
		if target == "" {
			target = rel.Target + " (unresolved)"
		}
		fmt.Fprintf(w, "%s %s\n", esc(string(rel.Type)), esc(target))
	}
	if len(r.AppliesTo) > 0 {
		fmt.Fprintf(w, "applies to: %s\n", esc(strings.Join(r.AppliesTo, ", ")))
	}
	if r.ReviewBy != "" {
		fmt.Fprintf(w, "review by: %s\n", esc(r.ReviewBy))
	}
	if impl != nil {
		fmt.Fprintf(w, "implemented by: %s %s (%s; `git adr log %s`)\n", short(impl.Commit), esc(impl.Subject), impl.Date[:min(10, len(impl.Date))], esc(r.ID))
	}
	for _, p := range r.Problems {
		fmt.Fprintf(w, "problem: %s\n", esc(p))
	}
	if unit != nil {
		fmt.Fprintf(w, "unit:    %s (lines %d-%d, sha256 %s)\n", esc(unit.ID), unit.Start, unit.End, unit.Hash[:12])
	}
	fmt.Fprintln(w)
	// The body keeps its lines and tabs; nothing in it drives the terminal.
	content = adr.EscapeBody(content)
	fmt.Fprint(w, content)
	if !strings.HasSuffix(content, "\n") {
		fmt.Fprintln(w)
	}
	return nil
}
