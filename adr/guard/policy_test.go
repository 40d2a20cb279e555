package guard

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/git-adr/git-adr/adr"
	"github.com/git-adr/git-adr/internal/confine"
)

// toolCase is a tool call other than a shell command (paths starting
// with TOP/ are absolute, as Claude Code sends them) and what the guard,
// in guard mode, decides.
type toolCase struct {
	name string
	r    Request
	want Verdict
	rule Rule
}

func TestToolRequests(t *testing.T) {
	f := newFixture(t, Guard)
	for _, c := range toolCases {
		c.r.Cwd = f.top
		for _, p := range []*string{&c.r.Path} {
			*p = strings.ReplaceAll(*p, "TOP/", f.top+"/")
		}
		d := f.policy.Judge(c.r)
		if d.Verdict != c.want || c.want == Deny && d.Findings[0].Rule != c.rule {
			t.Errorf("%s: got %s %v, want %s %s\n%s", c.name, d.Verdict, rules(d), c.want, c.rule, d.Reason)
		}
	}
}

func abs(p string) string { return "TOP/" + p }

var toolCases = []toolCase{
	{"Read archived (absolute, as Claude Code sends it)", Request{Op: OpRead, Path: abs(arch)}, Deny, RuleArchived},
	{"read archived (relative, as OpenCode sends it)", Request{Op: OpRead, Path: arch}, Deny, RuleArchived},
	{"Read through a link inside", Request{Op: OpRead, Path: abs("old-decisions/0002-use-postgresql.md")}, Deny, RuleArchived},
	{"Read live record", Request{Op: OpRead, Path: abs("doc/adr/0003-serve-mcp.md")}, Allow, ""},
	{"Read source", Request{Op: OpRead, Path: abs("src/main.go")}, Allow, ""},
	{"Read archive folder of source", Request{Op: OpRead, Path: abs("src/archive/old.go")}, Allow, ""},
	{"Read outside through a link", Request{Op: OpRead, Path: abs("elsewhere/x.md")}, Allow, ""},
	{"Read .git", Request{Op: OpRead, Path: abs(".git/config")}, Allow, ""},
	{"Grep the root", Request{Op: OpSearch, Path: abs("doc/adr"), Tool: "Grep"}, Deny, RuleUnscoped},
	{"Grep the repository", Request{Op: OpSearch, Tool: "Grep"}, Deny, RuleUnscoped},
	{"Grep with a glob for code", Request{Op: OpSearch, Glob: "*.go"}, Allow, ""},
	{"Grep with a type for code", Request{Op: OpSearch, Type: "go"}, Allow, ""},
	{"Grep with a markdown type", Request{Op: OpSearch, Type: "md"}, Deny, RuleUnscoped},
	{"Grep one record", Request{Op: OpSearch, Path: abs("doc/adr/0003-serve-mcp.md")}, Allow, ""},
	{"Grep the archive", Request{Op: OpSearch, Path: "doc/adr/archive"}, Deny, RuleArchived},
	{"grep include *.{ts,go}", Request{Op: OpSearch, Include: "*.{ts,go}"}, Allow, ""},
	{"grep include *.md", Request{Op: OpSearch, Include: "*.md"}, Deny, RuleUnscoped},
	{"Glob", Request{Op: OpList, Path: "doc/adr/**/*.md"}, Allow, ""},
	{"adr_context", Request{Op: OpEvidence, Tool: "mcp__git-adr__adr_context"}, Allow, ""},
	{"read_multiple_files of four records", Request{Op: OpRead, Paths: []string{"doc/adr/0001-record-architecture-decisions.md", "doc/adr/0003-serve-mcp.md", "doc/adr/0004-use-sqlite.md", "doc/adr/0005-log-as-json.md"}}, Deny, RuleUnscoped},
	{"Edit the guard mode", Request{Op: OpWrite, Path: abs(".adr.toml"), Old: `mode = "guard"`, New: `mode = "off"`}, Deny, RuleConfig},
	{"Edit the roots", Request{Op: OpWrite, Path: abs(".adr.toml"), Old: `style = "nygard"`, New: `style = "madr"`}, Allow, ""},
	{"Write .adr.toml without the guard", Request{Op: OpWrite, WholeFile: true, Path: ".adr.toml", Content: "[[roots]]\npath = \"doc/adr\"\n"}, Deny, RuleConfig},
	{"Write .adr.toml keeping the mode", Request{Op: OpWrite, WholeFile: true, Path: ".adr.toml", Content: "[[roots]]\npath = \"doc/adr\"\nstyle = \"madr\"\n[guard]\nmode = \"guard\"\n"}, Allow, ""},
	{"Write .adr.toml broken", Request{Op: OpWrite, WholeFile: true, Path: ".adr.toml", Content: "[guard\n"}, Deny, RuleConfig},
	{"Write the plugin", Request{Op: OpWrite, WholeFile: true, Path: ".opencode/plugin/git-adr-guard.js", Content: ""}, Deny, RuleConfig},
	{"Write a source file", Request{Op: OpWrite, WholeFile: true, Path: "src/new.go", Content: "package main\n"}, Allow, ""},
}

