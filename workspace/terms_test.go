package workspace

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/git-adr/git-adr/internal/gittest"
	"github.com/git-adr/git-adr/retrieve"
)

func decision(n int, title, decision string) string {
	return "# " + itoa(n) + ". " + title + "\n\nDate: 2024-01-01\n\n## Status\n\nAccepted\n\n## Context\n\nc\n\n## Decision\n\n" + decision + "\n"
}

// termsWorkspace makes remote repositories (mirrored by the workspace)
// with the given records, and one local repository.
func termsWorkspace(t *testing.T, remotes map[string]map[string]string, order []string) (*Workspace, map[string]string) {
	t.Helper()
	hermetic(t)
	dir := t.TempDir()
	repo(t, filepath.Join(dir, "local"), map[string]string{"0001-use-go.md": decision(1, "Use Go", "Services are written in Go.")})
	text := "[[repo]]\nname = \"local\"\npath = \"local\"\n"
	paths := map[string]string{}
	for _, name := range order {
		p := t.TempDir()
		repo(t, p, remotes[name])
		paths[name] = p
		text += "[[repo]]\nname = \"" + name + "\"\nurl = \"file://" + p + "\"\nref = \"main\"\n"
	}
	ws := syncedWorkspace(t, dir, text)
	return ws, paths
}

// syncedWorkspace loads the workspace file text written in dir and syncs
// it, failing the test on any member's error.
func syncedWorkspace(t *testing.T, dir, text string) *Workspace {
	t.Helper()
	ws := loadWS(t, dir, text)
	syncAll(t, ws)
	return ws
}

// syncAll syncs ws, failing the test on any member's error.
func syncAll(t *testing.T, ws *Workspace) {
	t.Helper()
	for _, res := range ws.Sync("test", 0, nil) {
		if res.Err != nil {
			t.Fatal(res.Err)
		}
	}
}

func query(task string) []retrieve.QueryTerm {
	lang := retrieve.DetectLanguage(task)
	return retrieve.WithAlternateStems(task, lang, retrieve.QueryWith(task, lang, retrieve.QueryOptions{}))
}

