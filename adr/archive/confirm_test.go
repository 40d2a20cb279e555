package archive

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/git-adr/git-adr/adr"
	"github.com/git-adr/git-adr/gitops"
	"github.com/git-adr/git-adr/internal/gittest"
)

// archiveRepo is a repository whose ADR-0001 is superseded by ADR-0002
// and linked from README.md, with the lock held, and the plan that
// archives ADR-0001, stored as revision 1.
func archiveRepo(t *testing.T) (*Store, *Plan, string) {
	t.Helper()
	r := gittest.Repo(t)
	write := func(p, s string) {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(r.Top, p)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(r.Top, p), []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("doc/adr/0001-a.md", "# 1. A\n\n## Status\n\nSuperseded by [2. B](0002-b.md)\n\n## Decision\n\nA.\n")
	write("doc/adr/0002-b.md", "# 2. B\n\n## Status\n\nAccepted\n\nSupersedes [1. A](0001-a.md)\n\n## Decision\n\nB.\n")
	write("README.md", "See [the old decision](doc/adr/0001-a.md).\n")
	gittest.Git(t, r.Top, "add", "-A")
	gittest.Git(t, r.Top, "commit", "-qm", "log")
	s := &Store{Repo: r}
	res := prepare(t, s)
	if len(res.Plan.Blockers) > 0 {
		t.Fatalf("blockers: %v", res.Plan.Blockers)
	}
	if done, err := s.Offer(res.Plan); err != nil || done != "" {
		t.Fatalf("Offer = %q, %v", done, err)
	}
	_, commit, err := s.Load(res.Plan.ID)
	if err != nil {
		t.Fatal(err)
	}
	return s, res.Plan, commit
}

func headLog(t *testing.T, r *gitops.Repo) *adr.Log {
	t.Helper()
	tree, err := r.TreeFS("HEAD")
	if err != nil {
		t.Fatal(err)
	}
	l, err := adr.Load(tree, adr.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return l
}

func prepare(t *testing.T, s *Store) *Result {
	t.Helper()
	head, err := s.Repo.ResolveRef("HEAD")
	if err != nil {
		t.Fatal(err)
	}
	res, err := Prepare(s.Repo, headLog(t, s.Repo), Request{Kind: KindArchive, Base: head, IDs: []string{"1"}})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func TestOfferKeepsOneRevisionPerContent(t *testing.T) {
	s, p, _ := archiveRepo(t)
	if p.Revision != 1 {
		t.Fatalf("first revision = %d, want 1", p.Revision)
	}
	again := prepare(t, s).Plan
	if done, err := s.Offer(again); err != nil || done != "" {
		t.Fatalf("Offer again = %q, %v", done, err)
	}
	if again.Revision != 1 {
		t.Errorf("the same plan offered again is revision %d, want 1 (reused)", again.Revision)
	}
	if err := s.Cancel(again); err != nil {
		t.Fatal(err)
	}
	latest, _, err := s.Load(p.ID)
	if err != nil || latest.State != Cancelled || latest.Revision != 2 {
		t.Fatalf("after Cancel: %+v, %v; want revision 2 cancelled", latest, err)
	}
}

func TestCarryCommitsAndRecordsDone(t *testing.T) {
	s, p, commit := archiveRepo(t)
	r := s.Repo
	if _, _, _, err := s.ForConfirm(p.ID, KindArchive, 2); !isRequest(err) {
		t.Errorf("ForConfirm of a revision past the latest: %v, want a RequestError", err)
	}
	if _, _, _, err := s.ForConfirm(p.ID, KindRestore, 1); !isRequest(err) {
		t.Errorf("ForConfirm of the other kind: %v, want a RequestError", err)
	}
	got, c, done, err := s.ForConfirm(p.ID, KindArchive, 1)
	if err != nil || done || c != commit || got.Revision != 1 {
		t.Fatalf("ForConfirm = rev %d, %q, done %v, %v", got.Revision, c, done, err)
	}
	// Again, on an unchanged HEAD, is the plan approved.
	again, err := s.Again(headLog(t, r), p)
	if err != nil {
		t.Fatal(err)
	}
	if again.Plan.Content() != p.Content() {
		t.Fatalf("Again differs on an unchanged HEAD: %s", Diff(p, again.Plan))
	}
	res, err := s.Carry(headLog(t, r), p, commit, CarryOptions{JournalDir: filepath.Join(r.GitDir, "adr", "journal")})
	if err != nil {
		t.Fatal(err)
	}
	if res.Interrupted != "" || len(res.Commits) != p.Commits || res.Done == nil || res.Done.State != Done {
		t.Fatalf("Carry = %+v", res)
	}
	if _, err := os.Stat(filepath.Join(r.Top, "doc/adr/0001-a.md")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the record is still at its old path: %v", err)
	}
	readme, _ := os.ReadFile(filepath.Join(r.Top, "README.md"))
	if !strings.Contains(string(readme), "doc/adr/archive/0001-a.md") {
		t.Errorf("README.md link not rewritten: %s", readme)
	}
	if head, _ := r.ResolveRef("HEAD"); head != res.Commits[len(res.Commits)-1] {
		t.Errorf("HEAD %s is not the last commit %v", head, res.Commits)
	}
	// Done stored the bytes README.md had before, for a restore.
	stored, _, err := s.Load(p.ID)
	if err != nil || stored.State != Done || stored.Revision != 2 || strings.Join(stored.Published, " ") != strings.Join(res.Commits, " ") {
		t.Fatalf("stored after Carry: %+v, %v", stored, err)
	}
	// A replayed confirmation of the planned revision is done already.
	if _, _, done, err := s.ForConfirm(p.ID, KindArchive, 1); err != nil || !done {
		t.Errorf("ForConfirm after Carry = done %v, %v; want done", done, err)
	}
	// Offering the same plan again says it is done.
	if done, err := s.Offer(prepareFrom(t, s, res.Commits[0]+"^")); err != nil || done != res.Commits[len(res.Commits)-1] {
		t.Errorf("Offer after Carry = %q, %v", done, err)
	}
	// Undoing finds the archival a restore undoes.
	pl, undo, err := s.Undoing(p.ID)
	if err != nil || undo == nil || undo.Revision != 2 || pl.ID != p.ID {
		t.Errorf("Undoing = %+v, %+v, %v", pl, undo, err)
	}
}

// prepareFrom plans the archival of ADR-0001 from base, as a preview made
// before the archival was committed would.
func prepareFrom(t *testing.T, s *Store, base string) *Plan {
	t.Helper()
	c, err := s.Repo.ResolveRef(base)
	if err != nil {
		t.Fatal(err)
	}
	tree, err := s.Repo.TreeFS(c)
	if err != nil {
		t.Fatal(err)
	}
	l, err := adr.Load(tree, adr.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	res, err := Prepare(s.Repo, l, Request{Kind: KindArchive, Base: c, IDs: []string{"1"}})
	if err != nil {
		t.Fatal(err)
	}
	return res.Plan
}

func TestCarryFinishesAnInterruptedPublication(t *testing.T) {
	s, p, commit := archiveRepo(t)
	r := s.Repo
	journal := filepath.Join(r.GitDir, "adr", "journal")
	first, err := s.Carry(headLog(t, r), p, commit, CarryOptions{JournalDir: journal})
	if err != nil {
		t.Fatal(err)
	}
	// Commits lists the publication from its last commit, oldest first.
	last := first.Commits[len(first.Commits)-1]
	cs, err := Commits(r, last, p.Commits)
	if err != nil || strings.Join(cs, " ") != strings.Join(first.Commits, " ") {
		t.Fatalf("Commits = %v, %v; want %v", cs, err, first.Commits)
	}
	// Finish finds the same commits and makes none.
	commits, _, err := Finish(r, p, last, journal, "test")
	if err != nil || strings.Join(commits, " ") != strings.Join(first.Commits, " ") {
		t.Fatalf("Finish = %v, %v; want %v", commits, err, first.Commits)
	}
	// A run interrupted after its commits: the plan is not recorded done,
	// and Carry finishes it by its trailer instead of committing again.
	gittest.Git(t, r.Top, "update-ref", Ref(p.ID), commit)
	var told []string
	again, err := s.Carry(headLog(t, r), p, commit, CarryOptions{JournalDir: journal, Interrupted: func(c string) { told = append(told, c) }})
	if err != nil {
		t.Fatal(err)
	}
	if len(told) != 1 || told[0] != last {
		t.Errorf("Interrupted was told %v, want %s once, before finishing", told, last)
	}
	if again.Interrupted != last || strings.Join(again.Commits, " ") != strings.Join(first.Commits, " ") {
		t.Errorf("Carry after an interruption = %+v, want the publication ending in %s finished", again, last)
	}
	if head, _ := r.ResolveRef("HEAD"); head != last {
		t.Errorf("a second publication was made: HEAD %s, want %s", head, last)
	}
	if stored, _, err := s.Load(p.ID); err != nil || stored.State != Done {
		t.Errorf("not recorded done after finishing: %+v, %v", stored, err)
	}
}

func TestCarryRefusesAChangedPlan(t *testing.T) {
	s, p, commit := archiveRepo(t)
	r := s.Repo
	// Another Markdown file now links the record: the plan computed again
	// rewrites one more file, so it is not what was approved.
	if err := os.WriteFile(filepath.Join(r.Top, "NOTES.md"), []byte("[A](doc/adr/0001-a.md)\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	gittest.Git(t, r.Top, "add", "-A")
	gittest.Git(t, r.Top, "commit", "-qm", "notes")
	head, _ := r.ResolveRef("HEAD")
	_, err := s.Carry(headLog(t, r), p, commit, CarryOptions{JournalDir: filepath.Join(r.GitDir, "adr", "journal")})
	var ce *ChangedError
	if !errors.As(err, &ce) || ce.Diff == "" {
		t.Fatalf("Carry of a changed plan = %v, want a ChangedError", err)
	}
	if now, _ := r.ResolveRef("HEAD"); now != head {
		t.Errorf("HEAD moved: %s -> %s", head, now)
	}
}

func TestDoneKeepsTheBytesBefore(t *testing.T) {
	s, p, commit := archiveRepo(t)
	before, err := os.ReadFile(filepath.Join(s.Repo.Top, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	done, err := s.Done(p, commit, []string{"c1"})
	if err != nil || done.State != Done || done.Published[0] != "c1" {
		t.Fatalf("Done = %+v, %v", done, err)
	}
	if p.State != Planned {
		t.Errorf("Done changed the plan it was given: %s", p.State)
	}
	_, c, err := s.Load(p.ID)
	if err != nil {
		t.Fatal(err)
	}
	got := gittest.Git(t, s.Repo.Top, "show", c+":"+BeforeFile("README.md"))
	if got != string(before) {
		t.Errorf("stored before-bytes of README.md = %q, want %q", got, before)
	}
}

func TestUndoingRefusesAPlanNotDone(t *testing.T) {
	s, p, _ := archiveRepo(t)
	_, _, err := s.Undoing(p.ID)
	var se *StateError
	if !errors.As(err, &se) {
		t.Fatalf("Undoing a planned archival = %v, want a StateError", err)
	}
}

func isRequest(err error) bool {
	var re *RequestError
	return errors.As(err, &re)
}

func TestLatestAndPreview(t *testing.T) {
	s, p, _ := archiveRepo(t)
	all, err := s.Latest("")
	if err != nil || len(all) != 1 || all[0].ID != p.ID {
		t.Fatalf("Latest(\"\") = %v, %v", all, err)
	}
	var le *LoadError
	if _, err := s.Latest("a-missing"); !errors.As(err, &le) || le.ID != "a-missing" || !errors.Is(err, ErrNoPlan) {
		t.Errorf("Latest of a missing plan = %v", err)
	}
	head, _ := s.Repo.ResolveRef("HEAD")
	res, err := Preview(s.Repo, headLog(t, s.Repo), head, []string{"1"}, false)
	if err != nil || res.Plan.Content() != p.Content() {
		t.Fatalf("Preview = %v; want the plan Prepare makes", err)
	}
	r := s.Repo
	os.MkdirAll(filepath.Join(r.Top, "docs"), 0o755)
	if err := os.WriteFile(filepath.Join(r.Top, "docs/DECISIONS.md"), []byte("# Decisions\n\n## ADR-001: A\n\nStatus: Accepted\n\n## ADR-002: B\n\nStatus: Superseded by [A](DECISIONS.md#adr-001-a)\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	gittest.Git(t, r.Top, "add", "-A")
	gittest.Git(t, r.Top, "commit", "-qm", "log file")
	head, _ = r.ResolveRef("HEAD")
	tree, _ := r.TreeFS("HEAD")
	l, err := adr.Load(tree, adr.LoadOptions{Roots: []string{"docs/DECISIONS.md"}})
	if err != nil {
		t.Fatal(err)
	}
	var se *adr.SectionError
	if _, err := Preview(r, l, head, []string{"ADR-002"}, false); !errors.As(err, &se) || se.Op != "archive" {
		t.Errorf("Preview of a section of a single-file log = %v, want a SectionError", err)
	}
}
