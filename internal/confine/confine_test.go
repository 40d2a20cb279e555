//go:build unix

package confine

import (
	"errors"
	"io/fs"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"testing/fstest"
	"time"
)

// confinedTree builds, in a temporary directory, a tree "top" beside a
// directory "outside" that holds a secret, and opens top.
func confinedTree(t *testing.T) (*ConfinedFS, string) {
	t.Helper()
	base := t.TempDir()
	top := filepath.Join(base, "top")
	for name, data := range map[string]string{
		"top/doc/adr/0001-a.md":   "# 1. A\n",
		"top/docs/decisions/x.md": "x\n",
		"top/sub/deep/f.txt":      "deep\n",
		"outside/secret.md":       "SECRET\n",
	} {
		p := filepath.Join(base, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for link, target := range map[string]string{
		"out-abs":           filepath.Join(base, "outside"),
		"out-rel":           "../outside",
		"out-file":          "../outside/secret.md",
		"out-dangling":      "/nonexistent/elsewhere",
		"in-rel":            "docs/decisions",
		"in-abs":            filepath.Join(top, "docs", "decisions"),
		"sub/up":            "../doc/adr/0001-a.md",
		"sub/deep/climb":    "../../../outside",
		"sub/self":          ".",
		"sub/self-climb":    "self/../..",
		"loop-a":            "loop-b",
		"loop-b":            "loop-a",
		"doc/adr/0002-b.md": "../../out-abs/secret.md",
		"dev-null":          "/dev/null",
	} {
		if err := os.Symlink(target, filepath.Join(top, filepath.FromSlash(link))); err != nil {
			t.Fatal(err)
		}
	}
	c, err := OpenFS(top)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c, base
}

func TestConfinedFSRefusesLinksThatLeadOut(t *testing.T) {
	c, base := confinedTree(t)
	for _, tc := range []struct{ name, link, target string }{
		{"out-abs/secret.md", "out-abs", filepath.Join(base, "outside")},
		{"out-abs", "out-abs", filepath.Join(base, "outside")},
		{"out-rel/secret.md", "out-rel", "../outside"},
		{"out-rel/missing.md", "out-rel", "../outside"},
		{"out-file", "out-file", "../outside/secret.md"},
		{"out-dangling/x", "out-dangling", "/nonexistent/elsewhere"},
		{"sub/deep/climb/secret.md", "sub/deep/climb", "../../../outside"},
		{"sub/self-climb/outside/secret.md", "sub/self", "."},
		{"doc/adr/0002-b.md", "out-abs", filepath.Join(base, "outside")},
		{"dev-null", "dev-null", "/dev/null"},
	} {
		_, err := c.ReadFile(tc.name)
		var esc *EscapeError
		if !errors.As(err, &esc) || esc.Link != tc.link || esc.Target != tc.target {
			t.Errorf("ReadFile(%q) = %v; want a link %q to %q", tc.name, err, tc.link, tc.target)
			continue
		}
		if !errors.Is(err, ErrOutside) || !errors.Is(err, fs.ErrPermission) {
			t.Errorf("ReadFile(%q): %v does not match ErrOutside and fs.ErrPermission", tc.name, err)
		}
		if _, err := c.Open(tc.name); !errors.Is(err, ErrOutside) {
			t.Errorf("Open(%q) = %v; want ErrOutside", tc.name, err)
		}
		if _, err := c.Stat(tc.name); !errors.Is(err, ErrOutside) {
			t.Errorf("Stat(%q) = %v; want ErrOutside", tc.name, err)
		}
	}
	for _, dir := range []string{"out-abs", "out-rel", "sub/deep/climb"} {
		if _, err := c.ReadDir(dir); !errors.Is(err, ErrOutside) {
			t.Errorf("ReadDir(%q) = %v; want ErrOutside", dir, err)
		}
	}
	_, err := c.ReadFile("out-abs/secret.md")
	want := `out-abs is a symbolic link to "` + filepath.Join(base, "outside") + `", outside the repository`
	if err == nil || err.Error() != want {
		t.Errorf("message: %v\nwant %s", err, want)
	}
}

func TestConfinedFSFollowsLinksInside(t *testing.T) {
	c, _ := confinedTree(t)
	for name, want := range map[string]string{
		"in-rel/x.md":         "x\n",
		"in-abs/x.md":         "x\n",
		"sub/up":              "# 1. A\n",
		"sub/self/deep/f.txt": "deep\n",
		"doc/adr/0001-a.md":   "# 1. A\n",
	} {
		data, err := c.ReadFile(name)
		if err != nil || string(data) != want {
			t.Errorf("ReadFile(%q) = %q, %v; want %q", name, data, err, want)
		}
	}
	for _, dir := range []string{"in-rel", "in-abs"} {
		es, err := c.ReadDir(dir)
		if err != nil || len(es) != 1 || es[0].Name() != "x.md" {
			t.Errorf("ReadDir(%q) = %v, %v", dir, es, err)
		}
	}
	if got, err := c.Resolve("in-abs/x.md"); err != nil || got != "docs/decisions/x.md" {
		t.Errorf("Resolve(in-abs/x.md) = %q, %v", got, err)
	}
	if fi, err := c.Lstat("in-abs"); err != nil || fi.Mode()&fs.ModeSymlink == 0 {
		t.Errorf("Lstat(in-abs) = %v, %v; want a link", fi, err)
	}
	if got, err := c.ReadLink("in-rel"); err != nil || got != "docs/decisions" {
		t.Errorf("ReadLink(in-rel) = %q, %v", got, err)
	}
	if _, err := c.ReadFile("loop-a"); !errors.Is(err, syscall.ELOOP) {
		t.Errorf("ReadFile(loop-a) = %v; want ELOOP", err)
	}
	if _, err := c.ReadFile("doc/adr/missing.md"); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("ReadFile(missing) = %v; want ErrNotExist", err)
	}
	if _, err := c.ReadDir("nowhere"); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("ReadDir(nowhere) = %v; want ErrNotExist", err)
	}
}

