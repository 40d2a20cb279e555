package adr

import (
	"fmt"
	"io/fs"
	"strings"
	"sync"
	"testing"
	"testing/fstest"
)

// countingFS counts the files read through it.
type countingFS struct {
	fs.FS
	mu    sync.Mutex
	reads map[string]int
}

func (c *countingFS) Open(name string) (fs.File, error) {
	f, err := c.FS.Open(name)
	if err == nil {
		if fi, serr := f.Stat(); serr == nil && fi.Mode().IsRegular() {
			c.mu.Lock()
			c.reads[name]++
			c.mu.Unlock()
		}
	}
	return f, err
}

func (c *countingFS) ReadFile(name string) ([]byte, error) {
	c.mu.Lock()
	c.reads[name]++
	c.mu.Unlock()
	return fs.ReadFile(c.FS, name)
}

// TestLazyLoadReadsFew: what `git adr show ID` and `git adr new` load (a
// lazy log: every record known by its file name, a sample parsed for the
// log's conventions) reads the sample's files, and then only the record
// asked for; a full load reads every record.
func TestLazyLoadReadsFew(t *testing.T) {
	const n = 300
	m := fstest.MapFS{}
	for i := 1; i <= n; i++ {
		m[fmt.Sprintf("doc/adr/%04d-decision-%d.md", i, i)] = &fstest.MapFile{Data: []byte(fmt.Sprintf(
			"# %d. Decision %d\n\nDate: 2024-01-01\n\n## Status\n\nAccepted\n\n## Decision\n\nWe do thing %d.\n", i, i, i))}
	}
	records := func(c *countingFS) (files, reads int) {
		for name, k := range c.reads {
			if len(name) > len("doc/adr/") && name[:len("doc/adr/")] == "doc/adr/" {
				files++
				reads += k
			}
		}
		return files, reads
	}
	lazyFS := &countingFS{FS: m, reads: map[string]int{}}
	l, err := Load(lazyFS, LoadOptions{Lazy: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(l.Records) != n {
		t.Fatalf("%d records, want %d", len(l.Records), n)
	}
	// Discovery reads a few records to see the folder is a log (three
	// here: the well-known doc/adr needs none, but it is looked at), and
	// the load parses its sample.
	sampled, _ := records(lazyFS)
	if sampled > lazySample+4 {
		t.Errorf("a lazy load read %d records, want at most the %d of its sample and a few for discovery", sampled, lazySample)
	}
	r, err := l.Resolve("150")
	if err != nil {
		t.Fatal(err)
	}
	if err := l.Ensure(r); err != nil {
		t.Fatal(err)
	}
	if r.Title != "Decision 150" || r.Status != Accepted {
		t.Errorf("record 150: %q %s", r.Title, r.Status)
	}
	if files, _ := records(lazyFS); files > sampled+1 {
		t.Errorf("showing one record read %d record files, want at most %d", files, sampled+1)
	}
	fullFS := &countingFS{FS: m, reads: map[string]int{}}
	if _, err := Load(fullFS, LoadOptions{}); err != nil {
		t.Fatal(err)
	}
	if files, _ := records(fullFS); files != n {
		t.Errorf("a full load read %d record files, want %d", files, n)
	}
}

// dirCountFS counts the folders listed through it.
type dirCountFS struct {
	fs.FS
	mu   sync.Mutex
	dirs int
}

func (c *dirCountFS) ReadDir(name string) ([]fs.DirEntry, error) {
	c.mu.Lock()
	c.dirs++
	c.mu.Unlock()
	return fs.ReadDir(c.FS, name)
}

// TestDetectListsASample: judging a folder of numbered record folders
// lists the folders of its sample, not every one of them.
func TestDetectListsASample(t *testing.T) {
	m := fstest.MapFS{}
	for i := 1; i <= 400; i++ {
		m[fmt.Sprintf("guide/%03d-step-%d/README.md", i, i)] = &fstest.MapFile{Data: []byte(fmt.Sprintf("# Step %d\n\nDo this.\n", i))}
	}
	c := &dirCountFS{FS: m}
	var entries []fs.DirEntry
	entries, err := fs.ReadDir(m, "guide")
	if err != nil {
		t.Fatal(err)
	}
	if qualifies(c, "guide", entries, false) {
		t.Error("a folder of numbered steps without ADR structure qualifies")
	}
	if c.dirs > sampleSize {
		t.Errorf("judging the folder listed %d folders, want at most %d (its sample)", c.dirs, sampleSize)
	}
}

// TestLoadParsedHook: LoadOptions.Parsed is told once of each record of a
// root's folder the load read, its title settled (a record without a
// heading is named after its file), never of an archived record; a text
// it lets go of is read again when used. The load keeps no text of a
// record the hook let go of (a load with a parse cache: without one, a
// text cannot be read again and is kept). Units the hook decodes are
// named after the record's ID, in place; units it peeks at are not kept.
func TestLoadParsedHook(t *testing.T) {
	m := fstest.MapFS{
		"doc/adr/archive/0001-old.md": {Data: []byte("# 1. Old\n\n## Status\n\nSuperseded by [2](../0002-new.md)\n\n## Decision\n\nOld.\n")},
		"doc/adr/0002-new.md":         {Data: []byte("# 2. New\n\n## Status\n\nAccepted\n\n## Decision\n\nNew.\n")},
		"doc/adr/0003-no-heading.md":  {Data: []byte("## Status\n\nAccepted\n\n## Decision\n\nWe use queues.\n")},
	}
	for i := 4; i <= 40; i++ {
		m[fmt.Sprintf("doc/adr/%04d-decision-%d.md", i, i)] = &fstest.MapFile{Data: []byte(fmt.Sprintf(
			"# %d. Decision %d\n\n## Status\n\nAccepted\n\n## Decision\n\nWe do thing %d.\n", i, i, i))}
	}
	var mu sync.Mutex
	told := map[string]int{}
	titles := map[string]string{}
	l, err := Load(m, LoadOptions{Cache: OpenCache(t.TempDir(), false), Parsed: func(r *Record) {
		mu.Lock()
		told[r.Path]++
		titles[r.Path] = r.Title
		mu.Unlock()
		if r.Path == "doc/adr/0002-new.md" {
			r.PeekUnits() // decoded for the hook alone
		} else {
			r.Units() // decoded before the load names the record
		}
		r.ReleaseText()
	}})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range l.Records {
		n := told[r.Path]
		switch {
		case r.Archived && n != 0:
			t.Errorf("told of archived %s", r.Path)
		case !r.Archived && n != 1:
			t.Errorf("told %d times of %s, want once", n, r.Path)
		case !r.Archived && titles[r.Path] != r.Title:
			t.Errorf("told of %s titled %q, which the load then titled %q", r.Path, titles[r.Path], r.Title)
		}
		if !r.Archived && r.text != nil {
			t.Errorf("%s still holds its text", r.Path)
		}
		if !r.Archived && r.lunits == nil {
			t.Errorf("%s holds a copy of its units", r.Path)
		}
		if r.Path == "doc/adr/0002-new.md" && r.lunits.decoded.Load() {
			t.Errorf("%s keeps the units the hook peeked at", r.Path)
		}
		for _, u := range r.Units() {
			if u.ID != r.ID+"#"+u.Anchor {
				t.Errorf("%s: unit %q is named %q", r.Path, u.Anchor, u.ID)
			}
		}
	}
	if got := titles["doc/adr/0003-no-heading.md"]; got != "No heading" {
		t.Errorf("the record without a heading was told of titled %q, want %q", got, "No heading")
	}
	r, err := l.Resolve("3")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(r.Text().Src), "We use queues.") {
		t.Errorf("the text let go of reads %q", r.Text().Src)
	}
}
