package plans

import (
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/git-adr/git-adr/gitops"
	"github.com/git-adr/git-adr/internal/gittest"
)

const prefix = "refs/adr/plans/"

func store(t *testing.T) (Store, *gitops.Repo) {
	t.Helper()
	r := gittest.Repo(t)
	return Store{Repo: r, Prefix: prefix}, r
}

func git(t *testing.T, r *gitops.Repo, args ...string) string {
	t.Helper()
	return strings.TrimSpace(gittest.Git(t, r.Top, args...))
}

// A revision is a commit whose tree holds plan.json and the plan's files,
// on the plan's ref; the next revision has it as its parent, and Load and
// Read give back what was saved.
func TestSaveRevisions(t *testing.T) {
	s, r := store(t)
	first, err := s.Save("s-1", "plan s-1 rev 1\n\nbody", []byte(`{"rev":1}`), map[string][]byte{
		"evidence/b.json": []byte("b"),
		"evidence/a.json": []byte("a"),
	}, "")
	if err != nil {
		t.Fatal(err)
	}
	if got := git(t, r, "rev-parse", prefix+"s-1"); got != first {
		t.Fatalf("ref = %s, want the revision %s", got, first)
	}
	if got := git(t, r, "ls-tree", "-r", "--name-only", first); got != "evidence/a.json\nevidence/b.json\nplan.json" {
		t.Errorf("revision tree = %q", got)
	}
	if got := git(t, r, "rev-list", "--parents", "-n", "1", first); got != first {
		t.Errorf("a new plan's first revision has parents: %q", got)
	}
	if got := git(t, r, "log", "-1", "--format=%B", first); got != "plan s-1 rev 1\n\nbody" {
		t.Errorf("message = %q", got)
	}

	second, err := s.Save("s-1", "plan s-1 rev 2", []byte(`{"rev":2}`), nil, first)
	if err != nil {
		t.Fatal(err)
	}
	if got := git(t, r, "rev-parse", second+"^"); got != first {
		t.Errorf("revision 2's parent = %s, want revision 1 %s", got, first)
	}
	// A revision holds only what it was given: files are not carried over.
	if got := git(t, r, "ls-tree", "-r", "--name-only", second); got != File {
		t.Errorf("revision 2 tree = %q, want only %s", got, File)
	}
	commit, plan, err := s.Load("s-1")
	if err != nil || commit != second || string(plan) != `{"rev":2}` {
		t.Errorf("Load = %s %q %v, want revision 2", commit, plan, err)
	}
	if data, err := s.Read(first, "evidence/b.json"); err != nil || string(data) != "b" {
		t.Errorf("Read(revision 1, evidence/b.json) = %q, %v", data, err)
	}
	if _, err := s.Read(second, "evidence/b.json"); !errors.Is(err, gitops.ErrNotFound) {
		t.Errorf("Read of a file revision 2 lacks = %v, want gitops.ErrNotFound", err)
	}
}

// The ref moves compare-and-swap: a revision saved from a stale read, or
// a new plan whose ID is taken, is an error wrapping ErrRefChanged and
// moves nothing.
func TestSaveCompareAndSwap(t *testing.T) {
	s, r := store(t)
	first, err := s.Save("s-1", "rev 1", []byte("1"), nil, "")
	if err != nil {
		t.Fatal(err)
	}
	second, err := s.Save("s-1", "rev 2", []byte("2"), nil, first)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Save("s-1", "rev 2 again", []byte("2'"), nil, first); !errors.Is(err, gitops.ErrRefChanged) {
		t.Errorf("a save from a stale revision = %v, want ErrRefChanged", err)
	}
	if _, err := s.Save("s-1", "another rev 1", []byte("1'"), nil, ""); !errors.Is(err, gitops.ErrRefChanged) {
		t.Errorf("a new plan over an existing one = %v, want ErrRefChanged", err)
	}
	if got := git(t, r, "rev-parse", prefix+"s-1"); got != second {
		t.Errorf("the ref moved after lost races: %s, want %s", got, second)
	}
}

// The refs in creates are created in the same transaction, pointing at
// the revision; when one exists already, nothing moves at all.
func TestSaveCreatesRefsAtomically(t *testing.T) {
	s, r := store(t)
	const cand = "refs/adr/candidates/s-1"
	rev, err := s.Save("s-1", "rev 1", []byte("1"), nil, "", cand)
	if err != nil {
		t.Fatal(err)
	}
	if got := git(t, r, "rev-parse", cand); got != rev {
		t.Errorf("%s = %s, want the revision %s", cand, got, rev)
	}
	_, err = s.Save("s-2", "rev 1", []byte("1"), nil, "", "refs/adr/candidates/s-2", cand)
	if !errors.Is(err, gitops.ErrRefChanged) {
		t.Fatalf("a create over an existing ref = %v, want ErrRefChanged", err)
	}
	if out := git(t, r, "for-each-ref", "--format=%(refname)", prefix+"s-2", "refs/adr/candidates/s-2"); out != "" {
		t.Errorf("a failed transaction left refs: %q", out)
	}
	if got := git(t, r, "rev-parse", cand); got != rev {
		t.Errorf("%s moved: %s", cand, got)
	}
}

// Load of an unknown plan is ErrNotFound naming it; List gives the IDs
// under the store's prefix only, sorted.
func TestLoadAndList(t *testing.T) {
	s, _ := store(t)
	_, _, err := s.Load("s-missing")
	if !errors.Is(err, ErrNotFound) || !strings.Contains(err.Error(), `"s-missing"`) {
		t.Errorf("Load of an unknown plan = %v, want ErrNotFound naming it", err)
	}
	if ids, err := s.List(); err != nil || len(ids) != 0 {
		t.Errorf("List of no plans = %q, %v", ids, err)
	}
	for _, id := range []string{"s-b", "a-2", "s-a"} {
		if _, err := s.Save(id, "rev 1", []byte(id), nil, ""); err != nil {
			t.Fatal(err)
		}
	}
	other := Store{Repo: s.Repo, Prefix: "refs/adr/archives/"}
	if _, err := other.Save("a-9", "rev 1", []byte("x"), nil, ""); err != nil {
		t.Fatal(err)
	}
	ids, err := s.List()
	if want := []string{"a-2", "s-a", "s-b"}; err != nil || !reflect.DeepEqual(ids, want) {
		t.Errorf("List = %q, %v, want %q", ids, err, want)
	}
	if ids, err := other.List(); err != nil || !reflect.DeepEqual(ids, []string{"a-9"}) {
		t.Errorf("List of the other prefix = %q, %v", ids, err)
	}
}

// Writing needs the project lock, as every write below cmd does.
func TestSaveNeedsTheLock(t *testing.T) {
	dir := t.TempDir()
	s, _ := store(t) // sets a hermetic identity and configuration
	gittest.Git(t, dir, "init", "-q")
	gittest.Git(t, dir, "commit", "-q", "--allow-empty", "-m", "base")
	r, err := gitops.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	unlocked := Store{Repo: r, Prefix: s.Prefix}
	if _, err := unlocked.Save("s-1", "rev 1", []byte("1"), nil, ""); !errors.Is(err, gitops.ErrNotLocked) {
		t.Fatalf("Save without the lock = %v, want ErrNotLocked", err)
	}
	if out := gittest.Git(t, dir, "for-each-ref", prefix); out != "" {
		t.Errorf("refs written without the lock: %q", out)
	}
}