// Sync makes each mirror's summary, stamped with its tip; a query reads
// it as it is (a cache hit does not open the log); a summary whose stamp
// is not the tip is made again, lazily, by the next question.
func TestTermsKeptBySyncAndRebuiltWhenStale(t *testing.T) {
	ws, paths := termsWorkspace(t, map[string]map[string]string{
		"queues": {"0001-use-queues.md": decision(1, "Use queues", "Failed payments are retried from a RabbitMQ queue.")},
		"logs":   {"0001-use-logs.md": decision(1, "Use structured logs", "Services log JSON lines.")},
	}, []string{"queues", "logs"})
	queues, logs := ws.Member("queues"), ws.Member("logs")
	q := query("retry failed payments")
	var buf []byte
	for _, m := range []*Member{queues, logs} {
		data, err := os.ReadFile(m.summary().path)
		if err != nil {
			t.Fatalf("%s: no summary after sync: %v", m.Name, err)
		}
		if want := termsFormat + "\ncommit " + m.summary().commit + "\nrecords 1 1\n"; !strings.HasPrefix(string(data), want) {
			t.Fatalf("%s: summary starts %q, want %q", m.Name, data[:min(len(data), 80)], want)
		}
	}
	ms, ok := scoreTerms(queues.summary(), q, &buf)
	if !ok || ms.tier != 2 || ms.share != 1 || ms.score <= 0 || ms.records != 1 {
		t.Fatalf("queues: %+v %v, want the task's 3 words", ms, ok)
	}
	if ms, ok := scoreTerms(logs.summary(), q, &buf); !ok || ms.tier != 0 || ms.score != 0 {
		t.Fatalf("logs: %+v %v, want none of the task's words", ms, ok)
	}
	if _, ok := scoreTerms(summaryAt{strings.Repeat("0", 40), logs.summary().path}, q, &buf); ok {
		t.Fatal("a summary of another commit was used")
	}

	// A cache hit: the summary is read as stored.
	p := logs.summary().path
	stored := termsFormat + "\ncommit " + logs.summary().commit + "\nrecords 7 1\nretri\t0:2.5\n"
	if err := os.WriteFile(p, []byte(stored), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := ws.keepTerms(logs); err != nil {
		t.Fatal(err)
	}
	if ms, ok := scoreTerms(logs.summary(), q, &buf); !ok || ms.records != 7 || ms.tier != 1 || ms.score != 2.5 {
		t.Fatalf("cached summary: %+v %v", ms, ok)
	}

	// The remote moves: sync makes the summary again.
	if err := os.WriteFile(filepath.Join(paths["logs"], "doc", "adr", "0002-retry-logs.md"), []byte(decision(2, "Retry log shipping", "Failed log shipments are retried.")), 0o644); err != nil {
		t.Fatal(err)
	}
	gittest.Git(t, paths["logs"], "rm", "-q", "doc/adr/0001-use-logs.md")
	gittest.Git(t, paths["logs"], "add", "-A")
	gittest.Git(t, paths["logs"], "commit", "-qm", "retries")
	syncAll(t, ws)
	if ms, ok := scoreTerms(logs.summary(), q, &buf); !ok || ms.records != 1 || ms.tier != 2 || ms.share < 0.6 {
		t.Fatalf("after the remote moved: %+v %v, want retry and failed", ms, ok)
	}

	// A stale summary (as a mirror fetched by an older git-adr leaves it)
	// is made again by the next question.
	os.WriteFile(p, []byte(strings.Replace(stored, logs.summary().commit, strings.Repeat("1", 40), 1)), 0o644)
	ask, _ := ws.selectMembers(ContextRequest{Task: "retry failed payments", MaxUnits: 1})
	if ask == nil {
		t.Fatal("no prefilter over 3 members at 1 unit")
	}
	if ms, ok := scoreTerms(logs.summary(), q, &buf); !ok || ms.records != 1 {
		t.Fatalf("stale summary not made again: %+v %v", ms, ok)
	}
}

// Past twice the unit budget, a task asks the members whose best record
// scores highest for its words (the work-tree member here matches none of
// them); the others
// answer "none" (none of its words) or "skipped", with their records
// counted, and the answer says how many were asked.
func TestSelectMembers(t *testing.T) {
	ws, _ := termsWorkspace(t, map[string]map[string]string{
		"queues": {"0001-use-queues.md": decision(1, "Retry failed payments from a queue", "Failed payments are retried from a RabbitMQ queue, with backoff.")},
		"cards":  {"0001-use-cards.md": decision(1, "Card payments", "Payments by card go through the gateway."), "0002-x.md": decision(2, "Other", "Nothing.")},
		"retry":  {"0001-retry.md": decision(1, "Retry", "Calls are retried.")},
		"logs":   {"0001-use-logs.md": decision(1, "Use structured logs", "Services log JSON lines.")},
	}, []string{"queues", "cards", "retry", "logs"})
	req := ContextRequest{Task: "retry failed payments", MaxUnits: 1}
	ask, pre := ws.selectMembers(req)
	var asked []string
	for _, i := range ask {
		asked = append(asked, ws.Members[i].Name)
	}
	if got := strings.Join(asked, " "); got != "queues cards" {
		t.Fatalf("asked %q, want the two best mirrors", got)
	}
	if pre[0] == nil || pre[0].Confidence != "none" {
		t.Fatalf("local (read from its work tree): %+v, want none", pre[0])
	}
	if pre[3] == nil || pre[3].Confidence != "skipped" || pre[3].Records != 1 {
		t.Fatalf("retry: %+v, want skipped", pre[3])
	}
	if pre[4] == nil || pre[4].Confidence != "none" || pre[4].Records != 1 {
		t.Fatalf("logs: %+v, want none", pre[4])
	}
	ans, err := ws.Context(req, nil)
	if err != nil {
		t.Fatal(err)
	}
	if ans.Prefilter == nil || ans.Prefilter.Asked != 2 || ans.Prefilter.Repositories != 5 || ans.Records != 6 {
		t.Fatalf("prefilter %+v, records %d", ans.Prefilter, ans.Records)
	}
	var confs []string
	for _, m := range ans.Members {
		confs = append(confs, m.Name+"="+m.Confidence)
	}
	if !slices.Contains(confs, "retry=skipped") || !slices.Contains(confs, "logs=none") || ans.Candidates[0].Repository != "queues" {
		t.Fatalf("members %v, first candidate %+v", confs, ans.Candidates[0])
	}
	// Within twice the budget, every member is asked.
	if ask, _ := ws.selectMembers(ContextRequest{Task: "retry failed payments", MaxUnits: 3}); ask != nil {
		t.Fatalf("5 members at 3 units: asked %v, want all", ask)
	}
}

// lookup finds a term's line in sorted lines, first, last and middle,
// and nothing for a term that is not there or only a prefix of one.
func TestLookup(t *testing.T) {
	body := []byte("alpha\t0:1\nbeta\t1:2,2:3\ngamma\t0:4\n")
	for term, want := range map[string]string{"alpha": "0:1", "beta": "1:2,2:3", "gamma": "0:4", "bet": "", "delta": "", "a": ""} {
		if got := string(lookup(body, term)); got != want {
			t.Errorf("lookup(%q) = %q, want %q", term, got, want)
		}
	}
}

// A local member read at a ref is summarised like a mirror: sync stamps
// its summary with the ref's commit beside its repository's parse cache,
// the prediction chooses whether it is asked, and a commit on the ref
// makes the next question remake the summary. A member read from its
// work tree is summarised too, stamped with what its log holds: an edit
// not committed makes the next question remake it.
func TestLocalMemberAtRefSummarised(t *testing.T) {
	hermetic(t)
	dir := t.TempDir()
	repo(t, filepath.Join(dir, "local"), map[string]string{"0001-use-go.md": decision(1, "Use Go", "Services are written in Go.")})
	text := "[[repo]]\nname = \"local\"\npath = \"local\"\n"
	for _, name := range []string{"queues", "cards", "logs"} {
		records := map[string]map[string]string{
			"queues": {"0001-use-queues.md": decision(1, "Retry failed payments from a queue", "Failed payments are retried from a RabbitMQ queue.")},
			"cards":  {"0001-use-cards.md": decision(1, "Card payments", "Payments by card go through the gateway.")},
			"logs":   {"0001-use-logs.md": decision(1, "Use structured logs", "Services log JSON lines.")},
		}[name]
		repo(t, filepath.Join(dir, name), records)
		text += "[[repo]]\nname = \"" + name + "\"\npath = \"" + name + "\"\nref = \"main\"\n"
	}
	ws := syncedWorkspace(t, dir, text)
	logs := ws.Member("logs")
	p := logs.summary().path
	if want := filepath.Join(dir, "logs", ".git", "adr", "cache"); filepath.Dir(p) != want {
		t.Fatalf("summary at %s, want it in %s", p, want)
	}
	data, err := os.ReadFile(p)
	if err != nil {
		t.Fatalf("sync made no summary for a local member at a ref: %v", err)
	}
	if want := termsFormat + "\ncommit " + logs.summary().commit + "\n"; logs.summary().commit == "" || !strings.HasPrefix(string(data), want) {
		t.Fatalf("summary starts %q, want %q", data[:min(len(data), 80)], want)
	}

	ask, pre := ws.selectMembers(ContextRequest{Task: "retry failed payments", MaxUnits: 1})
	var asked []string
	for _, i := range ask {
		asked = append(asked, ws.Members[i].Name)
	}
	if got := strings.Join(asked, " "); got != "queues cards" {
		t.Fatalf("asked %q, want the two best members at a ref", got)
	}
	if pre[3] == nil || pre[3].Confidence != "none" {
		t.Fatalf("logs: %+v, want none", pre[3])
	}

	// A commit on the ref: the stamp no longer matches, the next question
	// remakes the summary from the new commit.
	os.WriteFile(filepath.Join(dir, "logs", "doc", "adr", "0002-retry.md"), []byte(decision(2, "Retry failed payments", "Failed payments are retried twice.")), 0o644)
	gittest.Git(t, filepath.Join(dir, "logs"), "add", "-A")
	gittest.Git(t, filepath.Join(dir, "logs"), "commit", "-qm", "retry")
	ask, _ = ws.selectMembers(ContextRequest{Task: "retry failed payments", MaxUnits: 1})
	asked = asked[:0]
	for _, i := range ask {
		asked = append(asked, ws.Members[i].Name)
	}
	if !slices.Contains(asked, "logs") {
		t.Fatalf("after a commit on the ref, asked %v: the summary was not remade", asked)
	}
	if data, _ := os.ReadFile(p); !strings.Contains(string(data), "commit "+logs.summary().commit+"\n") {
		t.Fatalf("summary not restamped with %s", logs.summary().commit)
	}

	// The work-tree member: summarised, stamped with its log, not asked
	// while nothing of it matches; a record written and not committed
	// changes the stamp, and the next question asks it.
	local := ws.Member("local")
	at := local.summary()
	if !strings.HasPrefix(at.commit, "worktree-") || !at.current() {
		t.Fatalf("work-tree member: stamp %q, current %v", at.commit, at.current())
	}
	os.WriteFile(filepath.Join(dir, "local", "doc", "adr", "0002-retry.md"), []byte(decision(2, "Retry failed payments", "Failed payments are retried from the outbox.")), 0o644)
	if now := local.summary(); now.commit == at.commit || now.current() {
		t.Fatalf("an edit did not change the work tree's stamp (%s)", now.commit)
	}
	ask, pre = ws.selectMembers(ContextRequest{Task: "retry failed payments", MaxUnits: 1})
	if !slices.Contains(ask, 0) || pre[0] != nil {
		t.Fatalf("after an edit in the work tree, asked %v: the summary was not remade", ask)
	}
	if !local.summary().current() {
		t.Fatal("the question did not restamp the work tree's summary")
	}
}
