package main

import (
	"fmt"
	"io/fs"
	"strings"

	"github.com/git-adr/git-adr/adr"
	"github.com/git-adr/git-adr/adr/view"
	"github.com/git-adr/git-adr/gitops"
	"github.com/urfave/cli/v2"
)

// checkJSON is the --json shape of check (docs/commands/check.md).
type checkJSON struct {
	Findings []adr.Finding           `json:"findings"`
	Counts   map[adr.FindingKind]int `json:"counts"`
	Notes    []string                `json:"notes,omitempty"`
}

func checkCommand(env *Env) *cli.Command {
	var asJSON, compaction bool
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

Examples:
   git adr check
   git adr check --compaction
   git adr check --json | jq '.findings[] | select(.kind == "broken-reference")'`,
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "json", Usage: "print {findings, counts} as JSON", Destination: &asJSON},
			&cli.BoolFlag{Name: "compaction", Usage: "also report stale, corrupt or unsupported CURRENT views and stale INDEX.md files", Destination: &compaction},
		},
		Action: func(c *cli.Context) error {
			if c.NArg() > 0 {
				return usagef("check takes no arguments, got %q", c.Args().First()).hint("use --root DIR to check one root only")
			}
			return runCheck(env, asJSON, compaction)
		},
	}
}

func runCheck(env *Env, asJSON, compaction bool) error {
	l, err := env.Log()
	if err != nil {
		return err
	}
	if err := env.requireRoots(l); err != nil {
		return err
	}
	opt, err := checkBranches(env, l)
	if err != nil {
		return err
	}
	if compaction {
		if opt.Extra, err = view.Findings(l); err != nil {
			return err
		}
		opt.ExtraKinds = adr.CompactionKinds
	}
	rep := l.Check(opt)
	env.notes(rep.Notes)
	if asJSON {
		if err := writeJSON(env.Out, checkJSON{Findings: rep.Findings, Counts: rep.Counts, Notes: rep.Notes}); err != nil {
			return err
		}
	} else {
		for _, f := range rep.Findings {
			loc := f.Path
			if f.Line > 0 {
				loc = fmt.Sprintf("%s:%d", f.Path, f.Line)
			}
			fmt.Fprintf(env.Out, "%s: %s: %s\n  fix: %s\n", loc, f.Kind, f.Message, f.Fix)
		}
	}
	summary := fmt.Sprintf("%d findings", len(rep.Findings))
	if len(rep.Findings) == 1 {
		summary = "1 finding"
	}
	if rep.Ignored > 0 {
		summary += fmt.Sprintf(" (%d ignored by %s)", rep.Ignored, adr.ConfigFile)
	}
	fmt.Fprintln(env.Err, summary)
	if len(rep.Findings) > 0 {
		return silentExit(ExitFailure)
	}
	return nil
}

// checkBranches gathers what check needs to compare IDs with other
// branches: their record files, merge bases, and which branch is the
// default one.
func checkBranches(env *Env, l *adr.Log) (adr.CheckOptions, error) {
	var opt adr.CheckOptions
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
		out, err := repo.Git("merge-base", "HEAD", ref)
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
