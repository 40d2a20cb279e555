package compaction

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/git-adr/git-adr/adr"
	"github.com/git-adr/git-adr/adr/view"
)

func testLog(t *testing.T) *adr.Log {
	t.Helper()
	rec := func(n int, title, status, decision string) *fstest.MapFile {
		return &fstest.MapFile{Data: []byte("# " + title + "\n\n## Status\n\n" + status + "\n\n## Context\n\nWhy " + title + ".\n\n## Decision\n\n" + decision + "\n")}
	}
	l, err := adr.Load(fstest.MapFS{
		"doc/adr/0001-use-postgresql.md": rec(1, "1. Use PostgreSQL", "Accepted", "Store orders in PostgreSQL."),
		"doc/adr/0002-use-redis.md":      rec(2, "2. Use Redis", "Accepted", "Cache reads in Redis."),
		"doc/adr/0003-log-json.md":       rec(3, "3. Log JSON", "Proposed", "Log JSON lines."),
	}, adr.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return l
}

func testPlan(t *testing.T, l *adr.Log) *Plan {
	t.Helper()
	a := &Analysis{Roots: []RootCount{{Path: "doc/adr", Count: 3}}}
	for _, r := range l.Records {
		a.Records = append(a.Records, RecordClass{ID: r.ID, Path: r.Path, Status: string(r.Status), Class: SummarizeClass})
	}
	p, err := NewPlan(l, a, PlanOptions{Mode: Summary, Base: "0123456789abcdef0123456789abcdef01234567"})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// coverAll answers a request by retaining every unit it is given.
func coverAll(req Request) *Candidate {
	c := &Candidate{Schema: CandidateSchema, Records: []NewRecord{}}
	var units []string
	if req.Batch != nil {
		for _, u := range req.Batch.Units {
			units = append(units, u.Unit)
		}
	}
	for _, p := range req.Partials {
		for _, cv := range p.Summary.Coverage {
			units = append(units, cv.Unit)
		}
	}
	for _, u := range units {
		c.Summary.Coverage = append(c.Summary.Coverage, view.UnitCoverage{Unit: u, State: Retained, Location: "Effective constraints"})
		if strings.HasSuffix(u, "#decision") {
			c.Summary.Constraints = append(c.Summary.Constraints, view.Statement{Topic: "General", Text: "Restates " + u, Sources: []string{u}})
		}
	}
	return c
}

func TestPlanIsDeterministic(t *testing.T) {
	l := testLog(t)
	a, b := testPlan(t, l), testPlan(t, l)
	if string(a.Encode()) != string(b.Encode()) {
		t.Error("the same scope over the same log gave two plans")
	}
	if !strings.HasPrefix(a.ID, "s-") || len(a.Sources) != 3 || a.Read.Batches != 1 || a.Read.CodePoints == 0 {
		t.Errorf("plan = %+v", a)
	}
}

func TestBatchesAreBounded(t *testing.T) {
	l := testLog(t)
	p := testPlan(t, l)
	bs := Batches(l, p, BatchLimits{MaxUnits: 2})
	total := 0
	for _, b := range bs {
		if len(b.Units) > 2 {
			t.Errorf("batch %d has %d units", b.Number, len(b.Units))
		}
		total += len(b.Units)
		if b.Of != len(bs) {
			t.Errorf("batch says of %d, there are %d", b.Of, len(bs))
		}
	}
	want := 0
	for _, s := range p.Sources {
		want += len(s.Units)
	}
	if total != want {
		t.Errorf("batches carry %d units, the plan has %d", total, want)
	}
}

func TestCommandDrafterAndValidate(t *testing.T) {
	l := testLog(t)
	p := testPlan(t, l)
	dir := t.TempDir()
	// A drafter program: the answer it gives is computed here and stored
	// in a file, so the real exec path runs.
	bs := Batches(l, p, BatchLimits{MaxUnits: 3})
	if len(bs) < 2 {
		t.Fatalf("want several batches, got %d", len(bs))
	}
	final := coverAll(Request{Partials: func() []Candidate {
		var ps []Candidate
		for i := range bs {
			ps = append(ps, *coverAll(Request{Batch: &bs[i]}))
		}
		return ps
	}()})
	script := filepath.Join(dir, "drafter.sh")
	answer := filepath.Join(dir, "answer.json")
	data, _ := json.Marshal(final)
	os.WriteFile(answer, data, 0o644)
	os.WriteFile(script, []byte("#!/bin/sh\ncat > "+dir+"/last-request.json\ncat "+answer+"\n"), 0o755)
	d := &CommandDrafter{Command: script, Timeout: time.Minute}
	c, partials, err := DraftAll(context.Background(), d, Brief{Schema: BriefSchema, Plan: p.ID}, bs, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(partials) != len(bs) {
		t.Errorf("%d partials for %d batches", len(partials), len(bs))
	}
	last, _ := os.ReadFile(filepath.Join(dir, "last-request.json"))
	if !strings.Contains(string(last), `"type":"reconcile"`) {
		t.Errorf("the last request was not the cross-batch pass: %.200s", last)
	}
	if issues := Validate(l, p, c); len(issues) != 0 {
		t.Errorf("valid candidate: %+v", issues)
	}
	// Drop a unit, duplicate one, cite a unit that does not exist.
	bad := *c
	bad.Summary.Coverage = append(append([]view.UnitCoverage{}, c.Summary.Coverage[1:]...), c.Summary.Coverage[1])
	bad.Summary.Constraints = append(append([]view.Statement{}, c.Summary.Constraints...), view.Statement{Text: "x", Sources: []string{"ADR-0099#decision"}})
	kinds := map[string]int{}
	for _, is := range Validate(l, p, &bad) {
		kinds[is.Kind]++
	}
	if kinds[IssueCoverage] != 2 || kinds[IssueCitation] != 1 {
		t.Errorf("issues by kind = %v, want 2 coverage (missing, twice) and 1 citation", kinds)
	}
	// A failing program is an error naming it, with its stderr.
	os.WriteFile(script, []byte("#!/bin/sh\necho model unavailable >&2\nexit 3\n"), 0o755)
	if _, err := d.Draft(context.Background(), Request{}); err == nil || !strings.Contains(err.Error(), "model unavailable") {
		t.Errorf("failing drafter: %v", err)
	}
}

func TestOpenAIDrafter(t *testing.T) {
	var got struct {
		Model    string `json:"model"`
		Messages []struct{ Role, Content string }
	}
	var auth string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/v1/chat/completions" {
			http.NotFound(w, r)
			return
		}
		auth = r.Header.Get("Authorization")
		body, _ := io.ReadAll(r.Body)
		json.Unmarshal(body, &got)
		var req Request
		json.Unmarshal([]byte(got.Messages[1].Content), &req)
		answer, _ := json.Marshal(coverAll(req))
		json.NewEncoder(w).Encode(map[string]any{"choices": []map[string]any{{"message": map[string]string{"content": "```json\n" + string(answer) + "\n```"}, "finish_reason": "stop"}}})
	}))
	defer srv.Close()
	l := testLog(t)
	p := testPlan(t, l)
	d := &OpenAIDrafter{BaseURL: srv.URL + "/v1", Model: "local-model", APIKey: "sekret"}
	c, _, err := DraftAll(context.Background(), d, Brief{Schema: BriefSchema, Instructions: Instructions}, Batches(l, p, BatchLimits{}), nil)
	if err != nil {
		t.Fatal(err)
	}
	if got.Model != "local-model" || auth != "Bearer sekret" || got.Messages[0].Role != "system" {
		t.Errorf("request model %q auth %q roles %+v", got.Model, auth, got.Messages)
	}
	if issues := Validate(l, p, c); len(issues) != 0 {
		t.Errorf("issues: %+v", issues)
	}
	// HTTP errors name the endpoint and status.
	bad := &OpenAIDrafter{BaseURL: srv.URL + "/nope", Model: "m"}
	if _, err := bad.Draft(context.Background(), Request{}); err == nil || !strings.Contains(err.Error(), "404") {
		t.Errorf("404: %v", err)
	}
}

