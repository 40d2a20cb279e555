package adr

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"runtime"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/git-adr/git-adr/internal/offheap"
	"time"
)

// copyCorpora copies every shared corpus into a temporary folder (the
// corpora are read-only and never written) and returns the copies.
func copyCorpora(t *testing.T) []string {
	t.Helper()
	src := os.Getenv("GIT_ADR_CORPORA")
	if src == "" {
		src = filepath.Join("..", "..", "shared", "corpora")
	}
	if _, err := os.Stat(src); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("corpora not found at %s (CI=true: the corpora are required)", src)
		}
		t.Skipf("corpora not found at %s", src)
	}
	entries, err := os.ReadDir(src)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range entries {
		if _, err := os.Stat(filepath.Join(src, e.Name(), "SOURCE.txt")); err != nil {
			continue
		}
		dst := filepath.Join(t.TempDir(), e.Name())
		if b, err := exec.Command("cp", "-R", filepath.Join(src, e.Name()), dst).CombinedOutput(); err != nil {
			t.Fatalf("cp: %v %s", err, b)
		}
		out = append(out, dst)
	}
	if len(out) == 0 {
		t.Fatalf("no corpus in %s", src)
	}
	return out
}

// saveAged saves the cache and dates its file at the cache's clock (see
// laterClock): the stat entries it holds are then older than the file by
// more than the margin, as they are in use.
func saveAged(t *testing.T, c *Cache) {
	t.Helper()
	if err := c.Save(); err != nil {
		t.Fatal(err)
	}
	now := cacheNow()
	if err := os.Chtimes(filepath.Join(c.dir, CacheFile), now, now); err != nil {
		t.Fatal(err)
	}
}

// laterClock moves the cache's clock past the stat margin, so that files
// written by the test count as old enough to be trusted by stat data.
func laterClock(t *testing.T) {
	t.Helper()
	old := cacheNow
	cacheNow = func() time.Time { return time.Now().Add(time.Minute) }
	t.Cleanup(func() { cacheNow = old })
}

