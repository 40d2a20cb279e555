package workspace

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/BurntSushi/toml"
)

func TestUniqueName(t *testing.T) {
	taken := map[string]bool{}
	var got []string
	for _, p := range []string{"/s/payments", "/s/org/Payments", "/s/team/org/payments", "/s/x/org/payments", "/s/a/b c", "/s/" + strings.Repeat("n", 80)} {
		n := uniqueName(taken, p)
		taken[strings.ToLower(n)] = true
		got = append(got, n)
	}
	want := []string{"payments", "org-Payments", "payments-2", "payments-3", "b-c", strings.Repeat("n", maxName)}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Fatalf("names %q, want %q", got, want)
	}
	for _, n := range got {
		if !nameRE.MatchString(n) || len(n) > maxName {
			t.Errorf("%q is not a member name", n)
		}
	}
}

func TestShareableURL(t *testing.T) {
	for in, want := range map[string][2]string{
		"https://bot:tok@example.com/org/a.git":  {"https://example.com/org/a.git", "credentials"},
		"https://tok@example.com/org/a.git":      {"https://example.com/org/a.git", "credentials"},
		"https://a@b:p@c@example.com:8443/x?y@z": {"https://example.com:8443/x?y@z", "credentials"},
		"ssh://git@example.com/org/a.git":        {"ssh://git@example.com/org/a.git", ""},
		"ssh://git:pw@example.com/org/a.git":     {"ssh://example.com/org/a.git", "credentials"},
		"git@example.com:org/a.git":              {"git@example.com:org/a.git", ""},
		"/srv/git/a.git":                         {"/srv/git/a.git", ""},
		"https://example.com/a@b":                {"https://example.com/a@b", ""},
	} {
		u, dropped := shareableURL(in)
		if u != want[0] || dropped != want[1] {
			t.Errorf("shareableURL(%q) = %q, %q; want %q, %q", in, u, dropped, want[0], want[1])
		}
	}
}

// FuzzRender: whatever paths and URLs a scan finds, the file Render
// writes decodes to the same strings.
func FuzzRender(f *testing.F) {
	f.Add("payments", "org/ops", "https://example.com/a.git")
	f.Add("a \"quoted\" \\ path", "tab\there", "line\nbreak")
	f.Add("ünï/cödé", "\x00\x7f", "'''")
	f.Fuzz(func(t *testing.T, p1, p2, u string) {
		if !utf8.ValidString(p1) || !utf8.ValidString(p2) || !utf8.ValidString(u) {
			t.Skip() // Scan leaves such a repository out (TestScanLeavesOutWhatTheFileCannotName)
		}
		found := []Scanned{{Name: suggestName(p1), Path: p1, URL: u}, {Name: suggestName(p2) + "-2", Path: p2, URL: u}}
		for _, urls := range []bool{false, true} {
			data := Render(found, urls)
			var back fileSchema
			if _, err := toml.Decode(string(data), &back); err != nil {
				t.Fatalf("Render wrote TOML that does not decode: %v\n%s", err, data)
			}
			if len(back.Repo) != 2 {
				t.Fatalf("decoded %d repos, want 2", len(back.Repo))
			}
			for i, r := range back.Repo {
				want := found[i]
				if r.Name != want.Name || urls && (r.URL != want.URL || r.Path != "") || !urls && (r.Path != want.Path || r.URL != "") {
					t.Fatalf("repo %d decoded as %+v, written from %+v (urls %v)", i, r, want, urls)
				}
			}
		}
	})
}

func TestScanLeavesOutWhatTheFileCannotName(t *testing.T) {
	top := t.TempDir()
	if _, err := Scan(filepath.Join(top, "a"), top, ScanOptions{Depth: 1}); err == nil {
		t.Fatal("a folder above the file's was scanned")
	}
	found, err := Scan(top, top, ScanOptions{Depth: 3})
	if err != nil || len(found) != 0 {
		t.Fatalf("an empty folder: %v, %v", found, err)
	}
	// A .git file naming a git directory outside the folder.
	os.MkdirAll(filepath.Join(top, "w"), 0o755)
	os.WriteFile(filepath.Join(top, "w", ".git"), []byte("gitdir: /nowhere\n"), 0o644)
	found, err = Scan(top, top, ScanOptions{Depth: 3})
	if err != nil || len(found) != 1 || found[0].Left == "" {
		t.Fatalf("a broken .git file: %+v, %v", found, err)
	}
	// A folder whose name is not UTF-8, which no TOML string holds.
	os.RemoveAll(filepath.Join(top, "w"))
	os.MkdirAll(filepath.Join(top, "caf\xe9", ".git"), 0o755)
	found, err = Scan(top, top, ScanOptions{Depth: 3})
	if err != nil || len(found) != 1 || !strings.Contains(found[0].Left, "not UTF-8") {
		t.Fatalf("a path that is not UTF-8: %+v, %v", found, err)
	}
	if data := Render(found, false); strings.Contains(string(data), "\n[[repo]]\n") {
		t.Fatalf("a repository left out was written:\n%s", data)
	}
}

func TestURLBaseAndLooksLikeURL(t *testing.T) {
	for in, want := range map[string]string{
		"https://example.com/org/payments.git": "payments",
		"https://example.com/org/payments/":    "payments",
		"git@example.com:org/ops.git":          "ops",
		"git@example.com:ops":                  "ops",
		"file:///srv/git/web.git":              "web",
		"https://example.com/":                 "example.com",
		"https://example.com/.git":             "repo",
	} {
		if got := urlBase(in); got != want {
			t.Errorf("urlBase(%q) = %q, want %q", in, got, want)
		}
	}
	for in, want := range map[string]bool{
		"https://example.com/x.git": true, "git@host:org/x": true, "host:x": true, "ext::sh": true,
		"../payments": false, "org/pay:ments": false, "payments": false, "/srv/git/x.git": false,
	} {
		if got := looksLikeURL(in); got != want {
			t.Errorf("looksLikeURL(%q) = %v, want %v", in, got, want)
		}
	}
}
