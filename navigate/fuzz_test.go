package navigate

import (
	"bytes"
	"errors"
	"os"
	"path"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"
)

// FuzzResolve checks that no path, from any current directory, resolves
// outside the tree or into .git.
func FuzzResolve(f *testing.F) {
	for _, s := range [][2]string{{"", "a/b"}, {"sub", "../../x"}, {".", "/etc/passwd"}, {"a", ".git/config"}, {"a/b", "..//./c"}} {
		f.Add(s[0], s[1])
	}
	dir := f.TempDir()
	tr, err := Open(dir)
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, cwd, p string) {
		v, err := tr.At(cwd)
		if err != nil {
			return
		}
		rel, err := v.Resolve(p)
		if err != nil {
			var ae *ArgError
			if !errors.Is(err, ErrOutside) && !errors.Is(err, ErrGitDir) && !errors.As(err, &ae) {
				t.Fatalf("Resolve(%q) from %q: unexpected error %v", p, cwd, err)
			}
			return
		}
		// File names need not be UTF-8 (fs.ValidPath would insist).
		if rel != path.Clean(rel) || path.IsAbs(rel) || rel == "" {
			t.Fatalf("Resolve(%q) from %q = %q, not a clean relative path", p, cwd, rel)
		}
		for _, el := range strings.Split(rel, "/") {
			if el == ".git" || el == ".." {
				t.Fatalf("Resolve(%q) from %q = %q", p, cwd, rel)
			}
		}
		if shown := v.show(rel); filepath.IsAbs(shown) {
			t.Fatalf("show(%q) = %q", rel, shown)
		}
	})
}

// FuzzReadRange checks every range read against an independent split of
// the file into lines, and that paging rebuilds the file byte for byte.
func FuzzReadRange(f *testing.F) {
	f.Add([]byte("one\ntwo\r\nthree"), 1, 2)
	f.Add([]byte(""), 1, 1)
	f.Add([]byte("\n\n\r\n"), 3, 200)
	f.Add([]byte("é\r\n🦀\rx\n"), 2, 1)
	f.Add([]byte("a\x00b\n"), 1, 1)
	f.Add([]byte("caf\xe9\n"), 1, 1)
	f.Fuzz(func(t *testing.T, data []byte, start, count int) {
		dir := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, "f"), data, 0o644); err != nil {
			t.Fatal(err)
		}
		tr, err := Open(dir)
		if err != nil {
			t.Fatal(err)
		}
		defer tr.Close()
		lines := bytes.SplitAfter(data, []byte("\n"))
		if len(lines[len(lines)-1]) == 0 {
			lines = lines[:len(lines)-1]
		}
		pg, err := tr.Read("f", ReadOptions{StartLine: start, LineCount: count})
		text := utf8.Valid(data) && bytes.IndexByte(data, 0) < 0
		if err != nil {
			var ae *ArgError
			switch {
			case errors.As(err, &ae):
				if start >= 1 && count >= 1 && count <= MaxReadLines {
					t.Fatalf("valid range refused: %v", err)
				}
			case errors.Is(err, ErrPastEnd):
				if start <= len(lines) || (start == 1 && len(lines) == 0) {
					t.Fatalf("range in the file refused: %v", err)
				}
			case errors.Is(err, ErrBinary), errors.Is(err, ErrNotUTF8):
				if text {
					t.Fatalf("text refused: %v", err)
				}
			case errors.Is(err, ErrLineTooLong):
				if len(lines[start-1]) <= MaxReadBytes {
					t.Fatalf("short line refused: %v", err)
				}
			default:
				t.Fatalf("unexpected error %v", err)
			}
			return
		}
		if !text {
			t.Fatal("binary or non-UTF-8 data served")
		}
		want := bytes.Join(lines[start-1:start-1+pg.LineCount], nil)
		if pg.Content != string(want) || pg.LineCount > count || len(pg.Content) > MaxReadBytes || pg.TotalLines != len(lines) {
			t.Fatalf("range %d+%d: %+v, want content %q of %d lines", start, count, pg, want, len(lines))
		}
		if pg.LineCount == 0 && len(lines) > 0 {
			t.Fatal("empty page inside the file")
		}
		got, _ := readAll(t, tr, "f", count)
		if got != string(data) {
			t.Fatalf("pages of %d lines rebuilt %q, want %q", count, got, data)
		}
	})
}

// FuzzSearchLiteral checks that every match holds the pattern (folded) on
// the reported line, and that every line holding it is reported.
func FuzzSearchLiteral(f *testing.F) {
	f.Add([]byte("a.b\nA.B\n.*\n"), "a.b", false)
	f.Add([]byte("ſ\r\nS\n\u212a"), "s", false)
	f.Add([]byte("x\xffy\n"), "y", true)
	f.Fuzz(func(t *testing.T, data []byte, pattern string, caseSensitive bool) {
		if bytes.IndexByte(data[:min(len(data), 8000)], 0) >= 0 || len(data) > 1<<16 {
			return
		}
		dir := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, "f"), data, 0o644); err != nil {
			t.Fatal(err)
		}
		tr, err := Open(dir)
		if err != nil {
			t.Fatal(err)
		}
		defer tr.Close()
		res, err := tr.Search(SearchOptions{Pattern: pattern, CaseSensitive: caseSensitive})
		if err != nil {
			var ae *ArgError
			if !errors.As(err, &ae) {
				t.Fatal(err)
			}
			return
		}
		norm := func(b []byte) []byte {
			if caseSensitive {
				return b
			}
			return foldBytes(nil, b)
		}
		pat := norm([]byte(pattern))
		var want []int
		for i, l := range bytes.SplitAfter(data, []byte("\n")) {
			if bytes.Contains(norm(l), pat) {
				want = append(want, i+1)
			}
		}
		if !res.Truncated && len(res.Matches) != len(want) {
			t.Fatalf("%d matches, want lines %v", len(res.Matches), want)
		}
		for i, m := range res.Matches {
			if m.Line != want[i] || !utf8.ValidString(m.Text) {
				t.Fatalf("match %d at line %d (%q), want line %d", i, m.Line, m.Text, want[i])
			}
		}
	})
}