func rules(d Decision) []Rule {
	var out []Rule
	for _, f := range d.Findings {
		out = append(out, f.Rule)
	}
	return out
}

// An installed hook cannot be removed through the editing tools.
func TestHookFileEdits(t *testing.T) {
	f := newFixture(t, Guard)
	settings := `{"hooks":{"PreToolUse":[{"matcher":"*","hooks":[{"type":"command","command":"git adr guard --hook claude || exit 2"}]}]}}`
	os.MkdirAll(filepath.Join(f.top, ".claude"), 0o755)
	os.WriteFile(filepath.Join(f.top, ".claude/settings.json"), []byte(settings), 0o644)
	for _, c := range []struct {
		r    Request
		want Verdict
	}{
		{Request{Op: OpWrite, WholeFile: true, Path: ".claude/settings.json", Content: `{"permissions":{}}`}, Deny},
		{Request{Op: OpWrite, WholeFile: true, Path: ".claude/settings.json", Content: strings.Replace(settings, "{\"hooks\"", "{\"permissions\":{},\"hooks\"", 1)}, Allow},
		{Request{Op: OpWrite, Path: ".claude/settings.json", Old: "git adr guard --hook claude || exit 2", New: "true"}, Deny},
		{Request{Op: OpWrite, Path: ".claude/settings.json", Old: `{"hooks"`, New: `{"permissions":{},"hooks"`}, Allow},
	} {
		c.r.Cwd = f.top
		if d := f.policy.Judge(c.r); d.Verdict != c.want {
			t.Errorf("%+v: got %s, want %s: %s", c.r, d.Verdict, c.want, d.Reason)
		}
	}
}

func TestWarnModeDeduplicates(t *testing.T) {
	f := newFixture(t, Warn)
	f.policy = buildPolicy(t, f.top, Warn, t.TempDir())
	d := f.shell("cat " + arch)
	if d.Verdict != Warned || !strings.Contains(d.Reason, "warn mode") || !strings.Contains(d.Reason, "git adr context ADR-0002 --history") {
		t.Fatalf("first archived read in warn mode: %s %q", d.Verdict, d.Reason)
	}
	if d := f.shell("cat " + arch); d.Verdict != Allow || d.Reason != "" {
		t.Errorf("the same warning twice in a session: %s %q", d.Verdict, d.Reason)
	}
	if d := f.shell("grep -r x doc/adr"); d.Verdict != Warned {
		t.Errorf("another warning: %s", d.Verdict)
	}
	// Another session is told again.
	p := buildPolicy(t, f.top, Warn, filepath.Dir(filepath.Dir(f.policy.Session.path)))
	s, _ := OpenSession(filepath.Dir(filepath.Dir(f.policy.Session.path)), "test", "session-2")
	p.Session = s
	if d := p.Judge(Request{Cwd: f.top, Op: OpShell, Command: "cat " + arch}); d.Verdict != Warned {
		t.Errorf("a new session: %s", d.Verdict)
	}
	// Without a session every call is warned.
	f2 := newFixture(t, Warn)
	for range 2 {
		if d := f2.shell("cat " + arch); d.Verdict != Warned {
			t.Errorf("no session: %s", d.Verdict)
		}
	}
}

