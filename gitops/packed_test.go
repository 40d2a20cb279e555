package gitops

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// Every object read from a pack is byte for byte what git cat-file gives,
// stored whole or made from its chain of deltas, and none is left to
// go-git. Packs of three kinds: a plain gc, an aggressive one, and a
// repack with deltas of depth one, and one whose deltas name their bases.
func TestPackedObjectsMatchGit(t *testing.T) {
	files := map[string]string{}
	for i := 0; i < 40; i++ {
		files[fmt.Sprintf("doc/adr/%04d-d.md", i)] = fmt.Sprintf("# %d. D\n\n## Status\n\nAccepted\n\n## Decision\n\n%s\n", i, strings.Repeat("We decide something. ", i+1))
	}
	dir := newRepo(t, files)
	// More history, so that gc makes deltas.
	for k := 0; k < 5; k++ {
		for i := 0; i < 40; i += 3 {
			p := filepath.Join(dir, "doc", "adr", fmt.Sprintf("%04d-d.md", i))
			f, err := os.OpenFile(p, os.O_APPEND|os.O_WRONLY, 0)
			if err != nil {
				t.Fatal(err)
			}
			fmt.Fprintf(f, "\nMore %d.\n", k)
			f.Close()
		}
		runGit(t, dir, "commit", "-qam", fmt.Sprintf("edit %d", k))
	}
	for _, gc := range [][]string{{"gc", "-q"}, {"gc", "-q", "--aggressive"}, {"-c", "pack.indexVersion=2", "repack", "-adq", "--depth=1"},
		// Bases named, not offsets (REF_DELTA).
		{"-c", "repack.useDeltaBaseOffset=false", "repack", "-adfq"}} {
		runGit(t, dir, gc...)
		r, err := Open(dir)
		if err != nil {
			t.Fatal(err)
		}
		if r.goGit() == nil {
			t.Fatal("go-git refused the repository")
		}
		list := runGit(t, dir, "cat-file", "--batch-all-objects", "--batch-check=%(objectname) %(objecttype)")
		read, kept := 0, 0
		for _, line := range strings.Split(strings.TrimSpace(list), "\n") {
			f := strings.Fields(line)
			if len(f) != 2 || f[1] == "tag" {
				continue
			}
			got, ok := r.packedObject(f[0], f[1])
			if !ok {
				kept++
				continue
			}
			read++
			want, err := exec.Command("git", "-C", dir, "cat-file", f[1], f[0]).Output()
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, want) {
				t.Fatalf("%v: %s %s read %d bytes, git gives %d", gc, f[1], f[0], len(got), len(want))
			}
			if other := map[string]string{"blob": "tree", "tree": "commit", "commit": "blob"}[f[1]]; true {
				if _, ok := r.packedObject(f[0], other); ok {
					t.Errorf("%s %s was read as a %s", f[1], f[0], other)
				}
			}
		}
		deltas := 0
		for _, line := range strings.Split(runGit(t, dir, "verify-pack", "-v", filepath.Join(dir, ".git", "objects", "pack", packName(t, dir))), "\n") {
			if f := strings.Fields(line); len(f) == 7 && len(f[0]) == 40 {
				deltas++ // name, type, size, size in pack, offset, depth, base
			}
		}
		if read == 0 || kept != 0 || deltas == 0 {
			t.Errorf("%v: %d objects read from the pack, %d left to go-git, %d of them deltas: want all read, some deltas", gc, read, kept, deltas)
		}
		t.Logf("%v: %d read, %d of them deltas", gc, read, deltas)
		// What is not in any pack is not found.
		if _, ok := r.packedObject(strings.Repeat("ab", 20), "blob"); ok {
			t.Error("an object no pack holds was found")
		}
		// The hook's reads agree with git on the packed repository.
		head := strings.TrimSpace(runGit(t, dir, "rev-parse", "HEAD^{tree}"))
		c, err := r.commitTree(strings.TrimSpace(runGit(t, dir, "rev-parse", "HEAD")))
		if err != nil || c != head {
			t.Errorf("%v: commit tree %q, %v; git says %s", gc, c, err, head)
		}
	}
}

