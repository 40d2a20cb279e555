package main

import (
	"fmt"
	"strings"

	"github.com/git-adr/git-adr/adr"
	"github.com/git-adr/git-adr/adr/compaction"
	"github.com/git-adr/git-adr/internal/lazyre"
	"github.com/urfave/cli/v2"
)

// movedSubcommands are subcommands the reference contract names that
// git-adr offers as their own command.
var movedSubcommands = map[string]string{
	"archive": "git adr archive",
}

// compactionOptions is the validated contract of `git adr compaction`
// (docs/commands/compaction.md). Only compactionFlags.options makes one, so
// every value in it has passed the contract's rules.
type compactionOptions struct {
	// mode is "" for the read-only analysis.
	mode compaction.Mode
	// domain or sources select the scope; both empty is every unarchived
	// record of every root. sources are exact IDs in the order given.
	domain  string
	sources []string
	// dryRun analyses the scope (of mode, when given) and writes nothing.
	dryRun bool
	// archive asks for an archive-on-accept part (consolidate only): the
	// records the acceptance retires are moved into the archive right
	// after it, as approved with it; ack acknowledges that part's
	// external-link risks (with archive).
	archive, ack bool
	// style of the replacement records ("" for the project's
	// configuration); consolidate only.
	style adr.Style
	// baseline and iteration are numbering targets of the new records,
	// never input filters and never invented; consolidate only.
	baseline, iteration string
	// planID and revision are --confirm's <plan-id>@<revision>; a
	// confirmation carries nothing else. tree is the optional
	// ":<candidate-tree>" the review printed: the approval then names the
	// content reviewed, and any other candidate is refused.
	planID   string
	revision int
	tree     string
	// drafter names the drafter ("" for the project's configuration).
	drafter string
	// yes acknowledges the scope, read volume and cost of drafting without
	// asking; it never approves publication.
	yes  bool
	json bool
}

// analysisOnly reports a run that analyses and writes nothing: no mode, or
// --dry-run.
func (o compactionOptions) analysisOnly() bool { return o.mode == "" || o.dryRun }

func (o compactionOptions) analyzeOptions() compaction.AnalyzeOptions {
	// Inferred groups are a finding for a person; a plan does not use
	// them.
	return compaction.AnalyzeOptions{Domain: o.domain, Sources: o.sources, Infer: o.analysisOnly()}
}

// onceValue is a string flag that counts how often it is given, so that
// `--mode summary --mode consolidate` is an error rather than a silent
// last-one-wins.
type onceValue struct {
	value string
	n     int
}

func (v *onceValue) Set(s string) error { v.value, v.n = s, v.n+1; return nil }
func (v *onceValue) String() string     { return v.value }

// listValue collects every --sources value as written.
type listValue struct{ values []string }

func (v *listValue) Set(s string) error { v.values = append(v.values, s); return nil }
func (v *listValue) String() string     { return strings.Join(v.values, ",") }

// compactionFlags are the flags as given, before the contract is checked.
type compactionFlags struct {
	mode, domain, style, baseline, iteration, confirm, drafter onceValue
	sources                                                    listValue
	dryRun, archive, ack, json, yes                            bool
}

