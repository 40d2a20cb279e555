package adr

import (
	"fmt"
	"io/fs"
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