func TestRepeatReads(t *testing.T) {
	f := newFixture(t, Guard)
	f.policy = buildPolicy(t, f.top, Guard, t.TempDir())
	rec := filepath.Join(f.top, "doc/adr/0003-serve-mcp.md")
	read := func() Decision { return f.policy.Judge(Request{Cwd: f.top, Op: OpRead, Path: rec}) }
	if d := read(); d.Verdict != Allow || len(d.Notes) != 0 {
		t.Fatalf("first read: %s %v", d.Verdict, d.Notes)
	}
	d := read()
	if d.Verdict != Allow || len(d.Notes) != 1 || !strings.Contains(d.Notes[0], "doc/adr/0003-serve-mcp.md (ADR-0003) was already read once in this session and has not changed") {
		t.Fatalf("second read: %s %v", d.Verdict, d.Notes)
	}
	if d := f.shell("head -5 doc/adr/0003-serve-mcp.md"); len(d.Notes) != 1 || !strings.Contains(d.Notes[0], "2 times") {
		t.Errorf("third read through the shell: %v", d.Notes)
	}
	os.WriteFile(rec, []byte(record("3", "Serve MCP", "Accepted", "\nchanged\n")), 0o644)
	os.Chtimes(rec, time.Now().Add(time.Minute), time.Now().Add(time.Minute))
	if d := read(); len(d.Notes) != 0 {
		t.Errorf("a read after a change: %v", d.Notes)
	}
	// Searches are not reads; source files are not tracked.
	if d := f.shell("grep -n x doc/adr/0001-record-architecture-decisions.md; grep -n x doc/adr/0001-record-architecture-decisions.md"); len(d.Notes) != 0 {
		t.Errorf("searches: %v", d.Notes)
	}
	for range 2 {
		if d := f.policy.Judge(Request{Cwd: f.top, Op: OpRead, Path: "src/main.go"}); len(d.Notes) != 0 {
			t.Errorf("source file: %v", d.Notes)
		}
	}
}

