package adr

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"

	"github.com/git-adr/git-adr/internal/failpoint"
)

// crash stands for the process dying at a failpoint: Apply stops there
// and nothing after it runs.
type crash struct{}

// applyCrashingAt applies c and stops it at the n-th failpoint hit
// (counting "changeset-journal" and every "changeset-step"); it reports
// whether the crash happened.
func applyCrashingAt(t *testing.T, c *Changeset, n int) (crashed bool) {
	t.Helper()
	hits := 0
	failpoint.Set(func(name string) {
		if name == "changeset-done" {
			return
		}
		if hits++; hits == n {
			panic(crash{})
		}
	})
	defer failpoint.Set(func(string) {})
	defer func() {
		if r := recover(); r != nil {
			if _, ok := r.(crash); !ok {
				panic(r)
			}
			crashed = true
		}
	}()
	if err := c.Apply(); err != nil {
		t.Fatal(err)
	}
	return false
}

// threeChanges is an update, a create, a rename with new content and a
// deletion.
func threeChanges(t *testing.T) (*Changeset, string) {
	c, top := newChangeset(t)
	write(t, top, "docs/adr/0001-a.md", "old a\n", 0o600)
	write(t, top, "docs/adr/0002-b.md", "old b\n", 0o644)
	write(t, top, "docs/adr/CURRENT.md", "view\n", 0o644)
	c.Delete("docs/adr/CURRENT.md", []byte("view\n"))
	c.Update("docs/adr/0001-a.md", []byte("old a\n"), []byte("new a\n"))
	c.Create("docs/adr/0003-c.md", []byte("new c\n"))
	c.Rename("docs/adr/0002-b.md", "docs/adr/archive/0002-b.md", []byte("old b\n"), []byte("archived b\n"))
	return c, top
}

func wantFinished(t *testing.T, top string) {
	t.Helper()
	for rel, want := range map[string]string{
		"docs/adr/0001-a.md":         "new a\n",
		"docs/adr/0003-c.md":         "new c\n",
		"docs/adr/archive/0002-b.md": "archived b\n",
	} {
		if got, ok := read(t, top, rel); !ok || got != want {
			t.Errorf("%s = %q (exists %v), want %q", rel, got, ok, want)
		}
	}
	if _, ok := read(t, top, "docs/adr/0002-b.md"); ok {
		t.Errorf("the rename's source still exists")
	}
	if _, ok := read(t, top, "docs/adr/CURRENT.md"); ok {
		t.Errorf("the deleted file still exists")
	}
	if fi, err := os.Stat(filepath.Join(top, "docs/adr/0001-a.md")); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("recovery must keep the file mode: %v %v", fi.Mode(), err)
	}
}

// TestRecoverAfterCrashAtEveryPoint interrupts Apply after its journal and
// after every step; recovery always completes the whole change and leaves
// no temporary file or journal.
func TestRecoverAfterCrashAtEveryPoint(t *testing.T) {
	for n := 1; ; n++ {
		c, top := threeChanges(t)
		if !applyCrashingAt(t, c, n) {
			if n < 5 {
				t.Fatalf("only %d failpoints were hit", n-1)
			}
			break
		}
		pending, err := PendingJournals(top, c.JournalDir)
		if err != nil || len(pending) != 1 || len(pending[0].Conflicts()) != 0 {
			t.Fatalf("crash at %d: pending %v, %v", n, pending, err)
		}
		res, err := RecoverJournals(top, c.JournalDir, RecoverSafe, t.TempDir())
		if err != nil || len(res.Finished) != 1 || len(res.Blocked) != 0 {
			t.Fatalf("crash at %d: recover = %+v, %v", n, res, err)
		}
		wantFinished(t, top)
		if l := leftovers(t, c); len(l) > 0 {
			t.Errorf("crash at %d: left behind %q", n, l)
		}
		if res, err := RecoverJournals(top, c.JournalDir, RecoverSafe, t.TempDir()); err != nil || len(res.Finished) != 0 {
			t.Errorf("a second recovery found work: %+v %v", res, err)
		}
	}
}

