package govern

import (
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/git-adr/git-adr/adr"
	"github.com/git-adr/git-adr/adr/evidence/labelled"
	"github.com/git-adr/git-adr/gitops"
)

// corpora is the folder of the shared ADR corpora (labelled.Corpora);
// the test skips without it, except with CI=true.
func corpora(t *testing.T) string {
	t.Helper()
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	d, err := labelled.Corpora(wd)
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("%v (CI=true: the corpora are required)", err)
		}
		t.Skip(err)
	}
	return d
}

// mapDir reads a folder's text files into a MapFS.
func mapDir(t *testing.T, dir string) fstest.MapFS {
	t.Helper()
	m := fstest.MapFS{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		m[filepath.ToSlash(rel)] = &fstest.MapFile{Data: data}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// judgeBoth judges a change listing only the changed records and listing
// every record, and fails when the two reports differ.
func judgeBoth(t *testing.T, name string, base, next fstest.MapFS, changes ...gitops.DiffEntry) *Report {
	t.Helper()
	narrow, err := Judge(Input{Base: base, Next: next, Changes: changes})
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	wholeLogs = true
	whole, err := Judge(Input{Base: base, Next: next, Changes: changes})
	wholeLogs = false
	if err != nil {
		t.Fatalf("%s (whole): %v", name, err)
	}
	if !reflect.DeepEqual(narrow, whole) {
		t.Errorf("%s: judging the changed records only gives\n%+v\nlisting every record gives\n%+v", name, narrow.Problems, whole.Problems)
	}
	return narrow
}

func clone(m fstest.MapFS) fstest.MapFS {
	out := make(fstest.MapFS, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

// mutations are the changes judged on every sampled record: each the
// next state and its diff.
func mutations(base fstest.MapFS, r *adr.Record) map[string]func() (fstest.MapFS, []gitops.DiffEntry) {
	p := r.Path
	text := string(base[p].Data)
	m := func(q string) []gitops.DiffEntry { return []gitops.DiffEntry{{Status: 'M', Path: q}} }
	with := func(q, s string) fstest.MapFS {
		n := clone(base)
		n[q] = &fstest.MapFile{Data: []byte(s)}
		return n
	}
	out := map[string]func() (fstest.MapFS, []gitops.DiffEntry){
		"text appended": func() (fstest.MapFS, []gitops.DiffEntry) { return with(p, text+"\nOne more line.\n"), m(p) },
		"title edited": func() (fstest.MapFS, []gitops.DiffEntry) {
			return with(p, strings.Replace(text, r.Title, r.Title+" again", 1)), m(p)
		},
		"deleted": func() (fstest.MapFS, []gitops.DiffEntry) {
			n := clone(base)
			delete(n, p)
			return n, []gitops.DiffEntry{{Status: 'D', Path: p}}
		},
		"archived": func() (fstest.MapFS, []gitops.DiffEntry) {
			n := clone(base)
			delete(n, p)
			to := path.Join(path.Dir(p), adr.ArchiveDir, path.Base(p))
			n[to] = base[p]
			return n, []gitops.DiffEntry{{Status: 'R', OldPath: p, Path: to}}
		},
	}
	for _, from := range []string{"Accepted", "Superseded", "Proposed", "Deprecated", "accepted", "superseded"} {
		for _, to := range []string{"Rejected", "Accepted", "Proposed"} {
			if from != to && strings.Contains(text, from) {
				from, to := from, to
				out["status "+from+" to "+to] = func() (fstest.MapFS, []gitops.DiffEntry) {
					return with(p, strings.Replace(text, from, to, 1)), m(p)
				}
			}
		}
	}
	if r.Numbered {
		q := path.Join(path.Dir(p), fmt.Sprintf("%04d-a-copy.md", r.Number))
		out["number taken"] = func() (fstest.MapFS, []gitops.DiffEntry) {
			return with(q, text), []gitops.DiffEntry{{Status: 'A', Path: q}}
		}
		out["renumbered onto it"] = func() (fstest.MapFS, []gitops.DiffEntry) {
			n := clone(base)
			n[q] = base[p]
			delete(n, p)
			return n, []gitops.DiffEntry{{Status: 'R', OldPath: p, Path: q}}
		}
	}
	return out
}

// Judging only the changed records (and those their relations name) gives
// the same report as listing every record, on every corpus, for edits,
// status changes, deletions, archival and numbers taken.
func TestNarrowJudgeEqualsWhole(t *testing.T) {
	dir := corpora(t)
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	judged := 0
	for _, e := range entries {
		if !e.IsDir() {
			continue
		}
		base := mapDir(t, filepath.Join(dir, e.Name()))
		l, err := adr.Load(base, adr.LoadOptions{})
		if err != nil {
			continue // a corpus git-adr finds no log in
		}
		var files []*adr.Record
		for _, r := range l.Records {
			if !r.InLogFile() {
				files = append(files, r)
			}
		}
		step := max(1, len(files)/12)
		for i := 0; i < len(files); i += step {
			r := files[i]
			for name, mk := range mutations(base, r) {
				next, changes := mk()
				judgeBoth(t, e.Name()+": "+r.Path+": "+name, base, next, changes...)
				judged++
			}
		}
	}
	if judged == 0 {
		t.Fatal("no change judged")
	}
}

// The cases a narrow load must widen for: a superseded record's successor
// named in the refusal, an ID two roots hold, a generated index and a
// CURRENT view that list every record.
func TestNarrowJudgeNeighbours(t *testing.T) {
	base := fstest.MapFS{
		"doc/adr/0001-use-postgresql.md": rec(1, "Use PostgreSQL", "Superseded", "We use PostgreSQL.", "Superseded by [3. Use MySQL](0003-use-mysql.md)"),
		"doc/adr/0002-shard-orders.md":   rec(2, "Shard orders", "Superseded", "Shard by customer.", "Superseded by ADR-0003"),
		"doc/adr/0003-use-mysql.md":      rec(3, "Use MySQL", "Accepted", "We use MySQL.", "Supersedes [1. Use PostgreSQL](0001-use-postgresql.md)"),
		"doc/adr/0004-cache.md":          rec(4, "Cache", "Superseded", "Cache.", "Superseded by 2"),
		"doc/adr/0005-more.md":           rec(5, "More", "Accepted", "More."),
		"api/adr/0002-api-shape.md":      rec(2, "API shape", "Accepted", "REST."),
		"api/adr/0003-api-auth.md":       rec(3, "API auth", "Accepted", "Tokens."),
		".adr.toml":                      &fstest.MapFile{Data: []byte("[[roots]]\npath = \"doc/adr\"\n\n[[roots]]\npath = \"api/adr\"\n")},
	}
	for _, p := range []string{"doc/adr/0001-use-postgresql.md", "doc/adr/0002-shard-orders.md", "doc/adr/0004-cache.md"} {
		next := clone(base)
		next[p] = &fstest.MapFile{Data: []byte(strings.Replace(string(base[p].Data), "Superseded\n", "Accepted\n", 1))}
		rep := judgeBoth(t, p+" accepted again", base, next, gitops.DiffEntry{Status: 'M', Path: p})
		if len(rep.Problems) != 1 || rep.Problems[0].Rule != RuleLifecycle {
			t.Errorf("%s accepted again: %v", p, rules(rep))
		}
	}
	// A generated index and a CURRENT view read the whole root.
	for _, extra := range []string{"doc/adr/INDEX.md", "doc/adr/CURRENT.md"} {
		b := clone(base)
		b[extra] = &fstest.MapFile{Data: []byte("# Index\n")}
		next := clone(b)
		next["doc/adr/0006-new.md"] = rec(6, "New", "Proposed", "New.")
		judgeBoth(t, extra, b, next, gitops.DiffEntry{Status: 'A', Path: "doc/adr/0006-new.md"})
	}
	next := clone(base)
	next["api/adr/0005-more.md"] = rec(5, "More", "Proposed", "x")
	judgeBoth(t, "a number the other root holds", base, next, gitops.DiffEntry{Status: 'A', Path: "api/adr/0005-more.md"})
}

// A root with a generated index: an edit that keeps every row the index
// shows leaves the index alone (and lists no other record); an edit of a
// title regenerates it, from every record.
func TestNarrowJudgeIndex(t *testing.T) {
	base := fstest.MapFS{}
	for i := 1; i <= 30; i++ {
		base[fmt.Sprintf("doc/adr/%04d-d%d.md", i, i)] = rec(i%100, fmt.Sprintf("Decision %d", i), "Proposed", "D.")
	}
	l, err := adr.Load(base, adr.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	base["doc/adr/INDEX.md"] = &fstest.MapFile{Data: adr.RenderIndex(l.Roots[0], l)}
	p := "doc/adr/0007-d7.md"
	body := clone(base)
	body[p] = &fstest.MapFile{Data: append(append([]byte(nil), base[p].Data...), "\nMore detail.\n"...)}
	if rep := judgeBoth(t, "a body edit", base, body, gitops.DiffEntry{Status: 'M', Path: p}); len(rep.Fixes) != 0 || len(rep.Problems) != 0 {
		t.Errorf("a body edit: fixes %v, problems %v", rep.Fixes, rules(rep))
	}
	title := clone(base)
	title[p] = &fstest.MapFile{Data: []byte(strings.Replace(string(base[p].Data), "Decision 7", "Decision seven", 1))}
	rep := judgeBoth(t, "a title edit", base, title, gitops.DiffEntry{Status: 'M', Path: p})
	if len(rep.Fixes) != 1 || !strings.Contains(string(rep.Fixes[0].Content), "Decision seven") || !strings.Contains(string(rep.Fixes[0].Content), "Decision 30") {
		t.Errorf("a title edit: fixes %+v", rep.Fixes)
	}
	// An index already stale before the commit is the next row-changing
	// commit's to fix (and `git adr check`'s to report), not a body edit's.
	stale := clone(base)
	stale["doc/adr/INDEX.md"] = &fstest.MapFile{Data: []byte(strings.Replace(string(base["doc/adr/INDEX.md"].Data), "Decision 3 ", "Decision three ", 1))}
	if string(stale["doc/adr/INDEX.md"].Data) == string(base["doc/adr/INDEX.md"].Data) {
		t.Fatal("the stale index is the fresh one")
	}
	staleNext := clone(stale)
	staleNext[p] = body[p]
	narrow, err := Judge(Input{Base: stale, Next: staleNext, Changes: []gitops.DiffEntry{{Status: 'M', Path: p}}})
	if err != nil {
		t.Fatal(err)
	}
	if len(narrow.Fixes) != 0 {
		t.Errorf("a body edit rewrote an index that was stale before it: %+v", narrow.Fixes)
	}
}

// Records kept as folders (log4brains-style "DATE-slug/README.md") and in
// archive year folders judge the same both ways.
func TestNarrowJudgeFolders(t *testing.T) {
	base := fstest.MapFS{
		".adr.toml": &fstest.MapFile{Data: []byte("[[roots]]\npath = \"docs/decisions\"\n")},
	}
	for i, slug := range []string{"use-go", "use-toml", "use-git", "use-make"} {
		base[fmt.Sprintf("docs/decisions/2023-01-0%d-%s/README.md", i+1, slug)] = &fstest.MapFile{Data: []byte("# " + slug + "\n\n- Status: accepted\n\n## Decision\n\nWe " + slug + ".\n")}
	}
	base["docs/decisions/archive/2022/2022-05-01-use-svn/README.md"] = &fstest.MapFile{Data: []byte("# use-svn\n\n- Status: superseded\n\nSuperseded by [use git](../../../2023-01-03-use-git/README.md)\n\n## Decision\n\nWe use svn.\n")}
	p := "docs/decisions/2023-01-02-use-toml/README.md"
	edit := clone(base)
	edit[p] = &fstest.MapFile{Data: []byte(strings.Replace(string(base[p].Data), "We use-toml.", "We use YAML.", 1))}
	if rep := judgeBoth(t, "a folder record's decision", base, edit, gitops.DiffEntry{Status: 'M', Path: p}); len(rep.Problems) != 1 || rep.Problems[0].Rule != RuleAcceptedEdit {
		t.Errorf("a folder record's decision edited: %v", rules(rep))
	}
	a := "docs/decisions/archive/2022/2022-05-01-use-svn/README.md"
	again := clone(base)
	again[a] = &fstest.MapFile{Data: []byte(strings.Replace(string(base[a].Data), "superseded", "accepted", 1))}
	if rep := judgeBoth(t, "an archived record accepted again", base, again, gitops.DiffEntry{Status: 'M', Path: a}); len(rep.Problems) != 1 || rep.Problems[0].Rule != RuleLifecycle || !strings.Contains(rep.Problems[0].Message, "superseded by 2023-01-03-use-git") {
		t.Errorf("an archived record accepted again: %+v", rep.Problems)
	}
	gone := clone(base)
	delete(gone, p)
	judgeBoth(t, "a folder record deleted", base, gone, gitops.DiffEntry{Status: 'D', Path: p})
}
