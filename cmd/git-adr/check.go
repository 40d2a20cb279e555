package main

import (
	"fmt"
	"io/fs"
	"path"
	"strings"

	"github.com/git-adr/git-adr/adr"
	"github.com/git-adr/git-adr/adr/compaction"
	"github.com/git-adr/git-adr/adr/govern"
	"github.com/git-adr/git-adr/adr/ledger"
	"github.com/git-adr/git-adr/adr/view"
	"github.com/git-adr/git-adr/gitops"
	"github.com/git-adr/git-adr/hooks"
	"github.com/urfave/cli/v2"
)

// checkJSON is the --json shape of check (docs/commands/check.md).
type checkJSON struct {
	Findings []adr.Finding           `json:"findings"`
	Counts   map[adr.FindingKind]int `json:"counts"`
	Notes    []string                `json:"notes,omitempty"`
}

type checkOptions struct {
	json, compaction bool
	// since is the base of a range (a pull request's): the governance
	// rules of the pre-commit hook are applied to what changed since,
	// and only the findings the range introduced are reported, unless
	// all asks for the whole log's.
	since  string
	all    bool
	format string
}

func checkCommand(env *Env) *cli.Command {
	var o checkOptions
	return &cli.Command{
		Name:  "check",
		Usage: "report problems in the decision log, each with the command or edit that fixes it",
		Description: `Reports duplicate IDs (in a root, and against other local and
remote-tracking branches), broken references, supersession cycles, one-way
links, statuses that contradict the links, unknown statuses, title numbers
that differ from the file name and records that cannot be read.

With --compaction, also reports CURRENT views that are stale (a source
edited, added, deleted, renamed or re-statused, a record entering or leaving
the scope, a dependency changed), corrupt (CURRENT.md edited by hand, a
manifest that is not one, half a pair) or of an unsupported schema, and
generated INDEX.md files that differ from the records.

Exit codes: 0 no findings, 1 findings, 2 usage or configuration error.
Kinds can be ignored in .adr.toml:

   [check]
   ignore = ["unknown-status"]

With --since REV (a pull request's base), check judges what the change
from the merge base of REV and HEAD introduced: the findings the log at the
merge base did not have, and the rules of the pre-commit hook applied to
what changed (an edit of what an accepted record decides, a status change
the lifecycle forbids, a deleted record, a number taken twice, an INDEX.md
that drifted, and with --compaction a view the change made stale). The
findings the base already had are counted in a note; --all reports them
too. It reads only git objects, so it runs in a bare repository (HEAD's
tree is checked) and needs REV's history: in a shallow CI checkout fetch it
first. --format github prints GitHub Actions annotations, --format
codequality a GitLab code quality report.

Exit codes: 0 no findings, 1 findings, 2 usage or configuration error.
Kinds can be ignored in .adr.toml:

   [check]
   ignore = ["unknown-status"]

Examples:
   git adr check
   git adr check --compaction
   git adr check --compaction --since origin/main --format markdown >> "$GITHUB_STEP_SUMMARY"
   git adr check --since "origin/$GITHUB_BASE_REF" --format github
   git adr check --json | jq '.findings[] | select(.kind == "broken-reference")'`,
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "json", Usage: "print {findings, counts} as JSON", Destination: &o.json},
			&cli.BoolFlag{Name: "compaction", Usage: "also report stale, corrupt or unsupported CURRENT views and stale INDEX.md files", Destination: &o.compaction},
			&cli.StringFlag{Name: "since", Usage: "report what changed since `REV` (a pull request's base) introduced, and apply the pre-commit rules to it", Destination: &o.since},
			&cli.BoolFlag{Name: "all", Usage: "with --since: report the whole log's findings, not only those the range introduced", Destination: &o.all},
			&cli.StringFlag{Name: "format", Usage: "text (default), json, markdown (a table, for a CI job summary), github (Actions annotations) or codequality (a GitLab code quality report)", Destination: &o.format},
		},
		Action: func(c *cli.Context) error {
			if c.NArg() > 0 {
				return usagef("check takes no arguments, got %q", c.Args().First()).hint("use --root DIR to check one root only")
			}
			switch o.format {
			case "", "text":
			case "json":
				o.json = true
			case "markdown", "github", "codequality":
				if o.json {
					return usagef("--json and --format %s ask for two outputs", o.format).hint("use one of them")
				}
			default:
				return usagef("--format %q is not text, json, markdown, github or codequality", o.format)
			}
			if o.all && o.since == "" {
				return usagef("--all needs --since REV: without it check reports the whole log already")
			}
			return runCheck(env, o)
		},
	}
}