// TestRecoverNeverOverwritesAnEdit: a file edited after the crash stops
// recovery (Safe), is kept while the rest finishes (Keep), or is finished
// over with a copy kept (Finish).
func TestRecoverNeverOverwritesAnEdit(t *testing.T) {
	setup := func(t *testing.T) (*Changeset, string) {
		c, top := threeChanges(t)
		if !applyCrashingAt(t, c, 1) { // after the journal, before any file
			t.Fatal("no crash")
		}
		write(t, top, "docs/adr/0001-a.md", "my edit\n", 0o600)
		return c, top
	}
	t.Run("safe", func(t *testing.T) {
		c, top := setup(t)
		res, err := RecoverJournals(top, c.JournalDir, RecoverSafe, t.TempDir())
		if err != nil || len(res.Blocked) != 1 || len(res.Finished) != 0 {
			t.Fatalf("recover = %+v, %v", res, err)
		}
		cs := res.Blocked[0].Conflicts()
		if len(cs) != 1 || cs[0].Conflict != "docs/adr/0001-a.md" || cs[0].Reason != "was edited" {
			t.Errorf("conflicts = %+v", cs)
		}
		if got, _ := read(t, top, "docs/adr/0001-a.md"); got != "my edit\n" {
			t.Errorf("the edit was overwritten: %q", got)
		}
		if _, ok := read(t, top, "docs/adr/0003-c.md"); ok {
			t.Errorf("a blocked change was partly finished")
		}
	})
	t.Run("keep", func(t *testing.T) {
		c, top := setup(t)
		res, err := RecoverJournals(top, c.JournalDir, RecoverKeep, t.TempDir())
		if err != nil || len(res.Finished) != 1 || !slices.Equal(res.Kept, []string{"docs/adr/0001-a.md"}) {
			t.Fatalf("recover = %+v, %v", res, err)
		}
		if got, _ := read(t, top, "docs/adr/0001-a.md"); got != "my edit\n" {
			t.Errorf("the edit was not kept: %q", got)
		}
		if got, _ := read(t, top, "docs/adr/archive/0002-b.md"); got != "archived b\n" {
			t.Errorf("the rest was not finished: %q", got)
		}
		if l := leftovers(t, c); len(l) > 0 {
			t.Errorf("left behind %q", l)
		}
	})
	t.Run("finish", func(t *testing.T) {
		c, top := setup(t)
		save := t.TempDir()
		res, err := RecoverJournals(top, c.JournalDir, RecoverFinish, save)
		if err != nil || len(res.Finished) != 1 {
			t.Fatalf("recover = %+v, %v", res, err)
		}
		wantFinished(t, top)
		saved := res.Saved["docs/adr/0001-a.md"]
		if data, err := os.ReadFile(saved); err != nil || string(data) != "my edit\n" || !strings.HasPrefix(saved, save) {
			t.Errorf("the edit was not kept aside: %q %q %v", saved, data, err)
		}
	})
}

// TestRecoverRenameStates covers a rename interrupted between writing its
// destination and removing its source, and its source edited meanwhile.
func TestRecoverRenameStates(t *testing.T) {
	c, top := newChangeset(t)
	write(t, top, "a.md", "a\n", 0o644)
	c.Rename("a.md", "archive/a.md", []byte("a\n"), []byte("archived\n"))
	if !applyCrashingAt(t, c, 1) {
		t.Fatal("no crash")
	}
	write(t, top, "archive/a.md", "archived\n", 0o644) // the rename's write landed
	p, err := PendingJournals(top, c.JournalDir)
	if err != nil || len(p) != 1 || p[0].Remaining() != 1 || len(p[0].Conflicts()) != 0 {
		t.Fatalf("pending = %+v, %v", p, err)
	}
	write(t, top, "a.md", "edited old\n", 0o644)
	res, err := RecoverJournals(top, c.JournalDir, RecoverSafe, t.TempDir())
	if err != nil || len(res.Blocked) != 1 {
		t.Fatalf("an edited rename source must block: %+v %v", res, err)
	}
	if got, _ := read(t, top, "a.md"); got != "edited old\n" {
		t.Errorf("a.md = %q", got)
	}
}

func TestRecoverBadJournals(t *testing.T) {
	c, top := newChangeset(t)
	write(t, top, "a.md", "mine\n", 0o644)
	outside := filepath.Join(t.TempDir(), "victim")
	j := Journal{Version: JournalVersion, ID: "0123456789abcdef", Steps: []JournalStep{
		{Path: "../" + filepath.Base(outside), New: contentHash([]byte("owned\n")), Data: []byte("owned\n")},
	}}
	data, _ := json.Marshal(j)
	write(t, c.JournalDir, "0123456789abcdef.json", string(data), 0o644)
	write(t, c.JournalDir, "fedcba9876543210.json", "{not json", 0o644)
	write(t, c.JournalDir, "1111111111111111.json.tmp", "{half", 0o644)
	res, err := RecoverJournals(top, c.JournalDir, RecoverFinish, t.TempDir())
	if err != nil || len(res.Blocked) != 2 || len(res.Finished) != 0 {
		t.Fatalf("recover = %+v, %v", res, err)
	}
	for _, b := range res.Blocked {
		if !errors.Is(b.Err, ErrBadJournal) {
			t.Errorf("%s: %v", b.File, b.Err)
		}
	}
	if _, err := os.Stat(outside); err == nil {
		t.Fatal("a journal wrote outside the work tree")
	}
	if _, err := os.Stat(filepath.Join(c.JournalDir, "1111111111111111.json.tmp")); err == nil {
		t.Error("a journal that was never put in place must be removed")
	}
	res, err = RecoverJournals(top, c.JournalDir, RecoverKeep, t.TempDir())
	if err != nil || len(res.Discarded) != 2 {
		t.Fatalf("keep = %+v, %v", res, err)
	}
	if HasJournals(c.JournalDir) {
		t.Error("unusable journals were not removed by keep")
	}
}