// snapshot is everything a load yields that output depends on, texts
// included, as JSON (the Root back pointers left out).
func snapshot(t *testing.T, l *Log) string {
	t.Helper()
	type rec struct {
		Info     RecordInfo
		Units    []Unit
		Problems []string
		Src      string
		Other    []statusMention
		Only     bool
		Field    Field
		Rel      []Relation
		Lazy     bool
	}
	var recs []rec
	for _, r := range l.Records {
		x := rec{Info: r.Info(), Units: r.Units(), Problems: r.Problems, Other: r.otherStatuses, Only: r.onlyTitle, Field: r.StatusField, Rel: r.Relations, Lazy: r.lazy}
		if !r.lazy {
			x.Src = string(r.Text().Src)
		}
		recs = append(recs, x)
	}
	var roots []any
	for _, root := range l.Roots {
		none, total, _ := root.StatusesOptional()
		roots = append(roots, []any{root.Path, root.Style, root.Digits, root.Prefix, root.Lead, root.Sep, root.DateSlugs, root.Folders, root.Skipped, none, total})
	}
	b, err := json.MarshalIndent(map[string]any{"records": recs, "roots": roots, "notes": l.Notes}, "", " ")
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestCacheColdWarm loads every corpus without a cache, with an empty
// cache, and again with the cache filled (records served by stat data,
// texts read on demand), and with the stat entries useless (records
// served after hashing): every load yields the same log, and check finds
// the same in each (a served record's check reads its text facts from
// the cache, not its file).
func TestCacheColdWarm(t *testing.T) {
	laterClock(t)
	for _, dir := range copyCorpora(t) {
		t.Run(filepath.Base(dir), func(t *testing.T) {
			for _, lazy := range []bool{false, true} {
				fsys := os.DirFS(dir)
				plain, err := Load(fsys, LoadOptions{Lazy: lazy})
				if err != nil {
					t.Fatal(err)
				}
				want := snapshot(t, plain)
				wantCheck := checkSnapshot(plain)
				cdir := t.TempDir()
				for i, step := range []string{"cold", "warm", "warm again"} {
					c := OpenCache(cdir, false)
					if i == 2 {
						c.ReadOutsideHeap() // the records share its bytes all the same
					}
					l, err := Load(fsys, LoadOptions{Lazy: lazy, Cache: c})
					if err != nil {
						t.Fatal(err)
					}
					if i > 0 && !lazy && len(l.Records) > 0 && servedUnread(l) == 0 {
						t.Errorf("%s load: every record was read, none served by its stat data", step)
					}
					if got := snapshot(t, l); got != want {
						t.Fatalf("lazy=%v, %s load differs from a load without cache:\n%s", lazy, step, firstDiff(want, got))
					}
					if got := checkSnapshot(l); got != wantCheck {
						t.Fatalf("lazy=%v, check after a %s load differs from one without cache:\n%s", lazy, step, firstDiff(wantCheck, got))
					}
					saveAged(t, c)
				}
				// Stat data that no longer match (a copy of the files,
				// new inodes): records are read, hashed and served.
				moved := filepath.Join(t.TempDir(), "copy")
				if b, err := exec.Command("cp", "-R", dir, moved).CombinedOutput(); err != nil {
					t.Fatalf("cp: %v %s", err, b)
				}
				c := OpenCache(cdir, false)
				l, err := Load(os.DirFS(moved), LoadOptions{Lazy: lazy, Cache: c})
				if err != nil {
					t.Fatal(err)
				}
				if got := snapshot(t, l); got != want {
					t.Fatalf("lazy=%v, load of a copy differs:\n%s", lazy, firstDiff(want, got))
				}
				if len(c.added) != 0 {
					t.Errorf("a copy of unchanged records parsed %d records again", len(c.added))
				}
			}
		})
	}
}

// checkSnapshot is every finding check reports on l, with its fix.
func checkSnapshot(l *Log) string {
	var b strings.Builder
	for _, f := range l.Check(CheckOptions{}).Findings {
		fmt.Fprintf(&b, "%s %s:%d %v %s | %s\n", f.Kind, f.Path, f.Line, f.IDs, f.Message, f.Fix)
	}
	return b.String()
}

func servedUnread(l *Log) int {
	n := 0
	for _, r := range l.Records {
		if r.src != nil && r.text == nil {
			n++
		}
	}
	return n
}

func firstDiff(a, b string) string {
	al, bl := strings.Split(a, "\n"), strings.Split(b, "\n")
	for i := 0; i < len(al) && i < len(bl); i++ {
		if al[i] != bl[i] {
			return "line " + strings.Repeat("", 0) + al[i] + "\n   vs " + bl[i]
		}
	}
	return "lengths differ"
}

// TestCacheCodecRoundTrip: every record of every corpus decodes to what
// Parse made of it.
func TestCacheCodecRoundTrip(t *testing.T) {
	n := 0
	for _, dir := range copyCorpora(t) {
		filepath.Walk(dir, func(p string, fi os.FileInfo, err error) error {
			if err != nil || fi.IsDir() || !strings.HasSuffix(p, ".md") {
				return nil
			}
			data, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			want := Parse(data)
			got, err := decodeParsed(string(encodeParsed(nil, want)))
			if err != nil {
				t.Fatalf("%s: %v", p, err)
			}
			want.text = nil
			got.SetUnits(got.Units()) // decoded as Units is first called
			got.facts()               // decoded as check first asks
			got.factsEnc = ""         // the entry's encoding stays with the record
			if !reflect.DeepEqual(got, want) {
				t.Errorf("%s: decoded record differs:\n%+v\n%+v", p, got, want)
			}
			n++
			return nil
		})
	}
	if n == 0 {
		t.Fatal("no record read")
	}
}

// TestCacheCodecCoversRecord fails when Record gains a field the codec
// does not know about: decide whether Parse sets it (encode it, and bump
// cacheVersion) or the load does (add it to the list below).
func TestCacheCodecCoversRecord(t *testing.T) {
	known := map[string]bool{
		// Set by the load from the file name and place, not stored.
		"ID": true, "Number": true, "Numbered": true, "Suffix": true, "Path": true, "Root": true, "Archived": true,
		"text": true, "lazy": true, "src": true, "blob": true, "name": true,
		// The encoded units of a record the cache served (see Units).
		"lunits": true,
		// Sections of single-file logs are read by ParseSection, never
		// through the parse cache.
		"span": true,
		// Stored by encodeParsed.
		"Title": true, "RawTitle": true, "TitleNumber": true, "Status": true, "RawStatus": true, "StatusField": true,
		"Date": true, "Domains": true, "Iteration": true, "Scope": true, "AppliesTo": true, "ReviewBy": true,
		"Relations": true, "Style": true, "units": true, "Problems": true, "otherStatuses": true, "onlyTitle": true, "bareTitle": true, "sum": true, "tfacts": true, "factsEnc": true,
	}
	check := func(typ reflect.Type, fields map[string]int) {
		if typ.NumField() != len(fields) {
			t.Errorf("%s has %d fields, the codec knows %d: update encodeParsed and cacheVersion", typ.Name(), typ.NumField(), len(fields))
		}
	}
	rt := reflect.TypeOf(Record{})
	var missing []string
	for i := 0; i < rt.NumField(); i++ {
		if !known[rt.Field(i).Name] {
			missing = append(missing, rt.Field(i).Name)
		}
	}
	if len(missing) > 0 {
		t.Errorf("Record fields the parse cache does not handle: %v", missing)
	}
	check(reflect.TypeOf(Unit{}), map[string]int{"ID": 0, "Anchor": 0, "Heading": 0, "Start": 0, "End": 0, "Hash": 0, "Status": 0, "RawStatus": 0})
	check(reflect.TypeOf(Relation{}), map[string]int{"Type": 0, "Label": 0, "Target": 0, "TargetID": 0, "Line": 0, "Section": 0})
	check(reflect.TypeOf(Field{}), map[string]int{"Kind": 0, "Line": 0, "Start": 0, "End": 0, "Section": 0, "WordStart": 0, "WordEnd": 0})
	check(reflect.TypeOf(statusMention{}), map[string]int{"Raw": 0, "Status": 0, "Line": 0})
}

// cacheRepo writes a small log and fills a cache for it.
func cacheRepo(t *testing.T) (dir, cdir, want string) {
	t.Helper()
	laterClock(t)
	dir = t.TempDir()
	os.MkdirAll(filepath.Join(dir, "doc", "adr"), 0o755)
	for i, title := range []string{"Record architecture decisions", "Use PostgreSQL", "Use Kafka"} {
		body := "# " + string(rune('1'+i)) + ". " + title + "\n\nDate: 2024-01-0" + string(rune('1'+i)) + "\n\n## Status\n\nAccepted\n\n## Context\n\nWhy.\n\n## Decision\n\nWe will.\n"
		if i == 2 {
			body = strings.Replace(body, "Accepted", "Accepted\n\nAmends [2. Use PostgreSQL](0002-use-postgresql.md)", 1)
		}
		name := []string{"0001-record-architecture-decisions.md", "0002-use-postgresql.md", "0003-use-kafka.md"}[i]
		if err := os.WriteFile(filepath.Join(dir, "doc", "adr", name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	l, err := Load(os.DirFS(dir), LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	want = snapshot(t, l)
	cdir = t.TempDir()
	c := OpenCache(cdir, false)
	if _, err := Load(os.DirFS(dir), LoadOptions{Cache: c}); err != nil {
		t.Fatal(err)
	}
	saveAged(t, c)
	return dir, cdir, want
}

// TestCacheDamagedIsRebuilt: a truncated, corrupt, emptied, foreign or
// other-version cache file is never trusted: the load is what a load
// without cache gives, and the next save replaces the file with a good
// one.
func TestCacheDamagedIsRebuilt(t *testing.T) {
	dir, cdir, want := cacheRepo(t)
	file := filepath.Join(cdir, CacheFile)
	good, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	// A cache that lies: every record claims to be titled "Forged".
	c := OpenCache(cdir, false)
	c.load()
	if len(c.blobs) != 3 {
		t.Fatalf("the filled cache holds %d records, want 3", len(c.blobs))
	}
	forge := func() []byte {
		blobs := map[string]cacheEntry{}
		for h := range c.blobs {
			r, _ := decodeParsed(c.blobs[h].rec)
			r.Title = "Forged"
			blobs[h] = cacheEntry{rec: string(encodeParsed(nil, r)), gen: c.gen}
		}
		return encodeCache(c.gen, blobs, c.stats)
	}
	forged := forge()
	if !strings.Contains(string(forged), "Forged") {
		t.Fatal("the forged cache holds no forged title")
	}
	withVersion := func(b []byte, v byte) []byte {
		out := append([]byte(nil), b...)
		out[len(cacheMagic)] = v // the version varint
		return out
	}
	cases := map[string][]byte{
		"truncated":     good[:len(good)/2],
		"truncated end": good[:len(good)-1],
		"empty":         {},
		"garbage":       []byte("not a cache at all, not even close to one\n"),
		"flipped bit": func() []byte {
			b := append([]byte(nil), good...)
			b[len(b)/2] ^= 0x10
			return b
		}(),
		"other version": withVersion(good, cacheVersion+1),
		"forged checksum": func() []byte {
			b := withVersion(forged, cacheVersion) // valid CRC over a wrong version below
			return append(b[:len(b)-4], 0, 0, 0, 0)
		}(),
		"other build": func() []byte {
			old := buildID
			buildID = "go:another-build"
			defer func() { buildID = old }()
			return forge()
		}(),
	}
	for name, data := range cases {
		t.Run(name, func(t *testing.T) {
			if err := os.WriteFile(file, data, 0o644); err != nil {
				t.Fatal(err)
			}
			c := OpenCache(cdir, false)
			c.ReadOutsideHeap() // a file not trusted is given back
			held := offheap.Held()
			l, err := Load(os.DirFS(dir), LoadOptions{Cache: c})
			if err != nil {
				t.Fatal(err)
			}
			if got := snapshot(t, l); got != want {
				t.Fatalf("load with a %s cache differs:\n%s", name, firstDiff(want, got))
			}
			if n := offheap.Held() - held; n != 0 {
				t.Errorf("a %s cache kept %d bytes outside the heap", name, n)
			}
			if err := c.Save(); err != nil {
				t.Fatal(err)
			}
			c2 := OpenCache(cdir, false)
			c2.load()
			if len(c2.blobs) != 3 {
				t.Errorf("after a save the cache holds %d records, want 3", len(c2.blobs))
			}
		})
	}
	// The forged file with its own, valid checksum and this build's
	// identity is the one thing the cache cannot tell from a good one:
	// it must come from this build. Shown here so that the test above is
	// known to use a cache that would be trusted.
	os.WriteFile(file, forged, 0o644)
	l, err := Load(os.DirFS(dir), LoadOptions{Cache: OpenCache(cdir, false)})
	if err != nil {
		t.Fatal(err)
	}
	if l.Records[0].Title != "Forged" {
		t.Fatalf("a well-formed cache was not used (title %q): the cases above prove nothing", l.Records[0].Title)
	}
}

// TestCacheChangedFile: a record changed after the cache saw it (same
// size, same modification time) is read again because its change time
// moved; a record changed while a command runs, after the load, is parsed
// again when its text is first used.
func TestCacheChangedFile(t *testing.T) {
	dir, cdir, _ := cacheRepo(t)
	p := filepath.Join(dir, "doc", "adr", "0002-use-postgresql.md")
	fi, _ := os.Stat(p)
	old, _ := os.ReadFile(p)
	changed := []byte(strings.Replace(string(old), "Accepted", "Rejected", 1))
	if len(changed) != len(old) {
		t.Fatal("the edit must keep the size")
	}
	os.WriteFile(p, changed, 0o644)
	os.Chtimes(p, fi.ModTime(), fi.ModTime())
	l, err := Load(os.DirFS(dir), LoadOptions{Cache: OpenCache(cdir, false)})
	if err != nil {
		t.Fatal(err)
	}
	if r, _ := l.Resolve("2"); r.Status != Rejected {
		t.Fatalf("status %q after an edit that kept size and mtime", r.Status)
	}

	// Now served from the cache by stat data, then changed under it.
	c := OpenCache(cdir, false)
	l0, _ := Load(os.DirFS(dir), LoadOptions{Cache: c})
	saveAged(t, c)
	c = OpenCache(cdir, false)
	l, err = Load(os.DirFS(dir), LoadOptions{Cache: c})
	if err != nil {
		t.Fatal(err)
	}
	_ = l0
	r, _ := l.Resolve("2")
	if r.text != nil {
		t.Fatal("record 2 was read: the test needs it served by stat data")
	}
	os.WriteFile(p, old, 0o644)
	if got := string(r.Text().Src); got != string(old) {
		t.Fatalf("Text() is not what the file holds now:\n%s", got)
	}
	if r.Status != Accepted || r.ID != "ADR-0002" || r.Path != "doc/adr/0002-use-postgresql.md" {
		t.Errorf("after the re-parse: status %q, ID %q, path %q", r.Status, r.ID, r.Path)
	}
	if r.StatusField.End > len(r.Text().Src) || string(r.Text().Src[r.StatusField.Start:r.StatusField.End]) != "Accepted" {
		t.Errorf("the status field does not locate the status in the new text")
	}
}

// TestCacheConcurrentSaves: goroutines loading and saving one cache at
// once leave a cache that decodes and serves every record (real
// processes: TestParseCacheConcurrentProcesses in cmd/git-adr).
func TestCacheConcurrentSaves(t *testing.T) {
	dir, cdir, want := cacheRepo(t)
	os.Remove(filepath.Join(cdir, CacheFile))
	var wg sync.WaitGroup
	for i := 0; i < 8; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c := OpenCache(cdir, false)
			l, err := Load(os.DirFS(dir), LoadOptions{Cache: c})
			if err != nil {
				t.Error(err)
				return
			}
			if got := snapshot(t, l); got != want {
				t.Error("concurrent load differs")
			}
			if err := c.Save(); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	c := OpenCache(cdir, false)
	c.load()
	if len(c.blobs) != 3 {
		t.Errorf("%d records in the cache, want 3", len(c.blobs))
	}
	left, _ := filepath.Glob(filepath.Join(cdir, ".parse-*"))
	if len(left) > 0 {
		t.Errorf("temporary files left: %v", left)
	}
}

// TestCacheReadOnlyWritesNothing: a read-only cache is used but never
// written, not even its folder.
func TestCacheReadOnlyWritesNothing(t *testing.T) {
	dir, _, want := cacheRepo(t)
	cdir := filepath.Join(t.TempDir(), "adr", "cache")
	c := OpenCache(cdir, true)
	l, err := Load(os.DirFS(dir), LoadOptions{Cache: c})
	if err != nil {
		t.Fatal(err)
	}
	if got := snapshot(t, l); got != want {
		t.Fatal("read-only cache load differs")
	}
	if err := c.Save(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Dir(cdir)); !os.IsNotExist(err) {
		t.Errorf("a read-only cache created %s", filepath.Dir(cdir))
	}
}

// TestCachePrunes: records no longer in the log leave the cache after
// cacheKeepGens saves.
func TestCachePrunes(t *testing.T) {
	dir, cdir, _ := cacheRepo(t)
	p := filepath.Join(dir, "doc", "adr", "0003-use-kafka.md")
	orig, _ := os.ReadFile(p)
	for i := 0; i < cacheKeepGens+2; i++ {
		os.WriteFile(p, append(append([]byte(nil), orig...), strings.Repeat("\nMore.", i+1)...), 0o644)
		c := OpenCache(cdir, false)
		if _, err := Load(os.DirFS(dir), LoadOptions{Cache: c}); err != nil {
			t.Fatal(err)
		}
		c.Save()
	}
	c := OpenCache(cdir, false)
	c.load()
	var hashes []string
	for h := range c.blobs {
		hashes = append(hashes, h)
	}
	sort.Strings(hashes)
	if len(c.blobs) > 2+cacheKeepGens {
		t.Errorf("%d records kept for a log of 3: not pruned", len(c.blobs))
	}
	if len(c.stats) > 3 {
		t.Errorf("%d stat entries for 3 files", len(c.stats))
	}
}

// TestCacheRacyStat: stat data are trusted only when the file had not
// changed for a while when the cache read it (git's "racily clean"
// entries). A file written just before a load gets no stat entry, so an
// edit in the same clock tick that keeps its size and modification time
// (`touch -r`) is seen; and an entry is not trusted when the cache file
// itself was written within the margin of the file's times, whatever the
// process's clock said (a file system clock skewed from it).
func TestCacheRacyStat(t *testing.T) {
	dir := t.TempDir()
	root := filepath.Join(dir, "doc", "adr")
	os.MkdirAll(root, 0o755)
	p := filepath.Join(root, "0001-use-postgresql.md")
	body := "# 1. Use PostgreSQL\n\nDate: 2024-01-01\n\n## Status\n\nAccepted\n\n## Decision\n\nWe will.\n"
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	cdir := t.TempDir()
	c := OpenCache(cdir, false)
	if _, err := Load(os.DirFS(dir), LoadOptions{Cache: c}); err != nil {
		t.Fatal(err)
	}
	if err := c.Save(); err != nil {
		t.Fatal(err)
	}
	c = OpenCache(cdir, false)
	c.load()
	if len(c.blobs) != 1 || len(c.stats) != 0 {
		t.Fatalf("a file written just now: %d records, %d stat entries cached; want 1 and 0", len(c.blobs), len(c.stats))
	}
	fi, _ := os.Stat(p)
	os.WriteFile(p, []byte(strings.Replace(body, "Accepted", "Rejected", 1)), 0o644)
	os.Chtimes(p, fi.ModTime(), fi.ModTime())
	l, err := Load(os.DirFS(dir), LoadOptions{Cache: OpenCache(cdir, false)})
	if err != nil {
		t.Fatal(err)
	}
	if r, _ := l.Resolve("1"); r.Status != Rejected {
		t.Fatalf("status %q after a same-size edit with the mtime put back", r.Status)
	}

	// The process's clock says the file is old enough, the cache file's
	// time says it is not: the entry is written but never trusted.
	laterClock(t)
	c = OpenCache(cdir, false)
	if _, err := Load(os.DirFS(dir), LoadOptions{Cache: c}); err != nil {
		t.Fatal(err)
	}
	if err := c.Save(); err != nil {
		t.Fatal(err)
	}
	c = OpenCache(cdir, false)
	l, err = Load(os.DirFS(dir), LoadOptions{Cache: c})
	if err != nil {
		t.Fatal(err)
	}
	if len(c.stats) != 1 {
		t.Fatalf("%d stat entries, want 1", len(c.stats))
	}
	if n := servedUnread(l); n != 0 {
		t.Fatalf("%d records served by stat data recorded within the margin of the cache file's time", n)
	}
}

// TestLazyEnsure: on every corpus, a record of a lazy load (known by its
// name, parsed by Ensure when a command needs it, as `show` does) is the
// record a full load yields: same records in the same order, same fields,
// units, relations and their targets, same text.
func TestLazyEnsure(t *testing.T) {
	view := func(r *Record) string {
		b, err := json.Marshal([]any{r.Info(), r.Units(), r.Problems, string(r.Text().Src), r.otherStatuses, r.onlyTitle, r.StatusField, r.Relations, r.Numbered, r.Number, r.Suffix})
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	n := 0
	for _, dir := range copyCorpora(t) {
		full, err := Load(os.DirFS(dir), LoadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		// Without a cache, and through a warm one (by stat data).
		laterClock(t)
		cacheDir := t.TempDir()
		warm := OpenCache(cacheDir, false)
		if _, err := Load(os.DirFS(dir), LoadOptions{Cache: warm}); err != nil {
			t.Fatal(err)
		}
		saveAged(t, warm)
		for _, cache := range []*Cache{nil, OpenCache(cacheDir, true)} {
			lazy, err := Load(os.DirFS(dir), LoadOptions{Lazy: true, Cache: cache})
			if err != nil {
				t.Fatal(err)
			}
			if len(lazy.Records) != len(full.Records) {
				t.Fatalf("%s: lazy load has %d records, full %d", dir, len(lazy.Records), len(full.Records))
			}
			served := 0
			for i, r := range lazy.Records {
				if err := lazy.Ensure(r); err != nil {
					t.Fatal(err)
				}
				if r.src != nil {
					served++ // from the cache: the text is read when used
				}
				if got, want := view(r), view(full.Records[i]); got != want {
					t.Errorf("%s: %s differs after Ensure (cache %v):\n%s\nwant\n%s", dir, r.Path, cache != nil, got, want)
				}
				n++
			}
			if cache != nil && served == 0 && len(lazy.Records) > ensureDirect {
				t.Errorf("%s: Ensure served no record from the cache", dir)
			}
		}
	}
	if n == 0 {
		t.Fatal("no record compared")
	}
}

// TestPeekText: a record the cache served gives its text to PeekText
// without keeping it (the next PeekText reads the file again, and Text
// still loads it); a record that holds its text gives that one; a file
// changed under a served record is parsed again, as Text does, and the
// record then keeps the new text.
func TestPeekText(t *testing.T) {
	dir, cdir, _ := cacheRepo(t)
	c := OpenCache(cdir, false)
	if _, err := Load(os.DirFS(dir), LoadOptions{Cache: c}); err != nil {
		t.Fatal(err)
	}
	saveAged(t, c)
	l, err := Load(os.DirFS(dir), LoadOptions{Cache: OpenCache(cdir, false)})
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(dir, "doc", "adr", "0002-use-postgresql.md")
	old, _ := os.ReadFile(p)
	r, _ := l.Resolve("2")
	if r.text != nil || r.src == nil {
		t.Fatal("record 2 was read: the test needs it served by the cache")
	}
	if got := r.PeekText(); got == nil || string(got.Src) != string(old) {
		t.Fatalf("PeekText of a served record: %v", got)
	}
	if r.text != nil || r.src.loaded.Load() {
		t.Fatal("PeekText kept the text of a served record")
	}
	u, _ := r.Unit("decision")
	if a, b := r.UnitTextIn(r.PeekText(), u), r.UnitText(u); a != b {
		t.Fatalf("UnitTextIn over PeekText %q, UnitText %q", a, b)
	}
	if r.text == nil {
		t.Fatal("UnitText did not load the text")
	}
	if r.PeekText() != r.Text() {
		t.Fatal("PeekText of a record holding its text is not that text")
	}

	// Changed under a served record: parsed again, and kept.
	l, _ = Load(os.DirFS(dir), LoadOptions{Cache: OpenCache(cdir, false)})
	r, _ = l.Resolve("2")
	if r.text != nil {
		t.Fatal("record 2 was read: the test needs it served by the cache")
	}
	changed := strings.Replace(string(old), "Accepted", "Rejected", 1)
	os.WriteFile(p, []byte(changed), 0o644)
	if got := r.PeekText(); got == nil || string(got.Src) != changed {
		t.Fatalf("PeekText after a change is not what the file holds now")
	}
	if r.Status != Rejected || r.text == nil {
		t.Fatalf("after a change PeekText did not parse again (status %q) or did not keep the text", r.Status)
	}
}

// TestCacheMaxEntries: a cache over its size bound keeps its newest
// records (by the generation that last used them) and drops the stat
// entries of the records it drops.
func TestCacheMaxEntries(t *testing.T) {
	old := cacheMaxEntries
	cacheMaxEntries = 5
	t.Cleanup(func() { cacheMaxEntries = old })
	blobs := map[string]cacheEntry{}
	stats := map[statKey]statEntry{}
	for i := 1; i <= 8; i++ {
		h := fmt.Sprintf("%040d", i)
		blobs[h] = cacheEntry{rec: "r", gen: uint32(i)}
		stats[statKey{path: fmt.Sprintf("doc/adr/%04d-x.md", i), dev: 1, ino: uint64(i)}] = statEntry{blob: h, gen: uint32(i)}
	}
	c := &Cache{}
	if err := c.decode(string(encodeCache(9, blobs, stats))); err != nil {
		t.Fatal(err)
	}
	if len(c.blobs) != 5 || len(c.stats) != 5 {
		t.Fatalf("%d records and %d stat entries kept, want 5 and 5", len(c.blobs), len(c.stats))
	}
	for i := 4; i <= 8; i++ {
		if _, ok := c.blobs[fmt.Sprintf("%040d", i)]; !ok {
			t.Errorf("record of generation %d dropped: the oldest go first", i)
		}
	}
	for k, st := range c.stats {
		if _, ok := c.blobs[st.blob]; !ok {
			t.Errorf("stat entry %s kept for a dropped record", k.path)
		}
	}
}

// TestReleaseParsedText: a record parsed in this run (a first load) lets
// go of its text too, and reads it again, checked, when it is used; one
// whose file changed meanwhile is parsed again from what it holds now. A
// load without a cache keeps its texts.
func TestReleaseParsedText(t *testing.T) {
	dir, _, _ := cacheRepo(t)
	l, err := Load(os.DirFS(dir), LoadOptions{Cache: OpenCache(t.TempDir(), false)})
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(dir, "doc", "adr", "0002-use-postgresql.md")
	old, _ := os.ReadFile(p)
	r, _ := l.Resolve("2")
	if r.text == nil {
		t.Fatal("record 2 was served by the cache: the test needs it parsed")
	}
	r.ReleaseText()
	if r.text != nil {
		t.Fatal("ReleaseText kept the text of a parsed record")
	}
	if got := r.PeekText(); string(got.Src) != string(old) || r.text != nil {
		t.Fatalf("PeekText after a release: %q (kept: %v)", got.Src, r.text != nil)
	}
	if got := r.Text(); string(got.Src) != string(old) || r.text != got {
		t.Fatalf("Text after a release: %q", got.Src)
	}

	r, _ = l.Resolve("3")
	r.ReleaseText()
	p3 := filepath.Join(dir, "doc", "adr", "0003-use-kafka.md")
	old3, err := os.ReadFile(p3)
	if err != nil {
		t.Fatal(err)
	}
	changed := strings.Replace(string(old3), "Accepted", "Rejected", 1)
	if changed == string(old3) {
		t.Fatal("the test's record has no status to change")
	}
	os.WriteFile(p3, []byte(changed), 0o644)
	if got := r.Text(); string(got.Src) != changed || r.Status != Rejected {
		t.Fatalf("after a change the released record was not parsed again: status %q", r.Status)
	}

	plain, err := Load(os.DirFS(dir), LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	r, _ = plain.Resolve("2")
	r.ReleaseText()
	if r.text == nil {
		t.Fatal("a record read without a cache let go of its text")
	}
}

// A cache read outside the heap (ReadOutsideHeap) serves the same records
// and leaves its file's bytes out of the heap.
func TestCacheReadOutsideHeap(t *testing.T) {
	laterClock(t)
	dir := t.TempDir()
	adrDir := filepath.Join(dir, "doc", "adr")
	if err := os.MkdirAll(adrDir, 0o755); err != nil {
		t.Fatal(err)
	}
	for i := 1; i <= 2000; i++ {
		body := fmt.Sprintf("# %d. Decision %d\n\nDate: 2024-01-01\n\n## Status\n\nAccepted\n\n## Context\n\n%s\n\n## Decision\n\nWe will.\n", i, i, strings.Repeat("Some context. ", 20))
		if err := os.WriteFile(filepath.Join(adrDir, fmt.Sprintf("%04d-decision-%d.md", i, i)), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cdir := t.TempDir()
	c := OpenCache(cdir, false)
	cold, err := Load(os.DirFS(dir), LoadOptions{Cache: c})
	if err != nil {
		t.Fatal(err)
	}
	want := snapshot(t, cold)
	saveAged(t, c)
	fi, err := os.Stat(filepath.Join(cdir, CacheFile))
	if err != nil {
		t.Fatal(err)
	}
	allocated := func(outside bool) uint64 {
		c := OpenCache(cdir, true)
		if outside {
			c.ReadOutsideHeap()
		}
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		c.load()
		runtime.ReadMemStats(&after)
		l, err := Load(os.DirFS(dir), LoadOptions{Cache: c})
		if err != nil {
			t.Fatal(err)
		}
		if got := snapshot(t, l); got != want {
			t.Fatalf("outside=%v: the load differs:\n%s", outside, firstDiff(want, got))
		}
		return after.TotalAlloc - before.TotalAlloc
	}
	// The least of three runs each: what another goroutine allocates
	// meanwhile counts too.
	least := func(outside bool) uint64 {
		return min(allocated(outside), allocated(outside), allocated(outside))
	}
	inHeap, outside := least(false), least(true)
	if inHeap < outside+uint64(fi.Size())*9/10 {
		t.Errorf("reading the %d-byte cache allocated %d bytes in the heap, %d outside it: want the file's bytes saved", fi.Size(), inHeap, outside)
	}
}
