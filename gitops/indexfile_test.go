package gitops

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/format/index"
)

// goGitEntries decodes an index with go-git, as readIndexFile did before
// decodeIndex, for comparison.
func goGitEntries(data []byte) ([]entry, error) {
	var idx index.Index
	if err := index.NewDecoder(bytes.NewReader(data)).Decode(&idx); err != nil {
		return nil, err
	}
	var out []entry
	for _, e := range idx.Entries {
		if e.Stage != 0 {
			continue
		}
		out = append(out, entry{name: e.Name, hash: e.Hash.String(), mode: e.Mode, intentToAdd: e.IntentToAdd})
	}
	return out, nil
}

func sameEntries(a, b []entry) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// TestDecodeIndexAgreesWithGoGit writes real indexes with git (versions
// 2, 3 and 4, intent-to-add entries, a conflict's stages, the cache-tree
// and untracked-cache extensions, names of every length around the
// padding) and checks decodeIndex reads exactly what go-git reads; a
// split index and a sparse index are refused.
func TestDecodeIndexAgreesWithGoGit(t *testing.T) {
	files := map[string]string{}
	for i := 0; i < 40; i++ {
		files[fmt.Sprintf("doc/adr/%04d-%s.md", i, string(bytes.Repeat([]byte("x"), i)))] = fmt.Sprintf("record %d\n", i)
	}
	files["a/b/c/deep.md"] = "deep\n"
	dir := newRepo(t, files)
	if err := os.WriteFile(filepath.Join(dir, "later.md"), []byte("later\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	runGit(t, dir, "add", "-N", "later.md")
	runGit(t, dir, "config", "core.untrackedCache", "true")
	runGit(t, dir, "status", "-uall")
	// A conflict: stages 1-3 of one path.
	runGit(t, dir, "checkout", "-q", "-b", "other")
	os.WriteFile(filepath.Join(dir, "a/b/c/deep.md"), []byte("other\n"), 0o644)
	runGit(t, dir, "commit", "-qam", "other")
	runGit(t, dir, "checkout", "-q", "main")
	os.WriteFile(filepath.Join(dir, "a/b/c/deep.md"), []byte("main\n"), 0o644)
	runGit(t, dir, "commit", "-qam", "main")
	gitMaybe(dir, "merge", "-q", "other") // exits 1 on the conflict
	for _, v := range []string{"2", "3", "4"} {
		runGit(t, dir, "update-index", "--index-version", v)
		data, err := os.ReadFile(filepath.Join(dir, ".git", "index"))
		if err != nil {
			t.Fatal(err)
		}
		got, ok := decodeIndex(data)
		want, err := goGitEntries(data)
		if err != nil {
			t.Fatalf("version %s: go-git: %v", v, err)
		}
		if !ok || !sameEntries(got, want) {
			t.Errorf("version %s: ok %v\n got  %v\n want %v", v, ok, got, want)
		}
		if len(want) < 40 {
			t.Errorf("version %s: only %d entries", v, len(want))
		}
	}
	split := newRepo(t, map[string]string{"a.md": "a\n"})
	runGit(t, split, "update-index", "--split-index")
	data, _ := os.ReadFile(filepath.Join(split, ".git", "index"))
	if !bytes.Contains(data, []byte("link")) {
		t.Fatal("git wrote no split index")
	}
	if _, ok := decodeIndex(data); ok {
		t.Error("a split index was read")
	}
	for _, bad := range [][]byte{nil, []byte("DIRC"), append([]byte("DIRC\x00\x00\x00\x05\x00\x00\x00\x00"), make([]byte, 20)...)} {
		if _, ok := decodeIndex(bad); ok {
			t.Errorf("%q was read", bad)
		}
	}
}

// gitMaybe runs git and ignores its exit status.
func gitMaybe(dir string, args ...string) { gitCommand(dir, args...).Run() }

// gitCommand is git in dir without the user's or the system's
// configuration.
func gitCommand(dir string, args ...string) *exec.Cmd {
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null",
		"GIT_AUTHOR_NAME=T", "GIT_AUTHOR_EMAIL=t@example.com", "GIT_COMMITTER_NAME=T", "GIT_COMMITTER_EMAIL=t@example.com")
	return cmd
}

func FuzzDecodeIndex(f *testing.F) {
	dir := f.TempDir()
	for _, v := range []string{"2", "4"} {
		// Seeds: real indexes of both layouts.
		f.Add(buildIndexSeed(f, dir+"/"+v, v))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		got, ok := decodeIndex(data)
		if !ok {
			return
		}
		for _, e := range got {
			if e.name == "" || e.mode == filemode.Dir || len(e.hash) != 40 {
				t.Fatalf("entry %+v", e)
			}
		}
		if want, err := goGitEntries(data); err == nil && !sameEntries(got, want) {
			t.Fatalf("got %v, go-git %v", got, want)
		}
	})
}

func buildIndexSeed(f *testing.F, dir, version string) []byte {
	f.Helper()
	if err := os.MkdirAll(filepath.Join(dir, "d"), 0o755); err != nil {
		f.Fatal(err)
	}
	for _, n := range []string{"a.md", "d/b.md", "d/ccc.md"} {
		os.WriteFile(filepath.Join(dir, n), []byte(n), 0o644)
	}
	for _, args := range [][]string{{"init", "-q"}, {"add", "-A"}, {"update-index", "--index-version", version}} {
		if err := gitCommand(dir, args...).Run(); err != nil {
			f.Fatal(err)
		}
	}
	data, err := os.ReadFile(filepath.Join(dir, ".git", "index"))
	if err != nil {
		f.Fatal(err)
	}
	return data
}
