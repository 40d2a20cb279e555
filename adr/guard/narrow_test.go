package guard

import (
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// TestNarrow: a search refused only because it reaches the log gets the
// same search without the roots, which the guard allows; anything else
// that is refused gets none.
func TestNarrow(t *testing.T) {
	f := newFixture(t, Guard)
	for _, c := range []struct {
		dir, cmd, want string // want "": not narrowed
	}{
		{"", "rg TODO", "rg TODO -g '!/doc/adr'"},
		{"", "rg -n -i 'to do'", "rg -n -i 'to do' -g '!/doc/adr'"},
		{"", "rg -e TODO", "rg -e TODO -g '!/doc/adr'"},
		{"", "git grep TODO", "git grep TODO -- . ':!doc/adr'"},
		{"", "git grep -n -e TODO --and -e later", "git grep -n -e TODO --and -e later -- . ':!doc/adr'"},
		{"doc", "rg TODO", "rg TODO -g '!/adr'"},
		{"doc", "git grep TODO", "git grep TODO -- . ':!adr'"},
		{"", "rg TODO doc", ""},          // a path named: not a search of the whole tree
		{"", "rg TODO | head", ""},       // a pipeline
		{"", "rg TODO > out.txt", ""},    // a redirection
		{"", "rg $P", ""},                // an expansion
		{"", "rg --pre cat TODO", ""},    // runs a program on every file
		{"", "rg TODO; cat x", ""},       // a second command
		{"", "grep -rn TODO", ""},        // grep excludes folders by name only
		{"", "git grep TODO v1", ""},     // a revision
		{"", "git grep TODO -- doc", ""}, // pathspecs given
		{"", "cat " + arch, ""},          // not a search
		{"", "rg TODO " + arch, ""},      // archived read
		{"", "git adr decide 6 accept", ""},
	} {
		d := f.shellIn(c.dir, c.cmd)
		got := ""
		if d.Narrowed != nil {
			got = d.Narrowed.Command
		}
		if got != c.want {
			t.Errorf("in %q: %s\n  narrowed to %q, want %q (%s)", c.dir, c.cmd, got, c.want, d.Verdict)
			continue
		}
		if c.want != "" {
			if d.Verdict != Deny || !strings.Contains(d.Reason, "To search everything else, run `"+c.want+"`.") {
				t.Errorf("%s: the refusal does not name the narrowed command: %s", c.cmd, d.Reason)
			}
			if n := f.shellIn(c.dir, c.want); n.Verdict != Allow {
				t.Errorf("the narrowed %s is %s: %s", c.want, n.Verdict, n.Reason)
			}
		}
	}
	// Grep, adr_search: a glob.
	d := f.policy.Judge(Request{Op: OpSearch, Tool: "Grep", Cwd: f.top})
	if d.Narrowed == nil || d.Narrowed.Glob != "!/doc/adr" {
		t.Errorf("Grep of the repository narrowed to %+v", d.Narrowed)
	}
	if d := f.policy.Judge(Request{Op: OpSearch, Tool: "Grep", Cwd: f.top, Glob: "*.md"}); d.Narrowed != nil {
		t.Errorf("a Grep with its own glob was narrowed: %+v", d.Narrowed)
	}
	// Warn mode lets the search run: nothing to narrow.
	w := newFixture(t, Warn)
	if d := w.shell("rg TODO"); d.Narrowed != nil || d.Verdict != Warned {
		t.Errorf("warn mode: %s %+v", d.Verdict, d.Narrowed)
	}
}

// TestNarrowedSearchesRun runs the narrowed commands with the real rg and
// git in the fixture: they find the code and nothing of the log.
func TestNarrowedSearchesRun(t *testing.T) {
	f := newFixture(t, Guard)
	for _, c := range []struct{ tool, cmd string }{{"rg", "rg -l -e package -e decide"}, {"git", "git grep -l -e package -e Decision"}} {
		if _, err := exec.LookPath(c.tool); err != nil {
			t.Logf("%s is not installed: %s not run", c.tool, c.cmd)
			continue
		}
		d := f.shell(c.cmd)
		if d.Narrowed == nil {
			t.Fatalf("%s was not narrowed: %s", c.cmd, d.Reason)
		}
		for _, cmd := range []string{c.cmd, d.Narrowed.Command} {
			run := exec.Command("bash", "-c", cmd)
			run.Dir = f.top
			out, _ := run.Output()
			files := strings.Fields(string(out))
			sort.Strings(files)
			log := false
			for _, x := range files {
				log = log || strings.HasPrefix(filepath.ToSlash(x), "doc/adr/")
			}
			if cmd == c.cmd && !log {
				t.Errorf("%s found nothing of the log (%v): the test proves nothing", cmd, files)
			}
			if cmd != c.cmd && (log || len(files) == 0) {
				t.Errorf("%s found %v", cmd, files)
			}
		}
	}
}