func compactionCommand(env *Env) *cli.Command {
	var f compactionFlags
	return &cli.Command{
		Name:            "compaction",
		Usage:           "analyse the decision log for compaction (read-only), or plan a summary or consolidation",
		UsageText:       compactionUsage,
		Description:     compactionHelp,
		HideHelpCommand: true,
		Subcommands:     compactionSubcommands(env),
		Flags: []cli.Flag{
			&cli.GenericFlag{Name: "mode", Value: &f.mode, Usage: "draft with AI: `MODE` summary (CURRENT.md) or consolidate (replacement ADRs); none = read-only analysis"},
			&cli.GenericFlag{Name: "domain", Value: &f.domain, Usage: "only the unarchived records of domain `SLUG` (not with --sources)"},
			&cli.GenericFlag{Name: "sources", Value: &f.sources, Usage: "only these exact unarchived records, comma-separated `IDS` (not with --domain)"},
			&cli.BoolFlag{Name: "dry-run", Usage: "analyse the scope (and mode) without a plan, a model call or any write", Destination: &f.dryRun},
			&cli.BoolFlag{Name: "archive", Usage: "consolidate only: also move the records the acceptance retires into the archive, right after it (approved with it; never immediately)", Destination: &f.archive},
			&cli.BoolFlag{Name: "ack-external-links", Usage: "with --archive: acknowledge the links the archive part cannot repair (the plan records it)", Destination: &f.ack},
			&cli.GenericFlag{Name: "style", Value: &f.style, Usage: "consolidate only: replacement `STYLE` ocp, madr or nygard (default: project configuration)"},
			&cli.GenericFlag{Name: "baseline", Value: &f.baseline, Usage: "consolidate only: numbering baseline `V` of the new records (a target, never invented)"},
			&cli.GenericFlag{Name: "iteration", Value: &f.iteration, Usage: "consolidate only: numbering iteration `I` of the new records (a target, NOT a filter)"},
			&cli.GenericFlag{Name: "confirm", Value: &f.confirm, Usage: "accept exactly the reviewed `PLAN@REVISION`; takes no scope, mode, numbering, archive or dry-run flag"},
			&cli.GenericFlag{Name: "drafter", Value: &f.drafter, Usage: "with --mode: the drafter `NAME` (manual, command, openai, or one configured)"},
			&cli.BoolFlag{Name: "yes", Usage: "with --mode: acknowledge the scope, read volume and cost without being asked (approves drafting, never publication)", Destination: &f.yes},
			&cli.BoolFlag{Name: "json", Usage: "print the analysis as JSON {roots, records, issues, inferred}", Destination: &f.json},
		},
		Action: func(c *cli.Context) error {
			if c.NArg() > 0 {
				name := c.Args().First()
				if cmd, ok := movedSubcommands[name]; ok {
					return usagef("`git adr compaction %s` is `%s`", name, cmd).
						hint("preview a move with `git adr archive ID...` and undo one with `git adr archive restore PLAN-ID`; `git adr compaction` lists the archive candidates")
				}
				return usagef("compaction takes no arguments, got %q", name).
					hint("name records with --sources ID,ID; run `git adr compaction -h` for the contract")
			}
			o, err := f.options()
			if err != nil {
				return err
			}
			return runCompaction(env, o)
		},
	}
}

const compactionUsage = `git adr compaction [--domain SLUG | --sources ID,ID,...] [--dry-run] [--json]
git adr compaction --mode summary [--domain SLUG | --sources IDS] [--dry-run] [--drafter NAME]
git adr compaction --mode consolidate [--domain SLUG | --sources IDS] [--archive [--ack-external-links]] [--style ocp|madr|nygard]
                   [--baseline V] [--iteration I] [--dry-run] [--drafter NAME]
git adr compaction --confirm PLAN-ID@REVISION [--json]`

const compactionHelp = `Without --mode (or with --dry-run) compaction is a read-only analysis: no
model call and no write at all (no file, no ref, nothing under $GIT_DIR/adr).
It previews the exact roots and record counts in scope, classifies every record
(retain, summarize, consolidate, unresolved, archive) with a reason, and lists
the issues a person must settle (unknown-status, ambiguous-id, cycle,
broken-reference, contradiction, proposed-successor, partial-supersession) as
path:line: kind: message. It also infers groups of records about one subject
that no relation links, from their own words (no model), flags a later record
that changes an earlier choice without a marker, quoting both sentences, and
prints the --mode consolidate --sources command for each group; inferred
groups change no class and no record. It exits 0 even when it finds issues:
it is a report.

Contract:
   --mode summary|consolidate   explicit AI drafting; none means read-only analysis
   --domain SLUG                one domain's unarchived records (unknown domains are errors)
   --sources ID,ID,...          exact unarchived records; missing, ambiguous or archived IDs are errors
   --dry-run                    analyse the scope/mode without model calls or writes
   --archive                    consolidate only: archive-on-accept; the records the acceptance
                                retires move into the archive right after it, in commits of
                                their own, as the approval card shows them (never immediately)
   --ack-external-links         with --archive: acknowledge the links the move cannot repair
   --style ocp|madr|nygard      consolidate only; default from project configuration
   --baseline V, --iteration I  consolidate only; numbering targets of new records, never
                                input filters, never invented
   --confirm PLAN-ID@REVISION   accept exactly a reviewed plan revision
   --drafter NAME               with --mode: manual, command, openai or a configured name
   --yes                        with --mode: acknowledge the scope, read volume and cost
                                without a prompt (approves drafting only, never publication)

Rules (each violation exits 2 and changes nothing):
   --domain and --sources are mutually exclusive.
   --mode summary rejects --archive, --style, --baseline and --iteration; without
   --mode they need --mode consolidate, and --drafter needs a mode;
   --ack-external-links needs --archive.
   --confirm rejects every scope, mode, numbering, archive, drafter and --yes flag
   and --dry-run: generate a new plan instead.
   A flag given twice, an unknown flag (there is no --all, --force, --unlimited,
   --include-archived or --delete-history) and any argument are errors.

Acceptance: after drafting, a consolidation is offered on the controlling
terminal (never standard input): Accept and execute, Save drafts only, Request
changes, Cancel; blockers disable Accept and execute only. Accepting is ONE
commit on the current branch with the decision ledger as trailers (ADR-Plan,
ADR-Accepted, ADR-Supersedes, ADR-Approved-By). Without a terminal nothing is
accepted (exit 3 and a receipt), except in strict mode, where --confirm's
commit, signed by an approver, is the approval. Subcommands: status, review,
submit, publish (a pull-request branch of the drafts), cancel.

Examples:
   git adr compaction
   git adr compaction --domain storage --json
   git adr compaction --sources ADR-0004,ADR-0009 --dry-run
   git adr compaction --mode summary --dry-run
   git adr compaction --mode consolidate --domain storage --style madr --baseline v2
   git adr compaction --confirm s-1a2b3c4d5e@2`

