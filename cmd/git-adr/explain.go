package main

import (
	"fmt"
	"os"
	"path"
	"path/filepath"
	"sort"
	"text/tabwriter"

	"github.com/git-adr/git-adr/adr"
	"github.com/git-adr/git-adr/adr/audit"
	"github.com/git-adr/git-adr/adr/scope"
	"github.com/git-adr/git-adr/gitops"
	"github.com/urfave/cli/v2"
)

// Bounds of the marker search (git grep over the tracked files).
const (
	markersPerFile = scope.MarkersPerFile
	markersMax     = scope.MarkersMax
)

// scopeIndex builds the scope index of l: declared globs and the markers
// git grep finds in tracked files outside the ADR roots.
func scopeIndex(env *Env, l *adr.Log) (*scope.Index, error) {
	r, err := env.Repo()
	if err != nil {
		return nil, err
	}
	return audit.ScopeIndex(r, l, "")
}

// withMentions gives x the stored path tokens of l's records
// (mentions.bin), so that Govern searches only the records that can name
// a path instead of reading every record's text: what context, explain
// and the hook reminder ask.
func withMentions(r *gitops.Repo, l *adr.Log, x *scope.Index) *scope.Index {
	x.Mentions = scope.LoadMentions(filepath.Join(r.AdrDir(), "cache"), l)
	return x
}

// governed is one line of `git adr explain`.
type governed struct {
	Path       string     `json:"path"`
	ID         string     `json:"id"`
	Title      string     `json:"title"`
	Status     adr.Status `json:"status"`
	InForce    bool       `json:"in_force"`
	Kind       string     `json:"kind"`
	Why        string     `json:"why"`
	RecordPath string     `json:"record_path"`
}

func explainCommand(env *Env) *cli.Command {
	var asJSON bool
	return &cli.Command{
		Name:      "explain",
		Usage:     "show the decisions that govern files: declared scope, markers in the code, records that name them",
		ArgsUsage: "PATH...",
		Description: `For each path, the records that govern it, strongest reason first:

  applies_to   the record declares it: "Applies to: payments/**" in its
               metadata, applies_to in front matter, or .adr.toml [[scope]]
  marker       a comment in the file names the record (ADR-0012, @adr 12)
  mention      the record names the path or its folder ("payments/")

Records in force (accepted) come first; others are labelled. Archived
records never govern. A folder names what is in it.

Examples:
   git adr explain payments/cache.go
   git adr explain $(git diff --name-only HEAD~1) --json`,
		Flags: []cli.Flag{&cli.BoolFlag{Name: "json", Usage: "print [{path, id, title, status, in_force, kind, why, record_path}]", Destination: &asJSON}},
		Action: func(c *cli.Context) error {
			if c.NArg() == 0 {
				return usagef("explain needs at least one PATH").hint("for example `git adr explain payments/cache.go`")
			}
			return runExplain(env, c.Args().Slice(), asJSON)
		},
	}
}

func runExplain(env *Env, args []string, asJSON bool) error {
	l, err := env.Log()
	if err != nil {
		return err
	}
	if err := env.requireRoots(l); err != nil {
		return err
	}
	r, err := env.Repo()
	if err != nil {
		return err
	}
	paths, err := repoPaths(r, args)
	if err != nil {
		return err
	}
	x, err := scopeIndex(env, l)
	if err != nil {
		return err
	}
	out := governedBy(withMentions(r, l, x), paths)
	if asJSON {
		return writeJSON(env.Out, out)
	}
	if len(out) == 0 {
		fmt.Fprintln(env.Out, "no decision governs these paths")
		return nil
	}
	tw := tabwriter.NewWriter(env.Out, 0, 0, 2, ' ', 0)
	last := ""
	for _, g := range out {
		if g.Path != last && len(paths) > 1 {
			fmt.Fprintf(tw, "%s:\n", adr.Escape(g.Path))
			last = g.Path
		}
		status := string(g.Status)
		if !g.InForce {
			status += " (not in force)"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", adr.Escape(g.ID), status, adr.Escape(g.Title), adr.Escape(g.Why))
	}
	return tw.Flush()
}

// governedBy lists the records governing paths, records in force first.
func governedBy(x *scope.Index, paths []string) []governed {
	out := []governed{}
	for _, m := range x.Govern(paths) {
		out = append(out, governed{Path: m.Path, ID: m.Record.ID, Title: m.Record.Title, Status: m.Record.Status,
			InForce: m.Record.Status == adr.Accepted, Kind: m.Kind, Why: m.Why, RecordPath: m.Record.Path})
	}
	order := map[string]int{}
	for i, p := range paths {
		order[p] = i
	}
	sort.SliceStable(out, func(i, j int) bool {
		if order[out[i].Path] != order[out[j].Path] {
			return order[out[i].Path] < order[out[j].Path]
		}
		return out[i].InForce && !out[j].InForce
	})
	return out
}

// repoPaths turns command-line paths into repository-relative ones; a
// folder stands for what is in it.
func repoPaths(r *gitops.Repo, args []string) ([]string, error) {
	var out []string
	for _, a := range args {
		rel, ok := r.Rel(a)
		if !ok || rel == "" {
			return nil, usagef("%q is not a path inside the repository %q", a, r.Top)
		}
		if fi, err := os.Stat(r.Abs(rel)); err == nil && fi.IsDir() {
			rel = path.Join(rel, "*") // any file in it
		}
		out = append(out, rel)
	}
	return out, nil
}
