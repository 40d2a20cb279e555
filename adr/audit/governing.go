package audit

import (
	"fmt"
	"os"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/git-adr/git-adr/adr"
	"github.com/git-adr/git-adr/adr/scope"
	"github.com/git-adr/git-adr/gitops"
	"github.com/git-adr/git-adr/internal/prefetch"
)

// WithMentions gives x the stored path tokens of l's records
// (mentions.bin), so that Govern searches only the records that can name
// a path instead of reading every record's text: what context, explain
// and the hook reminder ask.
func WithMentions(r *gitops.Repo, l *adr.Log, x *scope.Index) *scope.Index {
	x.Mentions = scope.LoadMentions(filepath.Join(r.AdrDir(), "cache"), l)
	return x
}

// GrepMarkers is git grep's output of the scope markers in paths;
// nothing when git grep fails (the markers are a hint, declared scope
// still answers).
func GrepMarkers(r *gitops.Repo, paths []string) []byte {
	out, err := r.Grep(scope.MarkerPattern, "", paths, nil, scope.MarkersPerFile, scope.MarkersMax)
	if err != nil {
		return nil
	}
	return out
}

// Governing are the decisions that govern paths: declared scope, the
// markers of markers (GrepMarkers' output over those paths) and the
// records that name them.
func Governing(r *gitops.Repo, l *adr.Log, paths []string, markers []byte) []scope.Match {
	x := WithMentions(r, l, scope.New(l, scope.ParseMarkers(markers, scope.MarkersMax)))
	return x.Govern(paths)
}

// Governed is one record governing one path (`git adr explain`).
type Governed struct {
	Path       string     `json:"path"`
	ID         string     `json:"id"`
	Title      string     `json:"title"`
	Status     adr.Status `json:"status"`
	InForce    bool       `json:"in_force"`
	Kind       string     `json:"kind"`
	Why        string     `json:"why"`
	RecordPath string     `json:"record_path"`
}

// Explain lists the records governing paths (repository-relative; "dir/*"
// for what is in a folder), in the order of paths, records in force
// first: declared scope, the markers in the work tree's tracked files
// outside the ADR roots, and the records that name them.
func Explain(r *gitops.Repo, l *adr.Log, paths []string) ([]Governed, error) {
	x, err := ScopeIndex(r, l, "")
	if err != nil {
		return nil, err
	}
	out := []Governed{}
	for _, m := range WithMentions(r, l, x).Govern(paths) {
		out = append(out, Governed{Path: m.Path, ID: m.Record.ID, Title: m.Record.Title, Status: m.Record.Status,
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
	return out, nil
}

// Staleness labels an answer's records with the staleness signals check
// finds through git: a declared glob that matches no tracked file, and
// governed code changed in more than [check] churn_commits commits since
// the record was added. Only an answer showing a record with a declared
// scope costs anything: the tracked files (tracked, when the caller
// listed them ahead; else `git ls-files` now) and the churn counts
// (churn.bin, or three git commands when HEAD moved), side by side.
func Staleness(r *gitops.Repo, l *adr.Log, tracked func() ([]string, error)) func([]*adr.Record) map[*adr.Record][]string {
	return func(recs []*adr.Record) map[*adr.Record][]string {
		want := map[*adr.Record]bool{}
		for _, rec := range recs {
			if !rec.Archived {
				want[rec] = true
			}
		}
		all := scope.New(l, nil).Patterns()
		var pats []scope.Match
		for _, m := range all {
			if want[m.Record] {
				pats = append(pats, m)
			}
		}
		if len(pats) == 0 || r.Bare {
			return nil
		}
		if tracked == nil {
			tracked = prefetch.Start(func() ([]string, error) { return r.TrackedFiles("") })
		}
		out := map[*adr.Record][]string{}
		churned := map[*adr.Record]string{}
		if limit := ChurnLimit(l.Config); limit >= 0 {
			// Counted for every scoped record in force at once, and kept
			// for this HEAD (churn.bin): the next answer reads them.
			order, globs := ScopedInForce(all)
			counts, _ := CachedChurn(r, l, order, globs)
			for _, rec := range order {
				if n, ok := counts[rec]; ok && n > limit && want[rec] {
					churned[rec] = fmt.Sprintf("scope churn: the code it governs (%s) changed in %d commits since it was recorded", strings.Join(globs[rec], ", "), n)
				}
			}
		}
		if files, err := tracked(); err == nil {
			files = slices.Sorted(slices.Values(files))
			for _, m := range pats {
				if !scope.MatchesAny(m.Path, files) {
					out[m.Record] = append(out[m.Record], fmt.Sprintf("scope unmatched: %s matches no tracked file", m.Why))
				}
			}
		}
		for _, rec := range recs {
			if c, ok := churned[rec]; ok {
				out[rec] = append(out[rec], c)
			}
		}
		return out
	}
}

// OutsideError is a path asked about that is not inside the repository.
type OutsideError struct{ Path string }

func (e *OutsideError) Error() string {
	return fmt.Sprintf("%q is not a path inside the repository", e.Path)
}

// PathsAsked turns paths as typed (relative to the working directory)
// into the repository paths [Explain] takes: a folder stands for what is
// in it ("dir/*").
func PathsAsked(r *gitops.Repo, args []string) ([]string, error) {
	var out []string
	for _, a := range args {
		rel, ok := r.Rel(a)
		if !ok || rel == "" {
			return nil, &OutsideError{Path: a}
		}
		if fi, err := os.Stat(r.Abs(rel)); err == nil && fi.IsDir() {
			rel = path.Join(rel, "*") // any file in it
		}
		out = append(out, rel)
	}
	return out, nil
}