// The contract's flags in the order messages list them.
var compactionFlagOrder = []string{"mode", "domain", "sources", "dry-run", "archive", "ack-external-links", "style", "baseline", "iteration", "drafter", "yes"}

var (
	// numbering targets: a version or iteration label, no spaces.
	numberingLabel = lazyre.New(`^[A-Za-z0-9][A-Za-z0-9._+-]{0,63}$`)
	drafterName    = lazyre.New(`^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$`)
	planRevision   = lazyre.New(`^([A-Za-z0-9][A-Za-z0-9_-]{0,63})@([1-9][0-9]{0,8})(?::([0-9a-f]{7,40}))?$`)
)

// given reports whether a contract flag was given.
func (f *compactionFlags) given(name string) bool {
	switch name {
	case "mode":
		return f.mode.n > 0
	case "domain":
		return f.domain.n > 0
	case "sources":
		return len(f.sources.values) > 0
	case "dry-run":
		return f.dryRun
	case "archive":
		return f.archive
	case "ack-external-links":
		return f.ack
	case "style":
		return f.style.n > 0
	case "baseline":
		return f.baseline.n > 0
	case "iteration":
		return f.iteration.n > 0
	case "drafter":
		return f.drafter.n > 0
	case "yes":
		return f.yes
	}
	return false
}

// givenOf returns the flags of names that were given, as "--name".
func (f *compactionFlags) givenOf(names ...string) []string {
	var out []string
	for _, n := range names {
		if f.given(n) {
			out = append(out, "--"+n)
		}
	}
	return out
}