func TestDecodeJournalRefusals(t *testing.T) {
	good := func() Journal {
		return Journal{Version: JournalVersion, ID: "0123456789abcdef", Steps: []JournalStep{
			{Path: "doc/adr/0001-a.md", Old: contentHash([]byte("a")), New: contentHash([]byte("b")), Data: []byte("b"), Mode: 0o644},
		}}
	}
	enc := func(j Journal) []byte { b, _ := json.Marshal(j); return b }
	if _, err := DecodeJournal("0123456789abcdef.json", enc(good())); err != nil {
		t.Fatalf("a good journal: %v", err)
	}
	for name, mod := range map[string]func(*Journal){
		"parent":       func(j *Journal) { j.Steps[0].Path = "../x.md" },
		"absolute":     func(j *Journal) { j.Steps[0].Path = "/etc/passwd" },
		"git dir":      func(j *Journal) { j.Steps[0].Path = ".git/config" },
		"git dir case": func(j *Journal) { j.Steps[0].Path = ".GIT/hooks/pre-commit" },
		"backslash":    func(j *Journal) { j.Steps[0].Path = `doc\..\..\x` },
		"dot":          func(j *Journal) { j.Steps[0].Path = "doc/./x.md" },
		"rename from":  func(j *Journal) { j.Steps[0].From = "../../x" },
		"temp name":    func(j *Journal) { j.Steps[0].Path = "doc/.x.md.git-adr-0123456789abcdef.tmp" },
		"version":      func(j *Journal) { j.Version = 1 },
		"id":           func(j *Journal) { j.ID = "fedcba9876543210" },
		"hash":         func(j *Journal) { j.Steps[0].Data = []byte("c") },
		"old hash":     func(j *Journal) { j.Steps[0].Old = "xyz" },
		"mode":         func(j *Journal) { j.Steps[0].Mode = 0o4755 },
		"no steps":     func(j *Journal) { j.Steps = nil },
		"twice":        func(j *Journal) { j.Steps = append(j.Steps, j.Steps[0]) },
	} {
		j := good()
		mod(&j)
		if _, err := DecodeJournal("0123456789abcdef.json", enc(j)); !errors.Is(err, ErrBadJournal) {
			t.Errorf("%s: %v, want ErrBadJournal", name, err)
		}
	}
	if _, err := DecodeJournal("0123456789abcdef.json", append(enc(good()), []byte(`{}`)...)); !errors.Is(err, ErrBadJournal) {
		t.Errorf("trailing data: %v", err)
	}
}

// TestChangesetConfined: a changeset never writes through a symbolic link
// or outside the work tree, and never blocks on a FIFO.
func TestChangesetConfined(t *testing.T) {
	outside := t.TempDir()
	write(t, outside, "0001-a.md", "outside\n", 0o644)
	c, top := newChangeset(t)
	if err := os.Symlink(outside, filepath.Join(top, "doc")); err != nil {
		t.Fatal(err)
	}
	c.Update("doc/0001-a.md", []byte("outside\n"), []byte("owned\n"))
	if err := c.Apply(); err == nil {
		t.Error("wrote through a symbolic link out of the work tree")
	}
	if got, _ := read(t, outside, "0001-a.md"); got != "outside\n" {
		t.Errorf("outside file = %q", got)
	}

	c, top = newChangeset(t)
	write(t, top, "real.md", "real\n", 0o644)
	os.Symlink("real.md", filepath.Join(top, "link.md"))
	c.Update("link.md", []byte("real\n"), []byte("owned\n"))
	if err := c.Apply(); !errors.Is(err, ErrNotRegular) {
		t.Errorf("a symlinked record: %v", err)
	}

	c, top = newChangeset(t)
	if err := syscall.Mkfifo(filepath.Join(top, "fifo.md"), 0o644); err != nil {
		t.Skip(err)
	}
	c.Update("fifo.md", []byte("x"), []byte("y"))
	if err := c.Apply(); !errors.Is(err, ErrNotRegular) {
		t.Errorf("a FIFO: %v", err)
	}
	for _, p := range []string{"../x.md", ".git/config", "/abs.md"} {
		c, _ := newChangeset(t)
		c.Create(p, []byte("x"))
		if err := c.Apply(); err == nil {
			t.Errorf("created %q", p)
		}
	}
}