// A pack index is never trusted beyond what it can hold: damaged indexes
// give no offset and never panic.
func FuzzPackIndex(f *testing.F) {
	good := make([]byte, packIndexHead+28+40)
	copy(good, "\377tOc\x00\x00\x00\x02")
	for i := 0xab; i < 256; i++ {
		good[8+4*i+3] = 1 // one object, first byte 0xab
	}
	good[packIndexHead] = 0xab
	f.Add(good)
	f.Add(good[:packIndexHead])
	f.Fuzz(func(t *testing.T, b []byte) {
		ix, ok := openPackIndex(bytes.NewReader(b), int64(len(b)))
		if !ok {
			return
		}
		for _, first := range []byte{0, 0xab, 0xff} {
			raw := bytes.Repeat([]byte{first}, 20)
			if off, ok := ix.offset(raw); ok && off < 0 {
				t.Errorf("offset %d", off)
			}
		}
	})
}

// TestDeltaBlobsReadConcurrently: blobs stored as deltas, read from many
// goroutines at once, are each what git says: the bases one read keeps
// for the next are shared between them (run with -race), and the first
// reads do not race go-git's opening of the repository.
func TestDeltaBlobsReadConcurrently(t *testing.T) {
	base := strings.Repeat("We decided to keep the orders in PostgreSQL for now.\n", 40)
	files := map[string]string{}
	for i := range 40 {
		files[fmt.Sprintf("doc/adr/%04d-r.md", i)] = fmt.Sprintf("# %d. R\n\n%s\nRecord %d.\n", i, base, i)
	}
	dir := newRepo(t, files)
	runGit(t, dir, "gc", "-q", "--aggressive")
	var want []string
	var hashes []string
	for _, line := range strings.Split(strings.TrimSpace(runGit(t, dir, "ls-tree", "-r", "HEAD")), "\n") {
		f := strings.Fields(line)
		hashes = append(hashes, f[2])
		want = append(want, files[strings.Join(f[3:], " ")])
	}
	deltas := 0
	for _, line := range strings.Split(runGit(t, dir, "verify-pack", "-v", filepath.Join(dir, ".git", "objects", "pack", packName(t, dir))), "\n") {
		if f := strings.Fields(line); len(f) == 7 && f[1] == "blob" {
			deltas++ // name, type, sizes, offset, then depth and base
		}
	}
	if deltas < 10 {
		t.Fatalf("git stored %d blobs as deltas; the test needs many", deltas)
	}
	r, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for w := range 8 {
		wg.Go(func() {
			for i := w; i < len(hashes); i += 8 {
				b, err := r.readBlob(hashes[i])
				if err != nil || string(b) != want[i] {
					t.Errorf("blob %s: %q, %v", hashes[i], b, err)
				}
			}
		})
	}
	wg.Wait()
}

func packName(t *testing.T, dir string) string {
	t.Helper()
	m, _ := filepath.Glob(filepath.Join(dir, ".git", "objects", "pack", "*.idx"))
	if len(m) != 1 {
		t.Fatalf("%d pack indexes", len(m))
	}
	return filepath.Base(m[0])
}

// A read after Close, which closes the pack files the repository kept
// open, still gives the object, through go-git or git.
func TestPackedReadAfterClose(t *testing.T) {
	dir := newRepo(t, map[string]string{"doc/adr/0001-a.md": "# 1. A\n\nDecided.\n"})
	runGit(t, dir, "gc", "-q")
	h := strings.TrimSpace(runGit(t, dir, "rev-parse", "HEAD:doc/adr/0001-a.md"))
	r, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	if b, ok := r.packedObject(h, "blob"); !ok || string(b) != "# 1. A\n\nDecided.\n" {
		t.Fatalf("packed read: %q, %v", b, ok)
	}
	if err := r.Close(); err != nil {
		t.Fatal(err)
	}
	if _, ok := r.packedObject(h, "blob"); ok {
		t.Error("a packed read after Close used a closed pack file")
	}
	if b, err := r.readBlob(h); err != nil || string(b) != "# 1. A\n\nDecided.\n" {
		t.Fatalf("read after Close: %q, %v", b, err)
	}
	r.Close()
}
