package guard

import (
	"errors"
	"io/fs"
	"path"
	"path/filepath"
	"strings"
	"testing"

	"github.com/git-adr/git-adr/adr"
	"github.com/git-adr/git-adr/internal/confine"
)

// TestNoFalsePositivesOnThisRepository replays a read of every file of
// git-adr's own source tree, the way each agent reads (Claude Code's Read
// with an absolute path, OpenCode's read with a relative one, shell
// commands from the top and from the file's folder, a search of the file
// alone), plus a recursive search of every folder that holds no ADR
// root, in guard mode: nothing outside an archive may be refused.
func TestNoFalsePositivesOnThisRepository(t *testing.T) {
	top, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	fsys, err := confine.OpenFS(top)
	if err != nil {
		t.Fatal(err)
	}
	defer fsys.Close()
	log, err := adr.Load(fsys, adr.LoadOptions{Lazy: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(log.Roots) == 0 {
		t.Fatal("the repository's own log was not found")
	}
	p := &Policy{Setting: Setting{Mode: Guard}, Scope: NewScope(log, fsys), Log: log, Top: top}
	files, searched, denied := 0, 0, 0
	judge := func(r Request, what string) {
		r.Agent = "replay"
		if d := p.Judge(r); d.Verdict != Allow {
			denied++
			t.Errorf("%s: %s: %s", what, d.Verdict, d.Reason)
		}
	}
	err = fs.WalkDir(fsys, ".", func(rel string, d fs.DirEntry, err error) error {
		if errors.Is(err, fs.ErrNotExist) {
			// Removed while the walk went on: CI's release check builds
			// and deletes dist/ in the work tree beside the tests.
			return nil
		}
		if err != nil {
			return err
		}
		if d.Name() == ".git" {
			if d.IsDir() {
				return fs.SkipDir
			}
			return nil // a linked worktree's .git file
		}
		if d.IsDir() {
			pl := p.Scope.Locate(top, rel)
			if pl.Class == Unrelated && rel != "." {
				searched++
				judge(Request{Cwd: top, Op: OpShell, Command: "grep -rn TODO " + adr.ShellWord(rel)}, rel+" (grep -r)")
				judge(Request{Cwd: top, Op: OpSearch, Path: filepath.Join(top, rel), Tool: "Grep"}, rel+" (Grep)")
			}
			return nil
		}
		if !d.Type().IsRegular() {
			return nil
		}
		if pl := p.Scope.Locate(top, rel); pl.Class == Archived {
			return nil // protected: refused by design
		}
		files++
		q := adr.ShellWord(rel)
		dir := filepath.Join(top, filepath.FromSlash(path.Dir(rel)))
		judge(Request{Cwd: top, Op: OpRead, Path: filepath.Join(top, rel), Tool: "Read"}, rel+" (Read)")
		judge(Request{Cwd: top, Op: OpRead, Path: rel, Tool: "read"}, rel+" (read)")
		judge(Request{Cwd: top, Op: OpShell, Command: "cat " + q}, rel+" (cat)")
		judge(Request{Cwd: top, Op: OpShell, Command: "head -n 40 " + q + " | tail -5"}, rel+" (head)")
		judge(Request{Cwd: top, Op: OpShell, Command: "sed -n '1,20p' " + q}, rel+" (sed)")
		judge(Request{Cwd: top, Op: OpShell, Command: "grep -n func " + q}, rel+" (grep)")
		judge(Request{Cwd: dir, Op: OpShell, Command: "cat " + adr.ShellWord(path.Base(rel))}, rel+" (cat in its folder)")
		judge(Request{Cwd: top, Op: OpSearch, Path: rel, Tool: "Grep"}, rel+" (Grep of the file)")
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if files < 300 || searched < 20 {
		t.Fatalf("replayed only %d files and %d folders: the walk did not cover the repository", files, searched)
	}
	t.Logf("replayed %d files (8 reads each) and %d folder searches: %d refused", files, searched, denied)
	if !strings.Contains(log.Roots[0].Dir(), "adr") {
		t.Errorf("unexpected root %s", log.Roots[0].Dir())
	}
}
