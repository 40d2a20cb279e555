package gitops

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// Every object read from a pack is byte for byte what git cat-file gives;
// deltified objects are left to go-git, and stored ones (the newest
// versions) are read here. Packs of three kinds: a plain gc, an
// aggressive one, and a repack with deltas of depth one.
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
	for _, gc := range [][]string{{"gc", "-q"}, {"gc", "-q", "--aggressive"}, {"-c", "pack.indexVersion=2", "repack", "-adq", "--depth=1"}} {
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
		if read == 0 || kept == 0 {
			t.Errorf("%v: %d objects read from the pack, %d (deltas) left to go-git: want both", gc, read, kept)
		}
		t.Logf("%v: %d read, %d deltas left to go-git", gc, read, kept)
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
