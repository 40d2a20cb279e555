package trust

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

var now = time.Date(2026, 1, 15, 10, 0, 0, 0, time.UTC)

// repoFile makes dir/.adr.toml with content and returns its path.
func repoFile(t *testing.T, content string) string {
	t.Helper()
	dir := t.TempDir()
	p := filepath.Join(dir, ".adr.toml")
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func newStore(t *testing.T) *Store {
	return &Store{Dir: filepath.Join(t.TempDir(), "state", "git-adr", "trust")}
}

func TestTrustFollowsContent(t *testing.T) {
	s := newStore(t)
	p := repoFile(t, "[drafter]\ncommand = \"make draft\"\n")
	sum := Sum([]byte("[drafter]\ncommand = \"make draft\"\n"))

	st, err := s.Check(p, sum)
	if err != nil || st.State != Untrusted || st.Entry != nil {
		t.Fatalf("before trust: %+v, %v; want untrusted without an entry", st, err)
	}
	if _, err := s.Trust(p, sum, now); err != nil {
		t.Fatal(err)
	}
	st, err = s.Check(p, sum)
	if err != nil || st.State != Trusted || !st.Entry.Trusted.Equal(now) {
		t.Fatalf("after trust: %+v, %v; want trusted at %v", st, err, now)
	}

	// One byte more is another file.
	changed := Sum([]byte("[drafter]\ncommand = \"make draft\"\n\n"))
	st, err = s.Check(p, changed)
	if err != nil || st.State != Changed || st.Entry.SHA256 != sum {
		t.Fatalf("changed content: %+v, %v; want changed, remembering %s", st, err, sum)
	}

	// Trusting the new content replaces the old: the old is not trusted
	// any more.
	if _, err := s.Trust(p, changed, now); err != nil {
		t.Fatal(err)
	}
	if st, _ := s.Check(p, sum); st.State != Changed {
		t.Errorf("old content after re-trust: %s, want changed", st.State)
	}

	// Another file with the same content is not trusted by it.
	other := repoFile(t, "[drafter]\ncommand = \"make draft\"\n\n")
	if st, _ := s.Check(other, changed); st.State != Untrusted {
		t.Errorf("same content elsewhere: %s, want untrusted", st.State)
	}
}

func TestRevoke(t *testing.T) {
	s := newStore(t)
	p := repoFile(t, "x = 1\n")
	sum := Sum([]byte("x = 1\n"))
	if _, had, err := s.Revoke(p); err != nil || had {
		t.Fatalf("revoking nothing: had=%v err=%v", had, err)
	}
	if _, err := s.Trust(p, sum, now); err != nil {
		t.Fatal(err)
	}
	if _, had, err := s.Revoke(p); err != nil || !had {
		t.Fatalf("revoke: had=%v err=%v", had, err)
	}
	if st, _ := s.Check(p, sum); st.State != Untrusted {
		t.Errorf("after revoke: %s, want untrusted", st.State)
	}
}

func TestCanonicalThroughSymlinks(t *testing.T) {
	s := newStore(t)
	real := filepath.Dir(repoFile(t, "x = 1\n"))
	links := t.TempDir()
	link := filepath.Join(links, "checkout")
	if err := os.Symlink(real, link); err != nil {
		t.Skip("no symlinks:", err)
	}
	sum := Sum([]byte("x = 1\n"))
	// Trusted through the link, found through the real path, and the
	// other way round; a relative path names the same file too.
	st, err := s.Trust(filepath.Join(link, ".adr.toml"), sum, now)
	if err != nil {
		t.Fatal(err)
	}
	want, _ := filepath.EvalSymlinks(real)
	want = filepath.Join(want, ".adr.toml")
	if st.Path != want {
		t.Errorf("Path = %q, want %q", st.Path, want)
	}
	if st, err := s.Check(filepath.Join(real, ".adr.toml"), sum); err != nil || st.State != Trusted {
		t.Errorf("through the real path: %+v, %v", st, err)
	}
	t.Chdir(links)
	if st, err := s.Check(filepath.Join("checkout", ".", "..", "checkout", ".adr.toml"), sum); err != nil || st.State != Trusted {
		t.Errorf("through a relative path: %+v, %v", st, err)
	}

	// A symlinked .adr.toml is trusted where it is read, not where it
	// points: its relative commands run in this repository.
	if err := os.Symlink(filepath.Join(real, ".adr.toml"), filepath.Join(links, ".adr.toml")); err != nil {
		t.Fatal(err)
	}
	if st, err := s.Check(filepath.Join(links, ".adr.toml"), sum); err != nil || st.State != Untrusted {
		t.Errorf("a symlink to a trusted file elsewhere: %+v, %v; want untrusted", st, err)
	}
}

func TestStoreFiles(t *testing.T) {
	s := newStore(t)
	p := repoFile(t, "x = 1\n")
	st, err := s.Trust(p, Sum([]byte("x = 1\n")), now)
	if err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Stat(s.Dir); err != nil || fi.Mode().Perm() != 0o700 {
		t.Errorf("store directory: %v, %v; want mode 0700", fi.Mode(), err)
	}
	if fi, err := os.Stat(st.File); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("entry: %v, %v; want mode 0600", fi.Mode(), err)
	}
	entries, _ := os.ReadDir(s.Dir)
	if len(entries) != 1 || entries[0].Name() != filepath.Base(st.File) {
		t.Errorf("store holds %v, want only %s (no temporary files)", entries, filepath.Base(st.File))
	}
	data, _ := os.ReadFile(st.File)
	if !strings.Contains(string(data), `"path": "`+st.Path+`"`) || !strings.Contains(string(data), `"schema": "git-adr/trust/v1"`) {
		t.Errorf("entry:\n%s", data)
	}
}

