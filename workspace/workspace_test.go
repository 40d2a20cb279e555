package workspace

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/git-adr/git-adr/adr"
	"github.com/git-adr/git-adr/internal/gittest"
)

// repo makes a repository at dir holding the given records under doc/adr.
func repo(t *testing.T, dir string, records map[string]string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Join(dir, "doc", "adr"), 0o755); err != nil {
		t.Fatal(err)
	}
	gittest.Git(t, dir, "init", "-q", "-b", "main")
	for name, text := range records {
		if err := os.WriteFile(filepath.Join(dir, "doc", "adr", name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	gittest.Git(t, dir, "add", "-A")
	gittest.Git(t, dir, "commit", "-qm", "records")
}

func hermetic(t *testing.T) { gittest.Hermetic(t) }

func record(n int, title, status string) string {
	return "# " + itoa(n) + ". " + title + "\n\nDate: 2024-01-01\n\n## Status\n\n" + status + "\n\n## Context\n\nc\n\n## Decision\n\nd\n\n## Consequences\n\nq\n"
}

func itoa(n int) string { return strings.TrimLeft(string(rune('0'+n/10))+string(rune('0'+n%10)), "0") }

func writeWS(t *testing.T, dir, text string) string {
	t.Helper()
	p := filepath.Join(dir, "adr-workspace.toml")
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// loadWS writes text as the workspace file in dir and loads it, mirrors
// in a folder of their own; it fails the test if the file is refused.
func loadWS(t *testing.T, dir, text string) *Workspace {
	t.Helper()
	ws, err := Load(writeWS(t, dir, text), t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	return ws
}

// Hostile or mistaken workspace files are refused before git runs, each
// naming the repository at fault.
func TestLoadRefuses(t *testing.T) {
	hermetic(t)
	dir := t.TempDir()
	os.Mkdir(filepath.Join(dir, "a"), 0o755)
	os.Symlink(t.TempDir(), filepath.Join(dir, "out"))
	for text, want := range map[string]string{
		"[[repo]]\nname = \"a:b\"\npath = \"a\"\n":                                     `repo "a:b": the name may hold only`,
		"[[repo]]\nname = \"a/b\"\npath = \"a\"\n":                                     `repo "a/b": the name may hold only`,
		"[[repo]]\nname = \"x\"\npath = \"../x\"\n":                                    `repo "x": path "../x" leaves the workspace folder`,
		"[[repo]]\nname = \"x\"\npath = \"out\"\n":                                     `repo "x": path "out" leads out of the workspace folder (through a link)`,
		"[[repo]]\nname = \"x\"\npath = \"/etc\"\n":                                    `repo "x": path "/etc" is absolute`,
		"[[repo]]\nname = \"x\"\nurl = \"--upload-pack=sh\"\n":                         `repo "x": url "--upload-pack=sh" starts with '-'`,
		"[[repo]]\nname = \"x\"\nurl = \"ext::sh -c id\"\n":                            `names the transport "ext"`,
		"[[repo]]\nname = \"x\"\nurl = \"fd::3\"\n":                                    `names the transport "fd"`,
		"[[repo]]\nname = \"x\"\nurl = \"hg://h/r\"\n":                                 `has the scheme "hg"`,
		"[[repo]]\nname = \"x\"\nurl = \"https://h/r\\u0007\"\n":                       `holds a control character`,
		"[[repo]]\nname = \"x\"\nurl = \"file:///r\"\nref = \"-x\"\n":                  `repo "x": ref "-x" is not a ref name`,
		"[[repo]]\nname = \"x\"\npath = \"a\"\n[[repo]]\nname = \"X\"\npath = \"a\"\n": `repo "X": named twice`,
		"[[repo]]\nname = \"x\"\npath = \"a\"\ncolour = 1\n":                           `unknown key "repo.colour"`,
		"": "names no repository",
	} {
		_, err := Load(writeWS(t, dir, text), t.TempDir())
		var we *Error
		if !errors.As(err, &we) || !strings.Contains(err.Error(), want) || we.Hint == "" {
			t.Errorf("%q: %v, want %q with a hint", text, err, want)
		}
	}
}

// A qualified ID resolves in its member only; an unqualified one that
// only one member holds resolves too; one several hold names them all.
func TestFindAcrossMembersAndMirror(t *testing.T) {
	hermetic(t)
	dir := t.TempDir()
	repo(t, filepath.Join(dir, "pay"), map[string]string{"0001-use-cards.md": record(1, "Use cards", "Accepted"), "0002-only-here.md": record(2, "Only here", "Proposed")})
	remote := t.TempDir()
	repo(t, remote, map[string]string{"0001-use-queues.md": record(1, "Use queues", "Accepted")})
	ws := loadWS(t, dir, "[[repo]]\nname = \"pay\"\npath = \"pay\"\n[[repo]]\nname = \"plat\"\nurl = \"file://"+remote+"\"\nref = \"main\"\n")
	if _, err := ws.Find("plat:1"); !errors.Is(err, ErrNotSynced) {
		t.Fatalf("before sync: %v, want ErrNotSynced", err)
	}
	syncAll(t, ws)
	f, err := ws.Find("plat:ADR-0001")
	if err != nil || f.Record.Title != "Use queues" {
		t.Fatalf("plat:ADR-0001 = %v, %v", f, err)
	}
	f.Close()
	if f, err = ws.Find("2"); err != nil || f.Member.Name != "pay" {
		t.Fatalf("2 = %v, %v", f, err)
	}
	f.Close()
	var amb *AmbiguousError
	if _, err := ws.Find("1"); !errors.As(err, &amb) || strings.Join(amb.Candidates, " ") != "pay:ADR-0001 plat:ADR-0001" {
		t.Fatalf("1 = %v", err)
	}
	var um *UnknownMemberError
	if _, err := ws.Find("nope:1"); !errors.As(err, &um) {
		t.Fatalf("nope:1 = %v", err)
	}
	if _, err := ws.Find("9"); !adr.IsNotFound(err) {
		t.Fatalf("9 = %v", err)
	}
	// Members are asked at once; the answer keeps the file's order.
	ans, err := ws.Context(ContextRequest{Task: "use queues"}, nil)
	if err != nil || len(ans.Members) != 2 || ans.Members[0].Name != "pay" || ans.Members[1].Name != "plat" || ans.Records != 3 {
		t.Fatalf("context: %+v, %v", ans, err)
	}
	if len(ans.Candidates) == 0 || ans.Candidates[0].ID != "plat:ADR-0001#decision" && !strings.HasPrefix(ans.Candidates[0].ID, "plat:ADR-0001") {
		t.Fatalf("context candidates: %+v", ans.Candidates)
	}
	// A second sync fetches nothing new: the ref stays where it was.
	for _, res := range ws.Sync("test", 0, nil) {
		if res.Err != nil || res.Member.Remote() && res.Before != res.After {
			t.Fatalf("second sync: %+v", res)
		}
	}
	bad, _ := Load(writeWS(t, dir, "[[repo]]\nname = \"plat\"\nurl = \"file://"+remote+"\"\nref = \"nope\"\n"), t.TempDir())
	if res := bad.Sync("test", 0, nil); !errors.Is(res[0].Err, ErrBadRef) {
		t.Fatalf("bad ref: %v", res[0].Err)
	}
}

// The URLs git fetches by itself are kept: its schemes, scp-like
// host:path and paths.
func TestBadURLKeepsGitsOwn(t *testing.T) {
	for _, u := range []string{"https://h/r.git", "HTTP://h/r", "ssh://git@h/r", "git+ssh://h/r", "git://h/r", "file:///srv/r.git",
		"git@github.com:o/r.git", "h:r", "/srv/r.git", "../r", "r.git", `C:\r`} {
		if msg := badURL(u); msg != "" {
			t.Errorf("badURL(%q) = %q, want none", u, msg)
		}
	}
}

// A URL is shown without its password, and an http(s) URL without its
// user; paths and scp-like URLs are shown as they are.
func TestRedactURL(t *testing.T) {
	for u, want := range map[string]string{
		"https://ghp_x@github.com/o/r.git": "https://***@github.com/o/r.git",
		"https://u:p@h/r":                  "https://***@h/r",
		"http://u:p@w@h:8080/r?x=@#@":      "http://***@h:8080/r?x=@#@",
		"ssh://git@h/r.git":                "ssh://git@h/r.git",
		"ssh://git:pw@h/r.git":             "ssh://***@h/r.git",
		"file://u:p@/srv/r.git":            "file://***@/srv/r.git",
		"https://h/r@x":                    "https://h/r@x",
		"git@github.com:o/r.git":           "git@github.com:o/r.git",
		"/srv/a@b.git":                     "/srv/a@b.git",
	} {
		if got := redactURL(u); got != want {
			t.Errorf("redactURL(%q) = %q, want %q", u, got, want)
		}
	}
}
