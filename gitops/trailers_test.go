package gitops

import (
	"reflect"
	"slices"
	"strings"
	"testing"
)

// commitAt commits what is staged with message msg at a fixed date, so
// the order of the history is the dates'.
func commitAt(t *testing.T, dir, date, msg string) {
	t.Helper()
	t.Setenv("GIT_AUTHOR_DATE", date)
	t.Setenv("GIT_COMMITTER_DATE", date)
	runGit(t, dir, "commit", "-q", "--allow-empty", "-m", msg)
}

func subjects(cs []TrailerCommit) []string {
	var out []string
	for _, c := range cs {
		out = append(out, c.Subject)
	}
	return out
}

func TestCommitsByTrailer(t *testing.T) {
	dir := newRepo(t, map[string]string{"a": "a\n"})
	commitAt(t, dir, "2026-01-01T10:00:00Z", "first\n\nImplements: ADR-0012")
	commitAt(t, dir, "2026-01-02T10:00:00Z", "second\n\nrefs: 12, ADR-0013\nReviewed-by: X")
	commitAt(t, dir, "2026-01-03T10:00:00Z", "third names 12 in prose only")
	// A dot in the text is quoted: "1.2" does not match "112".
	commitAt(t, dir, "2026-01-04T10:00:00Z", "fourth\n\nRefs: 112")
	r := openRepo(t, dir)

	cs, err := r.CommitsByTrailer([]string{"Implements", "Refs"}, "12")
	if err != nil {
		t.Fatal(err)
	}
	if got, want := subjects(cs), []string{"fourth", "second", "first"}; !reflect.DeepEqual(got, want) {
		t.Fatalf("subjects = %q, want %q", got, want)
	}
	// Trailers of the keys asked for only, as git parses them.
	if got, want := cs[1].Trailers, []string{"refs: 12, ADR-0013"}; !reflect.DeepEqual(got, want) {
		t.Errorf("second's trailers = %q, want %q", got, want)
	}
	if got, want := cs[2].Trailers, []string{"Implements: ADR-0012"}; !reflect.DeepEqual(got, want) {
		t.Errorf("first's trailers = %q, want %q", got, want)
	}
	if len(cs[2].Hash) != 40 || cs[2].Date != "2026-01-01T10:00:00+00:00" {
		t.Errorf("first = %+v, want a full hash and its ISO 8601 author date", cs[2])
	}
	if cs, err := r.CommitsByTrailer([]string{"Refs"}, "1.2"); err != nil || len(cs) != 0 {
		t.Errorf("text 1.2 = %+v, %v: want no commit (the dot is literal)", cs, err)
	}
}

func TestFileHistory(t *testing.T) {
	dir := newRepo(t, map[string]string{"doc/adr/0001-a.md": "# 1. A\n\nsome text that stays the same\n", "other": "o\n"})
	writeFile(t, dir, "other", "changed\n")
	runGit(t, dir, "add", "-A")
	commitAt(t, dir, "2026-01-02T10:00:00Z", "unrelated")
	runGit(t, dir, "mv", "doc/adr/0001-a.md", "doc/adr/0001-b.md")
	commitAt(t, dir, "2026-01-03T10:00:00Z", "rename")
	r := openRepo(t, dir)

	cs, err := r.FileHistory("doc/adr/0001-b.md")
	if err != nil {
		t.Fatal(err)
	}
	// Renames are followed: the commit that made the file under its old
	// name is in its history.
	if got, want := subjects(cs), []string{"rename", "init"}; !reflect.DeepEqual(got, want) {
		t.Errorf("subjects = %q, want %q", got, want)
	}
	for _, c := range cs {
		if c.Trailers != nil {
			t.Errorf("%s: trailers %q, want none asked", c.Subject, c.Trailers)
		}
	}
}

// The commits a push or a receive brings, oldest first: a range, those
// no tracking ref of a remote holds, those no ref holds; and the count of
// what a push to a remote could send.
func TestCommitsAPushBrings(t *testing.T) {
	dir := newRepo(t, map[string]string{"a": "a\n"})
	base := strings.TrimSpace(runGit(t, dir, "rev-parse", "HEAD"))
	runGit(t, dir, "update-ref", "refs/remotes/origin/main", base)
	commitAt(t, dir, "2026-01-02T10:00:00Z", "two")
	two := strings.TrimSpace(runGit(t, dir, "rev-parse", "HEAD"))
	commitAt(t, dir, "2026-01-03T10:00:00Z", "three")
	three := strings.TrimSpace(runGit(t, dir, "rev-parse", "HEAD"))
	r := openRepo(t, dir)

	check := func(what string, got []string, err error, want ...string) {
		t.Helper()
		if err != nil || !slices.Equal(got, want) {
			t.Errorf("%s = %q, %v, want %q", what, got, err, want)
		}
	}
	got, err := r.CommitsBetween(base, three)
	check("CommitsBetween(base, three)", got, err, two, three)
	got, err = r.CommitsBetween("", three)
	check("CommitsBetween(\"\", three)", got, err, base, two, three)
	got, err = r.CommitsNotOnRemote(three, "origin")
	check("CommitsNotOnRemote(three, origin)", got, err, two, three)
	got, err = r.CommitsNotOnRemote(three, "elsewhere")
	check("CommitsNotOnRemote(three, elsewhere)", got, err, base, two, three)
	// main holds every commit: a new ref at three brings none.
	got, err = r.CommitsNotOnAnyRef(three)
	check("CommitsNotOnAnyRef(three)", got, err)

	for remote, want := range map[string]int{"origin": 2, "": 2, "elsewhere": 3} {
		if n, err := r.CountNotOnRemote(remote); err != nil || n != want {
			t.Errorf("CountNotOnRemote(%q) = %d, %v, want %d", remote, n, err, want)
		}
	}
}
