package adr

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
)

const lazyUnitsRecord = "# 7. Use Postgres\n\nDate: 2024-01-02\n\n## Status\n\nAccepted\n\n## Context\n\nWhy.\n\n## Decision\n\nPostgres.\n"

// warmRecord loads a one-record log twice through one parse cache (the
// stat margin waited out), and returns the record the second load served
// from the cache, its units not yet read.
func warmRecord(t *testing.T) (*Log, *Record) {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "0007-use-postgres.md"), []byte(lazyUnitsRecord), 0o644); err != nil {
		t.Fatal(err)
	}
	old := cacheNow
	cacheNow = func() time.Time { return time.Now().Add(time.Hour) }
	t.Cleanup(func() { cacheNow = old })
	cdir := t.TempDir()
	for i := 0; i < 2; i++ {
		c := OpenCache(cdir, false)
		if _, err := Load(os.DirFS(dir), LoadOptions{Roots: []string{"."}, Cache: c}); err != nil {
			t.Fatal(err)
		}
		if err := c.Save(); err != nil {
			t.Fatal(err)
		}
	}
	l, err := Load(os.DirFS(dir), LoadOptions{Roots: []string{"."}, Cache: OpenCache(cdir, false)})
	if err != nil {
		t.Fatal(err)
	}
	r := l.Records[0]
	if r.lunits == nil || r.lunits.units != nil {
		t.Fatalf("the warm record holds its units decoded (%+v)", r.lunits)
	}
	return l, r
}

func TestLazyUnitsNamedAfterTheLoad(t *testing.T) {
	_, r := warmRecord(t)
	want := Parse([]byte(lazyUnitsRecord)).units
	nameUnits(want, "ADR-0007")
	if got := r.Units(); !reflect.DeepEqual(got, want) {
		t.Fatalf("units %+v, want %+v", got, want)
	}
}

// A copy of a served record that takes another ID names its own units;
// the record it was copied from keeps its names.
func TestLazyUnitsCopyRenamed(t *testing.T) {
	_, r := warmRecord(t)
	c := *r
	c.ID = "ADR-0042"
	c.assignUnitIDs()
	for _, u := range c.Units() {
		if !strings.HasPrefix(u.ID, "ADR-0042#") {
			t.Fatalf("copy's unit %q", u.ID)
		}
	}
	for _, u := range r.Units() {
		if !strings.HasPrefix(u.ID, "ADR-0007#") {
			t.Fatalf("original's unit %q after the copy was renamed", u.ID)
		}
	}
}

// Units that do not decode (only a bug or a forged cache file can make
// them: the file passed its checksum) are read from the record's text.
func TestLazyUnitsUndecodableFallBackToText(t *testing.T) {
	_, r := warmRecord(t)
	r.lunits.enc = "\xff\xff\xff"
	want := Parse([]byte(lazyUnitsRecord)).units
	nameUnits(want, "ADR-0007")
	if got := r.Units(); !reflect.DeepEqual(got, want) {
		t.Fatalf("units %+v, want %+v", got, want)
	}
}

// SaveIfAdded writes the cache only once a run has parsed min records it
// did not know.
func TestCacheSaveIfAdded(t *testing.T) {
	dir := t.TempDir()
	for i := 1; i <= 3; i++ {
		os.WriteFile(filepath.Join(dir, fmt.Sprintf("%04d-x.md", i)), []byte(fmt.Sprintf("# %d. X\n\n## Status\n\nAccepted\n", i)), 0o644)
	}
	cdir := t.TempDir()
	c := OpenCache(cdir, false)
	if _, err := Load(os.DirFS(dir), LoadOptions{Roots: []string{"."}, Cache: c}); err != nil {
		t.Fatal(err)
	}
	if err := c.SaveIfAdded(4); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(cdir, CacheFile)); !os.IsNotExist(err) {
		t.Fatalf("saved after 3 of 4 records: %v", err)
	}
	if err := c.SaveIfAdded(3); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(cdir, CacheFile)); err != nil {
		t.Fatalf("not saved after 3 of 3: %v", err)
	}
}

// TestCacheSaveIfWorth: a log under 128 records saves for one new record;
// a long log keeps its cache file until the new entries reach 1/128 of
// it, and what was not saved is parsed again, with the same result.
func TestCacheSaveIfWorth(t *testing.T) {
	write := func(dir string, i int, body string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("%04d-x.md", i)), []byte(fmt.Sprintf("# %d. X\n\n## Status\n\n%s\n", i, body)), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	load := func(dir, cdir string) *Log {
		t.Helper()
		c := OpenCache(cdir, false)
		l, err := Load(os.DirFS(dir), LoadOptions{Roots: []string{"."}, Cache: c})
		if err != nil {
			t.Fatal(err)
		}
		if err := c.SaveIfWorth(); err != nil {
			t.Fatal(err)
		}
		return l
	}
	modTime := func(cdir string) int64 {
		t.Helper()
		fi, err := os.Stat(filepath.Join(cdir, CacheFile))
		if err != nil {
			return 0
		}
		return fi.ModTime().UnixNano()
	}
	for _, tc := range []struct {
		records, added, wantSaveAt int
	}{
		{records: 10, added: 1, wantSaveAt: 1},
		{records: 1280, added: 12, wantSaveAt: 10},
	} {
		dir, cdir := t.TempDir(), t.TempDir()
		for i := 1; i <= tc.records; i++ {
			write(dir, i, "Accepted")
		}
		if tc.wantSaveAt > 1 {
			// Old enough for their stat data to be kept: the new
			// records' are not, so each adds one entry, a parsed record.
			time.Sleep(statMargin + 100*time.Millisecond)
		}
		load(dir, cdir)
		first := modTime(cdir)
		if first == 0 {
			t.Fatalf("%d records: a cold load saved no cache", tc.records)
		}
		for n := 1; n <= tc.added; n++ {
			time.Sleep(10 * time.Millisecond) // a rewrite shows in the file's time
			write(dir, tc.records+n, "Proposed")
			l := load(dir, cdir)
			if got := l.ByPath(fmt.Sprintf("%04d-x.md", tc.records+n)); got == nil || got.Status != Proposed {
				t.Fatalf("%d records, %d new: record %d read as %+v", tc.records, n, tc.records+n, got)
			}
			saved := modTime(cdir) != first
			if want := n >= tc.wantSaveAt; saved != want {
				t.Fatalf("%d records, %d new: saved %v, want %v", tc.records, n, saved, want)
			}
			if saved {
				break
			}
		}
	}
}