func TestBadEntries(t *testing.T) {
	p := repoFile(t, "x = 1\n")
	sum := Sum([]byte("x = 1\n"))
	c, _ := Canonical(p)
	valid := func(path, hash string) string {
		return `{"schema": "git-adr/trust/v1", "path": "` + path + `", "sha256": "` + hash + `", "trusted_at": "2026-01-15T10:00:00Z"}`
	}
	for _, tc := range []struct {
		name, content string
		mode          os.FileMode
		want          string
	}{
		{"not json", "{not json", 0o600, "is not a trust entry: invalid character"},
		{"empty", "", 0o600, "is not a trust entry: EOF"},
		{"unknown field", `{"schema": "git-adr/trust/v1", "path": "` + c + `", "sha256": "` + sum + `", "trusted_at": "2026-01-15T10:00:00Z", "all": true}`, 0o600, `unknown field "all"`},
		{"schema", strings.Replace(valid(c, sum), "trust/v1", "trust/v9", 1), 0o600, `has schema "git-adr/trust/v9"`},
		{"other path", valid("/elsewhere/.adr.toml", sum), 0o600, `names "/elsewhere/.adr.toml", not "` + c + `"`},
		{"bad hash", valid(c, "abc"), 0o600, `has sha256 "abc", which is not a SHA-256 hash`},
		{"group writable", valid(c, sum), 0o620, "is writable by other users (mode 0620)"},
		{"world writable", valid(c, sum), 0o606, "is writable by other users (mode 0606)"},
		{"too large", valid(c, sum) + strings.Repeat(" ", maxEntry), 0o600, "is larger than"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := newStore(t)
			if err := os.MkdirAll(s.Dir, 0o700); err != nil {
				t.Fatal(err)
			}
			f := s.entryFile(c)
			if err := os.WriteFile(f, []byte(tc.content), 0o600); err != nil {
				t.Fatal(err)
			}
			if err := os.Chmod(f, tc.mode); err != nil {
				t.Fatal(err)
			}
			st, err := s.Check(p, sum)
			var se *StoreError
			if !errors.As(err, &se) || se.File != f || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("Check = %+v, %v; want a StoreError for %s containing %q", st, err, f, tc.want)
			}
			if st.State == Trusted {
				t.Error("a bad entry trusted the file")
			}
			// Revoke clears it; trusting again works.
			if _, had, err := s.Revoke(p); err != nil || !had {
				t.Fatalf("revoke: %v %v", had, err)
			}
			if _, err := s.Trust(p, sum, now); err != nil {
				t.Fatal(err)
			}
			if st, err := s.Check(p, sum); err != nil || st.State != Trusted {
				t.Errorf("after re-trust: %+v, %v", st, err)
			}
		})
	}

	t.Run("symlink", func(t *testing.T) {
		s := newStore(t)
		os.MkdirAll(s.Dir, 0o700)
		target := filepath.Join(t.TempDir(), "planted.json")
		os.WriteFile(target, []byte(valid(c, sum)), 0o600)
		if err := os.Symlink(target, s.entryFile(c)); err != nil {
			t.Skip("no symlinks:", err)
		}
		_, err := s.Check(p, sum)
		var se *StoreError
		if !errors.As(err, &se) || !strings.Contains(err.Error(), "is not a regular file") {
			t.Fatalf("Check = %v; want a StoreError: not a regular file", err)
		}
	})
}

func TestTrustRefusesABadSum(t *testing.T) {
	s := newStore(t)
	if _, err := s.Trust(repoFile(t, ""), "not-a-hash", now); err == nil || !strings.Contains(err.Error(), `"not-a-hash" is not a SHA-256 hash`) {
		t.Fatalf("Trust = %v", err)
	}
	if _, err := os.Stat(s.Dir); err == nil {
		t.Error("a refused trust created the store")
	}
}

func TestDir(t *testing.T) {
	env := func(m map[string]string) func(string) string { return func(k string) string { return m[k] } }
	for _, tc := range []struct {
		env  map[string]string
		want string
	}{
		{map[string]string{"HOME": "/home/ada"}, "/home/ada/.local/state/git-adr/trust"},
		{map[string]string{"HOME": "/home/ada", "XDG_STATE_HOME": "/var/state"}, "/var/state/git-adr/trust"},
		// A relative XDG_STATE_HOME is ignored, as the specification says.
		{map[string]string{"HOME": "/home/ada", "XDG_STATE_HOME": "state"}, "/home/ada/.local/state/git-adr/trust"},
	} {
		got, err := Dir(env(tc.env))
		if err != nil || got != filepath.FromSlash(tc.want) {
			t.Errorf("Dir(%v) = %q, %v; want %q", tc.env, got, err, tc.want)
		}
	}
	if _, err := Dir(env(map[string]string{"HOME": "relative"})); err == nil {
		t.Error("Dir with a relative HOME and no XDG_STATE_HOME: no error")
	}
}