// A session file holds whole lines: one cut short by a crash is skipped.
func TestSessionSurvivesATornLine(t *testing.T) {
	dir := t.TempDir()
	s, err := OpenSession(dir, "claude", "abc")
	if err != nil {
		t.Fatal(err)
	}
	if fresh, _ := s.warn("k"); !fresh {
		t.Fatal("first warning not fresh")
	}
	f, _ := os.OpenFile(s.path, os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString(`{"warned":"tor`)
	f.Close()
	s2, err := OpenSession(dir, "claude", "abc")
	if err != nil {
		t.Fatal(err)
	}
	if fresh, _ := s2.warn("k"); fresh {
		t.Error("warning forgotten after a torn line")
	}
	if s, _ := OpenSession(dir, "claude", ""); s != nil {
		t.Error("an empty session ID is a session")
	}
}

func TestDegraded(t *testing.T) {
	top := t.TempDir()
	cfgErr := &adr.ConfigError{Path: ".adr.toml", Line: 2, Msg: "unknown key \"rootz\""}
	for _, mode := range []Mode{Guard, Warn} {
		p := &Policy{Setting: Setting{Mode: mode}, Err: cfgErr, Top: top}
		d := p.Judge(Request{Cwd: top, Op: OpRead, Path: "anything.md"})
		want := map[Mode]Verdict{Guard: Deny, Warn: Warned}[mode]
		if d.Verdict != want || d.Findings[0].Rule != RuleDegraded || !strings.Contains(d.Reason, `.adr.toml:2: unknown key "rootz"`) {
			t.Errorf("%s: read when degraded: %s %q", mode, d.Verdict, d.Reason)
		}
		for _, r := range []Request{{Op: OpList, Path: "."}, {Op: OpEvidence}, {Op: OpShell, Command: "ls doc/adr"}} {
			if d := p.Judge(r); d.Verdict != Allow {
				t.Errorf("%s: %+v when degraded: %s", mode, r, d.Verdict)
			}
		}
		if d := p.Judge(Request{Cwd: top, Op: OpShell, Command: "git adr decide 1 accept"}); d.Verdict != want || d.Findings[0].Rule != RulePerson {
			t.Errorf("%s: decide when degraded: %s %v", mode, d.Verdict, rules(d))
		}
	}
	// A mode that cannot be read judges as guard mode.
	p := &Policy{Err: &ModeError{Where: ".adr.toml", Err: errors.New("line 1: expected '='")}, Top: top}
	if d := p.Judge(Request{Cwd: top, Op: OpShell, Command: "cat x"}); d.Verdict != Deny || d.Mode != Guard {
		t.Errorf("unknown mode: %s %s", d.Verdict, d.Mode)
	}
	// Off judges nothing.
	p = &Policy{Setting: Setting{Mode: Off}, Top: top}
	if d := p.Judge(Request{Cwd: top, Op: OpShell, Command: "git adr decide 1 accept"}); d.Verdict != Allow {
		t.Errorf("off: %s", d.Verdict)
	}
}

func TestResolveMode(t *testing.T) {
	for _, c := range []struct {
		git     string
		file    Mode
		fileErr error
		want    Mode
		source  Source
		err     bool
	}{
		{"", "", nil, Off, FromDefault, false},
		{"", Warn, nil, Warn, FromFile, false},
		{"guard", Off, nil, Guard, FromGitConfig, false},
		{"off", Guard, nil, Off, FromGitConfig, false}, // the person's own choice
		{"GUARD", "", nil, Guard, FromGitConfig, false},
		{"strict", "", nil, "", "", true},
		{"", "", errors.New("bad"), "", "", true},
		{"warn", "", errors.New("bad"), Warn, FromGitConfig, false},
	} {
		s, err := Resolve(c.git, "local", c.file, c.fileErr)
		if (err != nil) != c.err || s.Mode != c.want || s.Source != c.source {
			t.Errorf("Resolve(%q, %q, %v) = %+v, %v", c.git, c.file, c.fileErr, s, err)
		}
	}
	for _, c := range []struct {
		toml string
		want Mode
		err  bool
	}{
		{"", "", false},
		{"[guard]\nmode = \"warn\"\n", Warn, false},
		{"[guard]\nmode = \"Warn\"\n", "", true},
		{"[guard]\nmode = \"strict\"\n", "", true},
		{"unknown = 1\n[guard]\nmode = \"guard\"\n", Guard, false}, // a mistake elsewhere does not hide the mode
		{"[guard\nmode = \"guard\"\n", "", true},
	} {
		m, err := FileMode([]byte(c.toml))
		if (err != nil) != c.err || m != c.want {
			t.Errorf("FileMode(%q) = %q, %v", c.toml, m, err)
		}
	}
}

// A path outside the repository that is a link into it is judged as
// what it leads to.
func TestLinkFromOutside(t *testing.T) {
	f := newFixture(t, Guard)
	link := filepath.Join(t.TempDir(), "decisions")
	if err := os.Symlink(filepath.Join(f.top, "doc/adr"), link); err != nil {
		t.Fatal(err)
	}
	if d := f.shell("cat " + link + "/archive/0002-use-postgresql.md"); d.Verdict != Deny {
		t.Errorf("link from outside: %s", d.Verdict)
	}
	if d := f.shell("grep -r x " + link); d.Verdict != Deny {
		t.Errorf("search through a link from outside: %s", d.Verdict)
	}
}

// foldFS is the fixture's work tree as a case-insensitive file system
// (macOS, Windows) sees it: a name matches an entry whatever its case.
// No case-insensitive file system can be mounted in the test
// environment, so this layer stands in for one; it changes only name
// lookup, everything else is the real confined tree.
type foldFS struct{ *confine.ConfinedFS }

func (f foldFS) real(name string) string {
	if name == "." {
		return name
	}
	cur := "."
	for _, el := range strings.Split(name, "/") {
		next := el
		if es, err := f.ConfinedFS.ReadDir(cur); err == nil {
			for _, e := range es {
				if strings.EqualFold(e.Name(), el) {
					next = e.Name()
					break
				}
			}
		}
		cur = filepath.ToSlash(filepath.Join(cur, next))
	}
	return cur
}

func (f foldFS) Lstat(name string) (fs.FileInfo, error) { return f.ConfinedFS.Lstat(f.real(name)) }
func (f foldFS) Stat(name string) (fs.FileInfo, error)  { return f.ConfinedFS.Stat(f.real(name)) }
func (f foldFS) Resolve(name string) (string, error) {
	// A case-insensitive file system resolves links under any case but
	// keeps the name as written otherwise.
	res, err := f.ConfinedFS.Resolve(f.real(name))
	if err == nil && strings.EqualFold(res, name) {
		return name, nil
	}
	return res, err
}

func TestCaseInsensitiveFileSystem(t *testing.T) {
	f := newFixture(t, Guard)
	cfs, err := confine.OpenFS(f.top)
	if err != nil {
		t.Fatal(err)
	}
	defer cfs.Close()
	log, err := adr.Load(cfs, adr.LoadOptions{Lazy: true})
	if err != nil {
		t.Fatal(err)
	}
	p := &Policy{Setting: Setting{Mode: Guard}, Scope: NewScope(log, foldFS{cfs}), Log: log, Top: f.top}
	for _, c := range []struct {
		cmd  string
		want Verdict
	}{
		{"cat DOC/ADR/archive/0002-use-postgresql.md", Deny},
		{"cat doc/Adr/ARCHIVE/0002-USE-POSTGRESQL.md", Deny},
		{"grep -r x Doc/Adr", Deny},
		{"cat SRC/archive/old.go", Allow},
		{"cat Doc/Adr/0003-serve-mcp.md", Allow},
	} {
		if d := p.Judge(Request{Cwd: f.top, Op: OpShell, Command: c.cmd}); d.Verdict != c.want {
			t.Errorf("%s: got %s, want %s: %s", c.cmd, d.Verdict, c.want, d.Reason)
		}
	}
}