func runCheck(env *Env, o checkOptions) error {
	if env.Workspace != "" {
		return runWorkspaceCheck(env, o)
	}
	asJSON, compaction := o.json, o.compaction
	env.allowBare = o.since != ""
	l, err := env.Log()
	if err != nil {
		return err
	}
	if err := env.requireRoots(l); err != nil {
		return err
	}
	var rg *sinceRange
	if o.since != "" {
		// Resolved first: a base that is not here is a usage error
		// before any work.
		if rg, err = resolveSince(env, o.since); err != nil {
			return err
		}
	}
	opt, err := checkSources(env, l, "", compaction)
	if err != nil {
		return err
	}
	if opt.Extra, err = temporaryFiles(env, l, opt.Extra); err != nil {
		return err
	}
	if rg != nil {
		gov, kinds, err := sinceFindings(env, rg, compaction)
		if err != nil {
			return err
		}
		opt.Extra, opt.ExtraKinds = append(opt.Extra, gov...), append(opt.ExtraKinds, kinds...)
	}
	rep := l.Check(opt)
	if rg != nil && !o.all {
		if err := introducedOnly(env, l, rg, compaction, rep); err != nil {
			return err
		}
	}
	if err := pendingFindings(env, rep); err != nil {
		return err
	}
	env.notes(rep.Notes)
	switch {
	case asJSON:
		if err := writeJSON(env.Out, checkJSON{Findings: rep.Findings, Counts: rep.Counts, Notes: rep.Notes}); err != nil {
			return err
		}
	case o.format == "markdown":
		writeCheckMarkdown(env, rep, o.since)
	case o.format == "github":
		if err := writeCheckGitHub(env, rep); err != nil {
			return err
		}
	case o.format == "codequality":
		if err := writeJSON(env.Out, codeQuality(rep)); err != nil {
			return err
		}
	default:
		w := bulkWriter(env.Out)
		defer w.Flush() // an error return prints after the findings
		for _, f := range rep.Findings {
			loc := adr.Escape(f.Path)
			if f.Line > 0 {
				loc = fmt.Sprintf("%s:%d", loc, f.Line)
			}
			kind := string(f.Kind)
			if f.Warning {
				kind += " (warning)"
			}
			fmt.Fprintf(w, "%s: %s: %s\n  fix: %s\n", loc, kind, adr.Escape(f.Message), adr.Escape(f.Fix))
		}
		if err := w.Flush(); err != nil {
			return err
		}
	}
	summary := fmt.Sprintf("%d findings", len(rep.Findings))
	if len(rep.Findings) == 1 {
		summary = "1 finding"
	}
	errs, warns := 0, 0
	for _, f := range rep.Findings {
		if f.Warning {
			warns++
		} else {
			errs++
		}
	}
	if warns > 0 {
		summary += fmt.Sprintf(" (%d warnings)", warns)
		if warns == 1 {
			summary = strings.Replace(summary, "(1 warnings)", "(1 warning)", 1)
		}
	}
	if rep.Ignored > 0 {
		summary += fmt.Sprintf(" (%d ignored by %s)", rep.Ignored, adr.ConfigFile)
	}
	fmt.Fprintln(env.Err, summary)
	strict := l.Config != nil && l.Config.Check.Warnings == "error"
	if errs > 0 || strict && warns > 0 {
		return silentExit(ExitFailure)
	}
	return nil
}

// checkSources gathers what check reads besides the log itself, for the
// log l read at commit rev ("" for the work tree, or HEAD in a bare
// repository): other branches' record files, the views and INDEX files
// with compaction, and the staleness and scope signals.
func checkSources(env *Env, l *adr.Log, rev string, compaction bool) (adr.CheckOptions, error) {
	opt, err := checkBranches(env, l, rev)
	if err != nil {
		return opt, err
	}
	if compaction {
		if opt.Extra, err = view.Findings(l); err != nil {
			return opt, err
		}
		opt.ExtraKinds = adr.CompactionKinds
	}
	stale, err := scopeFindings(env, l, rev)
	if err != nil {
		return opt, err
	}
	opt.Extra, opt.ExtraKinds = append(opt.Extra, stale...), append(opt.ExtraKinds, adr.ScopeKinds...)
	// Numbers a plan reserved, taken by a record of this log (the base's
	// too, so that --since reports only what the range took).
	if opt.Extra, err = reservedFindings(env, l, opt.Extra); err != nil {
		return opt, err
	}
	return opt, nil
}