func TestConfinedFSRefusesInvalidNames(t *testing.T) {
	c, base := confinedTree(t)
	for _, name := range []string{"../outside/secret.md", "sub/../../outside/secret.md", "/etc/passwd",
		filepath.Join(base, "outside", "secret.md"), "doc//adr", "./doc", ""} {
		if _, err := c.ReadFile(name); !errors.Is(err, fs.ErrInvalid) {
			t.Errorf("ReadFile(%q) = %v; want fs.ErrInvalid", name, err)
		}
		if _, err := c.Open(name); !errors.Is(err, fs.ErrInvalid) {
			t.Errorf("Open(%q) = %v; want fs.ErrInvalid", name, err)
		}
		if err := c.WriteFile(name, []byte("x"), 0o644); !errors.Is(err, fs.ErrInvalid) {
			t.Errorf("WriteFile(%q) = %v; want fs.ErrInvalid", name, err)
		}
	}
}

// TestConfinedFSSpecialFiles: a FIFO, a socket and a device are refused
// at once, never opened for a blocking read.
func TestConfinedFSSpecialFiles(t *testing.T) {
	c, _ := confinedTree(t)
	top := c.Top()
	if err := syscall.Mkfifo(filepath.Join(top, "doc/adr/0003-fifo.md"), 0o644); err != nil {
		t.Skip("mkfifo:", err)
	}
	if err := os.Symlink("0003-fifo.md", filepath.Join(top, "doc/adr/0004-to-fifo.md")); err != nil {
		t.Fatal(err)
	}
	sock := filepath.Join(top, "sock.md")
	if l, err := net.Listen("unix", sock); err == nil {
		defer l.Close()
	} else {
		t.Logf("no socket: %v", err)
		sock = ""
	}
	dev, err := OpenFS("/dev")
	if err != nil {
		t.Fatal(err)
	}
	defer dev.Close()
	done := make(chan struct{})
	go func() {
		defer close(done)
		cases := []struct {
			fsys *ConfinedFS
			name string
			kind string
		}{
			{c, "doc/adr/0003-fifo.md", "named pipe"},
			{c, "doc/adr/0004-to-fifo.md", "named pipe"},
			{dev, "null", "device"},
		}
		if sock != "" {
			cases = append(cases, struct {
				fsys *ConfinedFS
				name string
				kind string
			}{c, "sock.md", "socket"})
		}
		for _, tc := range cases {
			_, err := tc.fsys.ReadFile(tc.name)
			var sp *SpecialFileError
			if !errors.As(err, &sp) || FileKind(sp.Mode) != tc.kind {
				t.Errorf("ReadFile(%q) = %v; want a %s refused", tc.name, err, tc.kind)
				continue
			}
			if !errors.Is(err, ErrSpecialFile) || !errors.Is(err, fs.ErrInvalid) {
				t.Errorf("ReadFile(%q): %v does not match ErrSpecialFile and fs.ErrInvalid", tc.name, err)
			}
			if want := tc.name + " is a " + tc.kind + ", not a regular file"; err.Error() != want {
				t.Errorf("message %q, want %q", err, want)
			}
			if _, err := tc.fsys.Open(tc.name); !errors.Is(err, ErrSpecialFile) {
				t.Errorf("Open(%q) = %v; want ErrSpecialFile", tc.name, err)
			}
			if fi, err := tc.fsys.Stat(tc.name); err != nil || fi.Mode().IsRegular() {
				t.Errorf("Stat(%q) = %v, %v; want it described", tc.name, fi, err)
			}
		}
		if _, err := fs.ReadFile(c, "doc/adr/0001-a.md"); err != nil {
			t.Errorf("a record beside the FIFO: %v", err)
		}
		if err := c.WriteFile("doc/adr/0003-fifo.md", []byte("x"), 0o644); !errors.Is(err, ErrSpecialFile) {
			t.Errorf("WriteFile over a FIFO = %v; want ErrSpecialFile", err)
		}
	}()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("blocked on a special file")
	}
}