func TestReviewSeparatesChanges(t *testing.T) {
	l := testLog(t)
	p := testPlan(t, l)
	c := coverAll(Request{Batch: &Batches(l, p, BatchLimits{})[0]})
	c.Summary.Coverage[0].State, c.Summary.Coverage[0].Reason = Retired, "superseded in practice"
	c.Summary.Coverage[1].State, c.Summary.Coverage[1].Reason = Unresolved, "contradicts ADR-0002"
	c.Summary.Conflicts = append(c.Summary.Conflicts, view.Statement{Topic: "Storage", Text: "Two databases are both in force.", Sources: []string{c.Summary.Coverage[1].Unit, c.Summary.Coverage[2].Unit}})
	rv := NewReview(p, c, nil, []string{"doc/adr/CURRENT.md"}, "")
	if len(rv.Substantive) != 1 || len(rv.Unresolved) != 2 || len(rv.Reorganisation) != len(c.Summary.Coverage)-2 {
		t.Errorf("review = %d substantive, %d unresolved, %d reorganisation", len(rv.Substantive), len(rv.Unresolved), len(rv.Reorganisation))
	}
	md := string(rv.Markdown())
	for _, want := range []string{"## Substantive changes", "retired: superseded in practice", "## Unresolved items", "## Pure reorganisation",
		"Two databases are both in force. (" + c.Summary.Coverage[1].Unit + ", " + c.Summary.Coverage[2].Unit + ")"} {
		if !strings.Contains(md, want) {
			t.Errorf("markdown lacks %q", want)
		}
	}
}