// checkBranches gathers what check needs to compare IDs with other
// branches: their record files, merge bases with rev ("" for HEAD), and
// which branch is the default one.
func checkBranches(env *Env, l *adr.Log, rev string) (adr.CheckOptions, error) {
	var opt adr.CheckOptions
	if rev == "" {
		rev = "HEAD"
	}
	trees, err := env.branchTrees()
	if err != nil {
		return opt, err
	}
	opt.Branches = adr.ScanBranches(trees, l.Roots)
	if len(opt.Branches) == 0 {
		return opt, nil
	}
	repo, err := env.Repo()
	if err != nil {
		return opt, err
	}
	defaults := defaultBranchNames(repo)
	opt.OnDefaultBranch = defaults[branchName(repo.CurrentBranch())]
	opt.IsDefaultRef = func(ref string) bool { return defaults[branchName(ref)] }
	opt.MergeBase = func(ref string) fs.FS {
		out, err := repo.Git("merge-base", rev, ref)
		if err != nil {
			return nil
		}
		t, err := repo.TreeFS(strings.TrimSpace(string(out)))
		if err != nil {
			return nil
		}
		return t
	}
	return opt, nil
}

// defaultBranchNames is the branch refs/remotes/origin/HEAD points at, or
// main and master when there is no such ref.
func defaultBranchNames(repo *gitops.Repo) map[string]bool {
	if out, err := repo.Git("symbolic-ref", "-q", "refs/remotes/origin/HEAD"); err == nil {
		if name := branchName(strings.TrimSpace(string(out))); name != "" {
			return map[string]bool{name: true}
		}
	}
	return map[string]bool{"main": true, "master": true}
}

// branchName is a branch ref without refs/heads/ or refs/remotes/<remote>/.
func branchName(ref string) string {
	if s, ok := strings.CutPrefix(ref, "refs/heads/"); ok {
		return s
	}
	if s, ok := strings.CutPrefix(ref, "refs/remotes/"); ok {
		if i := strings.IndexByte(s, '/'); i >= 0 {
			return s[i+1:]
		}
	}
	return ""
}

// pendingFindings puts the changes interrupted runs left first in the
// report: while one is pending the log may be half changed, and much of
// the rest may follow from it.
func pendingFindings(env *Env, rep *adr.CheckReport) error {
	r, err := env.Repo()
	if err != nil {
		return err
	}
	rep.Counts[adr.KindPendingChange] = 0
	pending, err := adr.PendingJournals(r.Top, journalDir(r))
	if err != nil || len(pending) == 0 {
		return err
	}
	var found []adr.Finding
	for _, p := range pending {
		path := p.File
		if rel, ok := r.Rel(p.File); ok {
			path = rel
		}
		f := adr.Finding{Kind: adr.KindPendingChange, Path: path, IDs: []string{},
			Fix: "run `git adr recover` to finish it (files edited since are never overwritten without --finish)"}
		if p.Err != nil {
			f.Message = p.Err.Error() + "; nothing in it was carried out"
			f.Fix = "inspect it; `git adr recover --keep` removes it and keeps the files as they are"
		} else {
			f.Message = "an interrupted " + p.Describe() + ": the log may be half changed, and findings below may follow from it"
			if cs := p.Conflicts(); len(cs) > 0 {
				f.Message += fmt.Sprintf("; %d of its files were changed since (first: %s %s)", len(cs), cs[0].Conflict, cs[0].Reason)
			}
		}
		found = append(found, f)
		rep.Counts[adr.KindPendingChange]++
	}
	rep.Findings = append(found, rep.Findings...)
	return nil
}

// reservedFindings adds a finding for each record holding a number a
// consolidation plan reserved (see compaction.Store.Taken).
func reservedFindings(env *Env, l *adr.Log, extra []adr.Finding) ([]adr.Finding, error) {
	r, err := env.Repo()
	if err != nil {
		return nil, err
	}
	taken, err := (&compaction.Store{Repo: r}).Taken(l)
	if err != nil {
		return nil, err
	}
	return append(extra, compaction.TakenFindings(taken)...), nil
}