// options checks the contract, rule by rule in a fixed order, and returns
// the validated options. The first rule broken is the error.
func (f *compactionFlags) options() (compactionOptions, error) {
	var o compactionOptions
	once := []struct {
		name string
		v    *onceValue
	}{{"mode", &f.mode}, {"domain", &f.domain}, {"style", &f.style}, {"baseline", &f.baseline},
		{"iteration", &f.iteration}, {"confirm", &f.confirm}, {"drafter", &f.drafter}}
	for _, x := range once {
		if x.v.n > 1 {
			return o, usagef("--%s is given %d times: give it once", x.name, x.v.n).hint("run `git adr compaction -h` for the contract")
		}
	}
	o.json = f.json

	if f.confirm.n > 0 {
		if bad := f.givenOf(compactionFlagOrder...); len(bad) > 0 {
			return o, usagef("--confirm cannot be combined with %s: it accepts exactly the reviewed plan; generate a new plan instead", orList(bad)).
				hint("plan again with `git adr compaction --mode MODE [--domain SLUG | --sources IDS]`, review it, then confirm that plan")
		}
		m := planRevision.FindStringSubmatch(strings.TrimSpace(f.confirm.value))
		if m == nil {
			return o, usagef("--confirm %q is not PLAN-ID@REVISION", f.confirm.value).
				hint("name the reviewed revision, for example --confirm s-1a2b3c4d5e@2; `git adr compaction status` lists plans and revisions")
		}
		o.planID, o.tree = m[1], m[3]
		fmt.Sscanf(m[2], "%d", &o.revision)
		return o, nil
	}

	if f.mode.n > 0 {
		switch strings.ToLower(strings.TrimSpace(f.mode.value)) {
		case string(compaction.Summary):
			o.mode = compaction.Summary
		case string(compaction.Consolidate):
			o.mode = compaction.Consolidate
		default:
			return o, usagef("--mode %q is not a mode: use summary or consolidate", f.mode.value).
				hint("without --mode, `git adr compaction` analyses the log and changes nothing")
		}
	}
	if f.given("domain") && f.given("sources") {
		return o, usagef("--domain and --sources are mutually exclusive").
			hint("select one domain, or name exact records, not both")
	}

	consolidateOnly := f.givenOf("archive", "ack-external-links", "style", "baseline", "iteration")
	switch {
	case o.mode == compaction.Summary && len(consolidateOnly) > 0:
		return o, usagef("--mode summary rejects %s: %s only to --mode consolidate", andList(consolidateOnly), applies(len(consolidateOnly))).
			hint("a summary drafts CURRENT.md and its manifest only; replacement ADRs come from --mode consolidate")
	case o.mode == "" && len(consolidateOnly) > 0:
		return o, usagef("%s %s --mode consolidate", andList(consolidateOnly), needs(len(consolidateOnly))).
			hint("without --mode, `git adr compaction` only analyses; add --mode consolidate (and --dry-run to preview)")
	case f.ack && !f.archive:
		return o, usagef("--ack-external-links needs --archive: it acknowledges the risks of the archive part").
			hint("add --archive to move the records the acceptance retires, or drop --ack-external-links")
	case o.mode == "" && f.given("drafter"):
		return o, usagef("--drafter needs --mode: without a mode nothing is drafted").
			hint("add --mode summary or --mode consolidate")
	case o.mode == "" && f.yes:
		return o, usagef("--yes needs --mode: it acknowledges a drafting run, and without a mode nothing is drafted").
			hint("add --mode summary or --mode consolidate")
	}

	if f.given("domain") {
		o.domain = strings.TrimSpace(f.domain.value)
		if o.domain == "" {
			return o, usagef("--domain needs a domain slug").hint("`git adr compaction` without a scope analyses every unarchived record")
		}
	}
	for _, raw := range f.sources.values {
		for _, id := range strings.Split(raw, ",") {
			id = strings.TrimSpace(id)
			if id == "" {
				return o, usagef("--sources %q has an empty ID", raw).hint("separate IDs with commas: --sources ADR-0001,ADR-0004")
			}
			o.sources = append(o.sources, id)
		}
	}
	if f.given("style") {
		switch s := strings.ToLower(strings.TrimSpace(f.style.value)); s {
		case string(adr.StyleOCP), string(adr.StyleMADR), string(adr.StyleNygard):
			o.style = adr.Style(s)
		default:
			return o, usagef("--style %q is not a replacement style: use ocp, madr or nygard", f.style.value).
				hint("without --style, replacements take the style the project's configuration gives")
		}
	}
	if f.given("baseline") {
		if !numberingLabel.MatchString(f.baseline.value) {
			return o, usagef("--baseline %q is not a numbering baseline: use up to 64 letters, digits, '.', '_', '+' or '-', starting with a letter or digit", f.baseline.value).
				hint("git-adr never invents a baseline: give the one your delivery plan names, for example --baseline v2")
		}
		o.baseline = f.baseline.value
	}
	if f.given("iteration") {
		if !numberingLabel.MatchString(f.iteration.value) {
			return o, usagef("--iteration %q is not an iteration: use up to 64 letters, digits, '.', '_', '+' or '-', starting with a letter or digit", f.iteration.value).
				hint("an iteration is the numbering target of the new records, not a filter on the sources: for example --iteration 2026-Q3")
		}
		o.iteration = f.iteration.value
	}
	if f.given("drafter") {
		if !drafterName.MatchString(f.drafter.value) {
			return o, usagef("--drafter %q is not a drafter name", f.drafter.value).
				hint("use manual, command, openai, or a drafter named in .adr.toml")
		}
		o.drafter = f.drafter.value
	}
	o.archive, o.ack = f.archive, f.ack
	o.dryRun = f.dryRun
	o.yes = f.yes
	return o, nil
}

func applies(n int) string {
	if n == 1 {
		return "it applies"
	}
	return "they apply"
}

func needs(n int) string {
	if n == 1 {
		return "needs"
	}
	return "need"
}

func andList(xs []string) string { return joinList(xs, "and") }
func orList(xs []string) string  { return joinList(xs, "or") }

func joinList(xs []string, conj string) string {
	if len(xs) < 2 {
		return strings.Join(xs, "")
	}
	return strings.Join(xs[:len(xs)-1], ", ") + " " + conj + " " + xs[len(xs)-1]
}
