package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/git-adr/git-adr/adr"
)

// TestArchiveCorpora is the archival round trip on every shared corpus
// (each copied to a temporary repository; the corpora are never written):
// archive every record the analysis classes "archive", check that
// neither `git adr check` nor a scan of every Markdown link finds a link
// broken by the move, that `git log --follow` reaches each record's first
// commit, then restore and compare the tree with the original byte for
// byte (the tree object names are equal) and the work tree with it.
func TestArchiveCorpora(t *testing.T) {
	dir := corporaDir()
	if dir == "" {
		t.Skip("shared corpora not found (../shared/corpora or $GIT_ADR_CORPORA)")
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	env := procEnv(t)
	n := 0
	for _, e := range entries {
		if !e.IsDir() {
			continue
		}
		if _, err := os.Stat(filepath.Join(dir, e.Name(), "SOURCE.txt")); err != nil {
			continue
		}
		n++
		t.Run(e.Name(), func(t *testing.T) {
			t.Parallel()
			archiveRoundTrip(t, env, filepath.Join(dir, e.Name()))
		})
	}
	if n == 0 {
		t.Fatalf("no corpus (a folder with SOURCE.txt) in %s", dir)
	}
}

var planIDRe = regexp.MustCompile(`\ba-[0-9a-f]{10}\b`)

func archiveRoundTrip(t *testing.T, env []string, corpus string) {
	repo := t.TempDir()
	// -R, not -a: the corpora are read-only, their copies must not be.
	if out, err := exec.Command("cp", "-R", corpus+"/.", repo).CombinedOutput(); err != nil {
		t.Fatalf("cp: %v %s", err, out)
	}
	runGit(t, repo, env, "init", "-q")
	runGit(t, repo, env, "add", "-A")
	runGit(t, repo, env, "commit", "-qm", "corpus")
	tree := runGit(t, repo, env, "rev-parse", "HEAD^{tree}")
	first := strings.TrimSpace(runGit(t, repo, env, "rev-parse", "HEAD"))

	r := runAdr(t, repo, env, "compaction", "--json")
	if r.code != 0 {
		t.Fatalf("compaction: exit %d\n%s", r.code, r.stderr)
	}
	var an struct {
		Records []struct{ ID, Path, Class string }
	}
	if err := json.Unmarshal([]byte(r.stdout), &an); err != nil {
		t.Fatal(err)
	}
	var ids []string // by path: unambiguous in every corpus
	for _, rc := range an.Records {
		if rc.Class == "archive" {
			ids = append(ids, rc.Path)
		}
	}
	if len(ids) == 0 {
		// Nothing is eligible: asking to archive a record in force (or
		// undecided) is refused, and nothing is planned or moved.
		if len(an.Records) == 0 {
			t.Fatal("the analysis lists no record")
		}
		r := runAdr(t, repo, env, "archive", an.Records[0].Path)
		if r.code != ExitFailure || !strings.Contains(r.stderr, "is not wholly retired") {
			t.Errorf("archive %s (%s): exit %d\n%s", an.Records[0].Path, an.Records[0].Class, r.code, r.stderr)
		}
		if refs := runGit(t, repo, env, "for-each-ref", "refs/adr/archives/"); refs != "" {
			t.Errorf("a refused archival left a plan: %s", refs)
		}
		if got := runGit(t, repo, env, "rev-parse", "HEAD^{tree}"); got != tree {
			t.Error("a refused archival changed the tree")
		}
		return
	}
	brokenBefore := brokenLinks(t, repo, nil)
	checkBefore := checkBroken(t, repo, env)

	r = runAdr(t, repo, env, append([]string{"archive", "--ack-external-links", "--json"}, ids...)...)
	if r.code != ExitAwaiting {
		t.Fatalf("archive %q: exit %d\n%s%s", ids, r.code, r.stdout, r.stderr)
	}
	var plan struct {
		ID       string
		Revision int
		Records  []struct{ From, To string }
	}
	if err := json.Unmarshal([]byte(r.stdout), &plan); err != nil {
		t.Fatalf("plan JSON: %v\n%s", err, r.stdout)
	}
	if r := runAdr(t, repo, env, "archive", "--confirm", plan.ID+"@1"); r.code != 0 {
		t.Fatalf("archive --confirm: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	moves := map[string]string{}
	for _, m := range plan.Records {
		moves[m.From] = m.To
		if _, err := os.Stat(filepath.Join(repo, m.To)); err != nil {
			t.Errorf("%s was not moved to %s", m.From, m.To)
		}
		log := runGit(t, repo, env, "log", "--follow", "--format=%H", "--", m.To)
		if !strings.HasSuffix(strings.TrimSpace(log), first) {
			t.Errorf("git log --follow %s does not reach the first commit:\n%s", m.To, log)
		}
	}
	if st := runGit(t, repo, env, "status", "--porcelain"); st != "" {
		t.Errorf("work tree differs from HEAD after archival:\n%s", st)
	}
	if got := checkBroken(t, repo, env); !sameCounts(got, checkBefore) {
		t.Errorf("git adr check: broken references per file before %v, after %v", checkBefore, got)
	}
	if got := brokenLinks(t, repo, moves); !equalStrings(got, brokenBefore) {
		t.Errorf("links broken by the archival:\nbefore %q\nafter  %q", brokenBefore, got)
	}

	r = runAdr(t, repo, env, "archive", "restore", plan.ID, "--ack-external-links")
	if r.code != ExitAwaiting {
		t.Fatalf("archive restore: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if r := runAdr(t, repo, env, "archive", "restore", "--confirm", plan.ID+"@3"); r.code != 0 {
		t.Fatalf("archive restore --confirm: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if got := runGit(t, repo, env, "rev-parse", "HEAD^{tree}"); got != tree {
		t.Errorf("restored tree %s is not the original %s:\n%s", strings.TrimSpace(got), strings.TrimSpace(tree), runGit(t, repo, env, "diff", "--stat", first, "HEAD"))
	}
	if st := runGit(t, repo, env, "status", "--porcelain"); st != "" {
		t.Errorf("work tree differs from HEAD after restore:\n%s", st)
	}
}

// checkBroken counts `git adr check`'s broken references per record ID.
func checkBroken(t *testing.T, repo string, env []string) map[string]int {
	t.Helper()
	r := runAdr(t, repo, env, "check", "--json")
	var rep struct {
		Findings []struct {
			Kind string
			IDs  []string
			Line int
		}
	}
	if err := json.Unmarshal([]byte(r.stdout), &rep); err != nil {
		t.Fatalf("check --json: %v\n%s", err, r.stdout)
	}
	out := map[string]int{}
	for _, f := range rep.Findings {
		if f.Kind == string(adr.KindBrokenReference) {
			out[f.IDs[0]]++
		}
	}
	return out
}

func sameCounts(a, b map[string]int) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}

// brokenLinks lists the relative links of every tracked Markdown file
// that reach no file, as "file (named as before the moves): the
// repository path they reach", so the lists before and after an archival
// compare: a moved file's broken link must still reach the same path.
func brokenLinks(t *testing.T, repo string, moves map[string]string) []string {
	t.Helper()
	back := map[string]string{}
	for from, to := range moves {
		back[to] = from
	}
	out, err := exec.Command("git", "-C", repo, "ls-files", "-z").Output()
	if err != nil {
		t.Fatal(err)
	}
	var broken []string
	for _, p := range strings.Split(string(out), "\x00") {
		if ext := strings.ToLower(path.Ext(p)); ext != ".md" && ext != ".markdown" {
			continue
		}
		data, err := os.ReadFile(filepath.Join(repo, p))
		if err != nil {
			t.Fatal(err)
		}
		name := p
		if b, ok := back[p]; ok {
			name = b
		}
		for _, l := range adr.NewText(data).Links() {
			dest := l.Dest
			if i := strings.IndexAny(dest, "#?"); i >= 0 {
				dest = dest[:i]
			}
			if dest == "" || strings.Contains(dest, ":") || strings.HasPrefix(dest, "/") {
				continue
			}
			target := path.Join(path.Dir(p), dest)
			if strings.HasPrefix(target, "../") {
				continue
			}
			if _, err := os.Stat(filepath.Join(repo, target)); err != nil {
				broken = append(broken, name+": "+target)
			}
		}
	}
	sort.Strings(broken)
	return broken
}

func equalStrings(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