func TestConfinedFSWrites(t *testing.T) {
	c, base := confinedTree(t)
	if err := c.WriteFile("doc/adr/CURRENT.md", []byte("one\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := c.WriteFile("in-abs/new/y.md", []byte("two\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if data, err := os.ReadFile(filepath.Join(base, "top/docs/decisions/new/y.md")); err != nil || string(data) != "two\n" {
		t.Errorf("write through a link inside: %q, %v", data, err)
	}
	for _, name := range []string{"out-abs/planted.md", "out-rel/planted.md", "out-dangling/planted.md", "sub/deep/climb/planted.md"} {
		if err := c.WriteFile(name, []byte("x"), 0o644); !errors.Is(err, ErrOutside) {
			t.Errorf("WriteFile(%q) = %v; want ErrOutside", name, err)
		}
	}
	if err := c.Remove("out-abs/secret.md"); !errors.Is(err, ErrOutside) {
		t.Errorf("Remove through a link out = %v; want ErrOutside", err)
	}
	es, _ := os.ReadDir(filepath.Join(base, "outside"))
	if len(es) != 1 {
		t.Errorf("outside holds %v; want only secret.md", es)
	}
	es, _ = os.ReadDir(filepath.Join(base, "top/doc/adr"))
	for _, e := range es {
		if strings.HasSuffix(e.Name(), ".tmp") {
			t.Errorf("temporary file left: %s", e.Name())
		}
	}
	if err := c.Remove("doc/adr/CURRENT.md"); err != nil {
		t.Fatal(err)
	}
	if err := c.Remove("doc/adr/CURRENT.md"); err != nil {
		t.Errorf("removing a missing file: %v", err)
	}
}

// TestConfinedFSIsAnFS checks the fs.FS contracts on a tree without links.
func TestConfinedFSIsAnFS(t *testing.T) {
	dir := t.TempDir()
	for name, data := range map[string]string{"a.md": "a", "d/b.md": "bb", "d/e/c.md": "ccc"} {
		p := filepath.Join(dir, filepath.FromSlash(name))
		os.MkdirAll(filepath.Dir(p), 0o755)
		os.WriteFile(p, []byte(data), 0o644)
	}
	c, err := OpenFS(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if err := fstest.TestFS(c, "a.md", "d/b.md", "d/e/c.md"); err != nil {
		t.Fatal(err)
	}
}

// TestConfinedFSManyDirectories reads more directories than it keeps
// handles for.
func TestConfinedFSManyDirectories(t *testing.T) {
	dir := t.TempDir()
	for i := 0; i < maxDirHandles+10; i++ {
		p := filepath.Join(dir, "d"+strings.Repeat("x", i), "f.md")
		os.MkdirAll(filepath.Dir(p), 0o755)
		os.WriteFile(p, []byte("f"), 0o644)
	}
	c, err := OpenFS(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	for i := 0; i < maxDirHandles+10; i++ {
		if data, err := c.ReadFile("d" + strings.Repeat("x", i) + "/f.md"); err != nil || string(data) != "f" {
			t.Fatalf("file %d: %q, %v", i, data, err)
		}
	}
	if len(c.dirs) > maxDirHandles {
		t.Errorf("%d handles kept", len(c.dirs))
	}
}

// TestConfinedFSConcurrentReads: discovery reads records from several
// goroutines through one ConfinedFS.
func TestConfinedFSConcurrentReads(t *testing.T) {
	dir := t.TempDir()
	var names []string
	for d := 0; d < 4; d++ {
		for f := 0; f < 25; f++ {
			name := filepath.Join("d"+strings.Repeat("x", d), strings.Repeat("f", f+1)+".md")
			p := filepath.Join(dir, name)
			os.MkdirAll(filepath.Dir(p), 0o755)
			os.WriteFile(p, []byte(name), 0o644)
			names = append(names, filepath.ToSlash(name))
		}
	}
	c, err := OpenFS(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	errs := make(chan error, 8)
	for w := 0; w < 8; w++ {
		go func() {
			for _, n := range names {
				data, err := c.ReadFile(n)
				if err == nil && string(data) != filepath.FromSlash(n) {
					err = errors.New("wrong content for " + n)
				}
				if err != nil {
					errs <- err
					return
				}
			}
			errs <- nil
		}()
	}
	for w := 0; w < 8; w++ {
		if err := <-errs; err != nil {
			t.Error(err)
		}
	}
}

// TestConfinedFSReadDirEntries: ReadDir's entries (listed with getdents,
// stat'ed when Info is asked for) name, type and describe each file as
// os.ReadDir and os.Lstat do: regular files, folders, links, a FIFO, a
// folder longer than one read of the listing, and folders beyond the
// handles kept open.
func TestConfinedFSReadDirEntries(t *testing.T) {
	dir := t.TempDir()
	big := filepath.Join(dir, "big")
	os.MkdirAll(big, 0o755)
	for i := 0; i < 1500; i++ {
		os.WriteFile(filepath.Join(big, strings.Repeat("n", 40)+strings.Repeat("x", i%7)+"-"+string(rune('a'+i%26))+"-"+strconv.Itoa(i)+".md"), []byte(strings.Repeat("y", i)), 0o644)
	}
	os.WriteFile(filepath.Join(dir, "a.md"), []byte("a"), 0o644)
	os.Mkdir(filepath.Join(dir, "sub"), 0o755)
	os.Symlink("a.md", filepath.Join(dir, "link.md"))
	if err := syscall.Mkfifo(filepath.Join(dir, "fifo"), 0o644); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < maxDirHandles+4; i++ {
		os.MkdirAll(filepath.Join(dir, "many", "d"+strconv.Itoa(i)), 0o755)
		os.WriteFile(filepath.Join(dir, "many", "d"+strconv.Itoa(i), "f.md"), []byte("f"), 0o644)
	}
	c, err := OpenFS(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	check := func(rel string) {
		t.Helper()
		got, err := c.ReadDir(rel)
		if err != nil {
			t.Fatal(err)
		}
		want, err := os.ReadDir(filepath.Join(dir, filepath.FromSlash(rel)))
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != len(want) {
			t.Fatalf("ReadDir(%q): %d entries, want %d", rel, len(got), len(want))
		}
		for i := range want {
			g, w := got[i], want[i]
			if g.Name() != w.Name() || g.Type() != w.Type() || g.IsDir() != w.IsDir() {
				t.Errorf("%s: entry %q %v, want %q %v", rel, g.Name(), g.Type(), w.Name(), w.Type())
			}
			gi, err := g.Info()
			if err != nil {
				t.Fatalf("%s/%s: Info: %v", rel, g.Name(), err)
			}
			wi, _ := os.Lstat(filepath.Join(dir, filepath.FromSlash(rel), w.Name()))
			gs, ws := gi.Sys().(*syscall.Stat_t), wi.Sys().(*syscall.Stat_t)
			if gi.Name() != wi.Name() || gi.Mode() != wi.Mode() || gi.Size() != wi.Size() || !gi.ModTime().Equal(wi.ModTime()) || gs.Ino != ws.Ino || gs.Dev != ws.Dev {
				t.Errorf("%s/%s: Info %v %d %v, want %v %d %v", rel, g.Name(), gi.Mode(), gi.Size(), gi.ModTime(), wi.Mode(), wi.Size(), wi.ModTime())
			}
		}
	}
	check(".")
	check("big")
	for i := 0; i < maxDirHandles+4; i++ {
		check("many/d" + strconv.Itoa(i))
	}
}
