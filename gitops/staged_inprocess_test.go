package gitops

import (
	"encoding/hex"
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// gitStaged is git's own `git diff --cached --raw -M` of dir.
func gitStaged(t *testing.T, dir string) []rawChange {
	t.Helper()
	r, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	raw, err := r.stagedRaw()
	if err != nil {
		t.Fatal(err)
	}
	return raw
}

// checkStaged compares the in-process diff with git's: equal when the
// in-process one answers, and an answer exactly when want says so.
func checkStaged(t *testing.T, dir, what string, want bool) {
	t.Helper()
	r, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	got, _, ok := r.stagedInProcess()
	if ok != want {
		t.Errorf("%s: answered in process: %v, want %v", what, ok, want)
	}
	if !ok {
		return
	}
	if exp := gitStaged(t, dir); !reflect.DeepEqual(got, exp) && !(len(got) == 0 && len(exp) == 0) {
		t.Errorf("%s:\nin process %+v\ngit        %+v", what, got, exp)
	}
}

func TestStagedInProcessMatchesGit(t *testing.T) {
	dir := newRepo(t, map[string]string{
		"doc/adr/0001-a.md":       "# 1. A\n\nAccepted\n",
		"doc/adr/0002-b.md":       "# 2. B\n\nAccepted\n",
		"doc/adr/archive/0003.md": "# 3. C\n",
		"src/x/y.go":              "package x\n",
		"a-b":                     "dash\n",
		"a/b":                     "slash\n",
		"README.md":               "readme\n",
	})
	write := func(p, c string) {
		full := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	reset := func() { runGit(t, dir, "reset", "-q", "--hard"); runGit(t, dir, "clean", "-fdq") }

	checkStaged(t, dir, "nothing staged", true)
	write("src/x/y.go", "package x // 2\n")
	runGit(t, dir, "commit", "-qam", "two")
	runGit(t, dir, "reset", "-q", "--soft", "HEAD~1")
	checkStaged(t, dir, "after reset --soft (a cache-tree HEAD does not have)", true)
	runGit(t, dir, "commit", "-qm", "two again")
	write("doc/adr/0002-b.md", "# 2. B\n\nAccepted\n\nMore.\n")
	runGit(t, dir, "add", "-A")
	checkStaged(t, dir, "one edit", true)
	write("doc/adr/0004-d.md", "# 4. D\n")
	runGit(t, dir, "add", "-A")
	checkStaged(t, dir, "an edit and a new file", true)
	reset()
	os.Remove(filepath.Join(dir, "a-b"))
	os.Remove(filepath.Join(dir, "src/x/y.go"))
	runGit(t, dir, "add", "-A")
	checkStaged(t, dir, "deletions, a whole folder among them", true)
	reset()
	if err := os.Chmod(filepath.Join(dir, "README.md"), 0o755); err != nil {
		t.Fatal(err)
	}
	runGit(t, dir, "add", "-A")
	checkStaged(t, dir, "a mode change", true)
	reset()
	os.Remove(filepath.Join(dir, "a/b"))
	if err := os.Symlink("README.md", filepath.Join(dir, "a/b")); err != nil {
		t.Fatal(err)
	}
	runGit(t, dir, "add", "-A")
	checkStaged(t, dir, "a type change", true)
	reset()
	runGit(t, dir, "mv", "doc/adr/0001-a.md", "doc/adr/0005-a.md")
	checkStaged(t, dir, "a rename (git pairs it)", false)
	reset()
	write("new.md", "n\n")
	runGit(t, dir, "add", "-N", "new.md")
	checkStaged(t, dir, "git add -N", false)
	reset()
	// A partial commit's temporary index, as `git commit PATH` hands
	// the hook.
	write("README.md", "readme 2\n")
	idx := filepath.Join(t.TempDir(), "next-index")
	t.Setenv("GIT_INDEX_FILE", idx)
	runGit(t, dir, "read-tree", "HEAD")
	runGit(t, dir, "add", "README.md")
	checkStaged(t, dir, "GIT_INDEX_FILE", true)
	os.Unsetenv("GIT_INDEX_FILE")
	reset()
	runGit(t, dir, "config", "diff.orderFile", "order.txt")
	checkStaged(t, dir, "diff.orderFile", false)
	runGit(t, dir, "config", "--unset", "diff.orderFile")
	other := strings.TrimSpace(runGit(t, dir, "commit-tree", EmptyTree, "-m", "other"))
	runGit(t, dir, "replace", "HEAD", other)
	checkStaged(t, dir, "refs/replace", false)
}

// TestStagedInProcessRandom stages random edits, additions, deletions,
// mode changes and folder moves over several commits (so the cache-tree
// is sometimes whole, sometimes invalidated) and compares with git each
// time.
func TestStagedInProcessRandom(t *testing.T) {
	dir := newRepo(t, map[string]string{"seed.md": "seed\n"})
	rng := rand.New(rand.NewSource(1))
	paths := []string{"a.md", "b/c.md", "b/d/e.md", "b/d/f.md", "g/h.md", "g/i/j.md", "k-l.md", "k/l.md"}
	exists := map[string]bool{}
	answered := 0
	for round := 0; round < 40; round++ {
		for n := rng.Intn(4) + 1; n > 0; n-- {
			p := paths[rng.Intn(len(paths))]
			full := filepath.Join(dir, filepath.FromSlash(p))
			switch op := rng.Intn(4); {
			case op == 0 && exists[p]:
				os.Remove(full)
				delete(exists, p)
			case op == 1 && exists[p]:
				os.Chmod(full, os.FileMode(0o644|rng.Intn(2)*0o111))
			default:
				if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
					continue // a file stands where the folder would
				}
				if os.WriteFile(full, []byte(fmt.Sprintf("%s %d\n", p, rng.Intn(3))), 0o644) == nil {
					exists[p] = true
				}
			}
		}
		runGit(t, dir, "add", "-A")
		r, err := Open(dir)
		if err != nil {
			t.Fatal(err)
		}
		got, _, ok := r.stagedInProcess()
		exp := gitStaged(t, dir)
		if ok {
			answered++
		}
		if ok && !reflect.DeepEqual(got, exp) && !(len(got) == 0 && len(exp) == 0) {
			t.Fatalf("round %d:\nin process %+v\ngit        %+v", round, got, exp)
		}
		switch rng.Intn(4) {
		case 0:
		case 1:
			// The index keeps the cache-tree of a later commit than HEAD.
			runGit(t, dir, "commit", "-qm", fmt.Sprint(round), "--allow-empty")
			runGit(t, dir, "reset", "-q", "--soft", "HEAD~1")
		default:
			runGit(t, dir, "commit", "-qm", fmt.Sprint(round), "--allow-empty")
		}
	}
	if answered < 10 {
		t.Errorf("only %d of 40 rounds answered in process", answered)
	}
}

// cmpJoined orders a path against dir/name exactly as comparing the
// joined string would.
func FuzzCmpJoined(f *testing.F) {
	for _, s := range [][3]string{{"doc/adr/0001-a.md", "doc/adr", "0001-a.md"}, {"doc", "doc/adr", "x"}, {"doc/adr", "doc", "adr"},
		{"doc-x/a", "doc", "a"}, {"doc.md", "doc", "a"}, {"a", "", "a"}, {"doc/", "doc", ""}, {"", "", ""}} {
		f.Add(s[0], s[1], s[2])
	}
	f.Fuzz(func(t *testing.T, s, dir, name string) {
		if got, want := cmpJoined(s, dir, name), strings.Compare(s, joinPath(dir, name)); got != want {
			t.Errorf("cmpJoined(%q, %q, %q) = %d, want %d", s, dir, name, got, want)
		}
	})
}

// parseTree never fails on damaged input, and a tree it reads written
// back reads the same.
func FuzzParseTree(f *testing.F) {
	hash := strings.Repeat("\x01", 20)
	f.Add([]byte("100644 a.md\x00" + hash + "40000 doc\x00" + hash))
	f.Add([]byte("100755 run\x00" + hash + "120000 link\x00" + hash + "160000 sub\x00" + hash))
	f.Add([]byte("100644 a.md\x00short"))
	f.Fuzz(func(t *testing.T, body []byte) {
		es, ok := parseTree(string(body))
		if !ok {
			return
		}
		var b []byte
		for _, e := range es {
			raw, err := hex.DecodeString(e.hash)
			if err != nil || len(raw) != 20 {
				t.Fatalf("entry %q has object name %q", e.name, e.hash)
			}
			b = append(b, fmt.Sprintf("%o %s\x00", uint32(e.mode), e.name)...)
			b = append(b, raw...)
		}
		again, ok := parseTree(string(b))
		if !ok || !reflect.DeepEqual(es, again) {
			t.Errorf("written back: %v, then %v (%v)", es, again, ok)
		}
	})
}

// commitTreeOf reads the tree of a commit object, and refuses anything
// else.
func TestCommitTreeOf(t *testing.T) {
	tree := strings.Repeat("ab", 20)
	if got, err := commitTreeOf([]byte("tree " + tree + "\nparent x\n\nmsg\n")); err != nil || got != tree {
		t.Errorf("commitTreeOf = %q, %v", got, err)
	}
	for _, bad := range []string{"", "tree \n", "parent " + tree + "\n", "tree " + strings.Repeat("zz", 20) + "\n", "tree " + tree} {
		if got, err := commitTreeOf([]byte(bad)); err == nil {
			t.Errorf("commitTreeOf(%q) = %q, want an error", bad, got)
		}
	}
}