// temporaryFiles adds a finding for each git-adr temporary file in an ADR
// folder (left by a run killed while writing).
func temporaryFiles(env *Env, l *adr.Log, extra []adr.Finding) ([]adr.Finding, error) {
	for _, rt := range l.Roots {
		if rt.Refused != nil {
			continue // nothing is read there
		}
		for _, dir := range []string{rt.Dir(), rt.Join(adr.ArchiveDir)} {
			// Through the log's confined file system: a folder that is a
			// link out of the repository is not listed.
			entries, err := fs.ReadDir(l.FS, dir)
			if err != nil {
				continue
			}
			for _, e := range entries {
				if e.Type().IsRegular() && adr.IsTempName(e.Name()) {
					extra = append(extra, adr.Finding{Kind: adr.KindTempFile, Path: path.Join(dir, e.Name()), IDs: []string{},
						Message: "a temporary file left by a git-adr run that was interrupted",
						Fix:     "run `git adr recover`, which removes it"})
				}
			}
		}
	}
	return extra, nil
}

// sinceFindings applies the governance rules to what changed in the
// range, reading only git objects.
func sinceFindings(env *Env, rg *sinceRange, compaction bool) ([]adr.Finding, []adr.FindingKind, error) {
	r, err := env.Repo()
	if err != nil {
		return nil, nil, err
	}
	from, baseFS, headFS, changes := rg.from, rg.baseFS, rg.headFS, rg.changes
	rep, err := govern.Judge(govern.Input{Base: baseFS, Next: headFS, Changes: changes, Policy: govern.Policy{Index: "check"}})
	if err != nil {
		return nil, nil, err
	}
	// The ledger and, in strict mode, the signature of every acceptance
	// or publication commit of the range, as pre-push and pre-receive
	// check them. The policy is the base's: a change cannot relax it.
	ledgers, err := rangeLedgers(r, from, baseFS)
	if err != nil {
		return nil, nil, err
	}
	var out []adr.Finding
	for _, p := range append(rep.Problems, ledgers...) {
		if !p.Block && !compaction {
			continue
		}
		out = append(out, adr.Finding{Kind: adr.FindingKind(p.Rule), Path: p.Path, Line: p.Line, Message: p.Message, Fix: p.Fix, IDs: []string{}})
	}
	kinds := []adr.FindingKind{adr.FindingKind(govern.RuleAcceptedEdit), adr.FindingKind(govern.RuleLifecycle), adr.FindingKind(govern.RuleDeleted), adr.FindingKind(govern.RuleArchivedInForce),
		adr.FindingKind(govern.RuleDuplicateNumber), adr.FindingKind(govern.RuleIndexDrift),
		adr.FindingKind(hooks.RuleLedger), adr.FindingKind(hooks.RuleSignature), adr.FindingKind(ledger.RuleUnledgered)}
	if compaction {
		kinds = append(kinds, adr.FindingKind(govern.RuleStaleView))
	}
	return out, kinds, nil
}

// writeCheckMarkdown prints the findings as a Markdown table (a CI job
// summary or a pull request comment).
func writeCheckMarkdown(env *Env, rep *adr.CheckReport, since string) {
	w := bulkWriter(env.Out)
	defer w.Flush()
	title := "git adr check"
	if since != "" {
		title += " since " + since
	}
	fmt.Fprintf(w, "## %s\n\n", adr.EscapeCell(title))
	if len(rep.Findings) == 0 {
		fmt.Fprintln(w, "No findings.")
		return
	}
	fmt.Fprintf(w, "%d finding(s).\n\n| file | kind | problem | fix |\n| --- | --- | --- | --- |\n", len(rep.Findings))
	for _, f := range rep.Findings {
		loc := f.Path
		if f.Line > 0 {
			loc = fmt.Sprintf("%s:%d", f.Path, f.Line)
		}
		fmt.Fprintf(w, "| %s | %s | %s | %s |\n", adr.EscapeCell(loc), f.Kind, adr.EscapeCell(f.Message), adr.EscapeCell(f.Fix))
	}
}

// rangeLedgers checks the ledger commits of from..HEAD (hooks.CheckCommits)
// with the strict-mode policy of from's tree, its allowed-signers file read
// from that tree too.
func rangeLedgers(r *gitops.Repo, from string, baseFS fs.FS) ([]govern.Problem, error) {
	out, err := r.Git("rev-list", "--reverse", from+"..HEAD")
	if err != nil {
		return nil, err
	}
	commits := strings.Fields(string(out))
	if len(commits) == 0 {
		return nil, nil
	}
	cfg := &adr.Config{}
	if c, err := adr.LoadConfig(baseFS); err == nil {
		cfg = c
	}
	return hooks.CheckCommits(r, commits, ledger.StrictFrom(cfg.Governance, baseFS))
}
