package adr

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"
	"testing/fstest"
	"time"
)

// listings counts the folders listed through it.
type listings struct {
	fs.FS
	mu    sync.Mutex
	dirs  []string
	reads int
}

func (l *listings) ReadDir(name string) ([]fs.DirEntry, error) {
	l.mu.Lock()
	l.dirs = append(l.dirs, name)
	l.mu.Unlock()
	return fs.ReadDir(l.FS, name)
}

func (l *listings) Stat(name string) (fs.FileInfo, error) { return fs.Stat(l.FS, name) }

func writeFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for p, s := range files {
		f := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(f), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(f, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func memoRec(n, title string) string {
	return "# " + n + ". " + title + "\n\n## Status\n\nAccepted\n\n## Context\n\nC.\n\n## Decision\n\nD.\n"
}

// Detection is remembered with the stat data of what it looked at, and
// reused while they hold: a new log folder, a record that stops looking
// like one, a damaged memo and stat data too recent to trust each make it
// scan again, and the roots are always those a fresh scan finds.
func TestDetectRemembered(t *testing.T) {
	laterClock(t)
	top := t.TempDir()
	writeFiles(t, top, map[string]string{
		"architecture/decisions/0001-use-go.md":   memoRec("1", "Use Go"),
		"architecture/decisions/0002-use-toml.md": memoRec("2", "Use TOML"),
		"src/a/main.go":  "package a\n",
		"src/b/c/lib.go": "package c\n",
	})
	cacheDir := filepath.Join(t.TempDir(), "cache")
	if err := os.MkdirAll(cacheDir, 0o700); err != nil {
		t.Fatal(err)
	}
	load := func() ([]string, []string) {
		t.Helper()
		lfs := &listings{FS: os.DirFS(top)}
		l, err := Load(lfs, LoadOptions{Lazy: true, Cache: OpenCache(cacheDir, false)})
		if err != nil {
			t.Fatal(err)
		}
		var roots []string
		for _, r := range l.Roots {
			roots = append(roots, r.Path)
		}
		fresh, err := Load(os.DirFS(top), LoadOptions{Lazy: true})
		if err != nil {
			t.Fatal(err)
		}
		var want []string
		for _, r := range fresh.Roots {
			want = append(want, r.Path)
		}
		if !reflect.DeepEqual(roots, want) {
			t.Fatalf("remembered roots %v, a fresh scan finds %v", roots, want)
		}
		return roots, lfs.dirs
	}
	scanned := func(dirs []string) bool {
		for _, d := range dirs {
			if strings.HasPrefix(d, "src") {
				return true
			}
		}
		return false
	}
	if roots, dirs := load(); !scanned(dirs) || len(roots) != 1 {
		t.Fatalf("first load: roots %v, listed %v", roots, dirs)
	}
	if _, err := os.Stat(filepath.Join(cacheDir, detectFile)); err != nil {
		t.Fatalf("nothing remembered: %v", err)
	}
	if _, dirs := load(); scanned(dirs) {
		t.Errorf("second load scanned again: %v", dirs)
	}
	// A new log folder deeper down.
	writeFiles(t, top, map[string]string{
		"src/b/adr/0001-use-c.md": memoRec("1", "Use C"),
		"src/b/adr/0002-use-d.md": memoRec("2", "Use D"),
	})
	if roots, dirs := load(); !scanned(dirs) || len(roots) != 2 {
		t.Errorf("after a new log folder: roots %v, listed %v", roots, dirs)
	}
	// A record that no longer looks like one (qualifies reads it).
	writeFiles(t, top, map[string]string{
		"src/b/adr/0001-use-c.md": "just notes\n",
		"src/b/adr/0002-use-d.md": "more notes\n",
	})
	if roots, _ := load(); len(roots) != 1 {
		t.Errorf("after the records became notes: roots %v", roots)
	}
	// A damaged memo is ignored.
	if err := os.WriteFile(filepath.Join(cacheDir, detectFile), []byte("git-adr detect 1\nxx"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, dirs := load(); !scanned(dirs) {
		t.Error("a damaged memo was trusted")
	}
	// Stat data too recent to tell apart from a change: nothing is kept.
	cacheNow = func() time.Time { return time.Now() }
	os.Remove(filepath.Join(cacheDir, detectFile))
	writeFiles(t, top, map[string]string{"src/new.go": "package src\n"})
	load()
	if _, err := os.Stat(filepath.Join(cacheDir, detectFile)); err == nil {
		t.Error("a detection over files changed this second was remembered")
	}
}

// readDetect never fails on damaged input, and reads back what
// encodeDetect wrote.
func FuzzReadDetect(f *testing.F) {
	good := encodeDetect([]string{"doc/adr", ""}, []probe{{".", pathSig{dev: 1, ino: 2, mode: 0o40755, size: 4096, mtime: 5, ctime: 6}}, {"docs/decisions", pathSig{}}})
	f.Add(good)
	f.Add(good[:len(good)/2])
	f.Add([]byte(detectMagic))
	f.Fuzz(func(t *testing.T, data []byte) {
		file := filepath.Join(t.TempDir(), detectFile)
		if err := os.WriteFile(file, data, 0o600); err != nil {
			t.Fatal(err)
		}
		found, probes, ok := readDetect(file)
		if !ok {
			return
		}
		again := encodeDetect(found, probes)
		if err := os.WriteFile(file, again, 0o600); err != nil {
			t.Fatal(err)
		}
		f2, p2, ok := readDetect(file)
		if !ok || !reflect.DeepEqual(found, f2) || !reflect.DeepEqual(probes, p2) {
			t.Errorf("round trip: %v %v, then %v %v", found, probes, f2, p2)
		}
	})
}

// slowFS takes a while to read each file.
type slowFS struct{ fs.FS }

func (s slowFS) ReadFile(name string) ([]byte, error) {
	time.Sleep(3 * time.Millisecond)
	return fs.ReadFile(s.FS, name)
}

// A load that takes long reports the records read, ending at the total,
// from one goroutine at a time; a quick one reports nothing.
func TestLoadProgress(t *testing.T) {
	files := fstest.MapFS{}
	for i := 1; i <= 200; i++ {
		files[fmt.Sprintf("doc/adr/%04d-d.md", i)] = &fstest.MapFile{Data: []byte(memoRec(fmt.Sprint(i), "D"))}
	}
	var mu sync.Mutex
	var calls [][2]int
	inside := 0
	progress := func(done, total int) {
		mu.Lock()
		inside++
		if inside > 1 {
			t.Error("progress called from two goroutines at once")
		}
		calls = append(calls, [2]int{done, total})
		inside--
		mu.Unlock()
	}
	few := fstest.MapFS{}
	for i := 1; i <= 20; i++ {
		few[fmt.Sprintf("doc/adr/%04d-d.md", i)] = files[fmt.Sprintf("doc/adr/%04d-d.md", i)]
	}
	if _, err := Load(few, LoadOptions{Progress: progress}); err != nil {
		t.Fatal(err)
	}
	if len(calls) != 0 {
		t.Errorf("a quick load reported %d times", len(calls))
	}
	if _, err := Load(slowFS{files}, LoadOptions{Progress: progress}); err != nil {
		t.Fatal(err)
	}
	if len(calls) == 0 || calls[len(calls)-1] != [2]int{200, 200} {
		t.Errorf("a slow load reported %v, want the last call at 200/200", calls)
	}
}

// A memo naming a path outside the work tree (forged, or damaged in a way
// the checksum passes) is never trusted.
func TestDetectMemoForged(t *testing.T) {
	file := filepath.Join(t.TempDir(), detectFile)
	for _, bad := range [][]string{{"../etc"}, {"/etc"}, {"doc/../../x"}} {
		if err := os.WriteFile(file, encodeDetect(bad, []probe{{".", pathSig{ino: 1}}}), 0o600); err != nil {
			t.Fatal(err)
		}
		if found, _, ok := readDetect(file); ok {
			t.Errorf("a memo finding %v was read: %v", bad, found)
		}
	}
	if err := os.WriteFile(file, encodeDetect([]string{"doc/adr"}, []probe{{"../up", pathSig{}}}), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, _, ok := readDetect(file); ok {
		t.Error("a memo probing a path outside the tree was read")
	}
}

// Loads at once, while the memo is replaced under them by damaged copies,
// all find what a scan finds; the memo they leave is whole.
func TestDetectRememberedConcurrent(t *testing.T) {
	laterClock(t)
	top := t.TempDir()
	writeFiles(t, top, map[string]string{
		"architecture/decisions/0001-use-go.md":   memoRec("1", "Use Go"),
		"architecture/decisions/0002-use-toml.md": memoRec("2", "Use TOML"),
		"src/a/main.go": "package a\n",
	})
	cacheDir := filepath.Join(t.TempDir(), "cache")
	file := filepath.Join(cacheDir, detectFile)
	stop := make(chan struct{})
	var vandal sync.WaitGroup
	vandal.Add(1)
	go func() {
		defer vandal.Done()
		for i := 0; ; i++ {
			select {
			case <-stop:
				return
			default:
			}
			data, err := os.ReadFile(file)
			if err != nil || len(data) < 4 {
				continue
			}
			bad := [][]byte{data[:len(data)/2], {}, append([]byte(detectMagic), "garbage"...)}[i%3]
			_ = os.WriteFile(file+".vandal", bad, 0o600)
			_ = os.Rename(file+".vandal", file)
		}
	}()
	var wg sync.WaitGroup
	for w := 0; w < 8; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 20; i++ {
				l, err := Load(os.DirFS(top), LoadOptions{Lazy: true, Cache: OpenCache(cacheDir, false)})
				if err != nil {
					t.Error(err)
					return
				}
				if len(l.Roots) != 1 || l.Roots[0].Path != "architecture/decisions" {
					t.Errorf("roots %v under a vandalised memo", l.Roots)
					return
				}
			}
		}()
	}
	wg.Wait()
	close(stop)
	vandal.Wait()
	// The next load writes a whole memo again, and the one after reads it.
	if _, err := Load(os.DirFS(top), LoadOptions{Lazy: true, Cache: OpenCache(cacheDir, false)}); err != nil {
		t.Fatal(err)
	}
	if _, _, ok := readDetect(file); !ok {
		t.Error("no whole memo after the vandal stopped")
	}
}
