package workflow

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/git-adr/git-adr/adr"
	"github.com/git-adr/git-adr/adr/compaction"
	"github.com/git-adr/git-adr/internal/gittest"
)

func TestSaveDrafts(t *testing.T) {
	repo := gittest.Repo(t)
	l, a := committedLog(t, repo, records)
	p, c, err := Start(repo, l, a, compaction.PlanOptions{Mode: compaction.Consolidate})
	if err != nil {
		t.Fatal(err)
	}
	p, c, err = Reserve(repo, l, a, p, c, nil, "2024-02-01")
	if err != nil {
		t.Fatal(err)
	}
	var we *Error
	if _, _, err := SaveDrafts(repo, l, p); !errors.As(err, &we) || we.Msg != "plan "+p.ID+" has no candidate to save" {
		t.Errorf("SaveDrafts before drafting: %v", err)
	}
	res := p.Reserved[0]
	draft := "# 4. Consolidated storage\n\nDate: 2024-02-01\n\n## Status\n\nProposed\n\n## Context\n\nc\n\n## Decision\n\nWe use Postgres 16 with pooled connections.\n\n## Consequences\n\nSome.\n"
	cand, _ := json.Marshal(compaction.Candidate{Schema: compaction.CandidateSchema, Records: []compaction.NewRecord{{ID: res.ID, Title: "Consolidated storage", Content: draft}}})
	if _, err := (&compaction.Store{Repo: repo}).Save(p, map[string][]byte{"candidate.json": cand}, c); err != nil {
		t.Fatal(err)
	}

	changes, saved, err := SaveDrafts(repo, l, p)
	if err != nil {
		t.Fatal(err)
	}
	if len(changes) != 1 || changes[0].Path != res.Path || string(changes[0].New) != draft || !slices.Equal(saved, []string{res.Path}) {
		t.Fatalf("SaveDrafts = %+v, %v; want the draft at %s", changes, saved, res.Path)
	}
	reload := func(content string) *adr.Log {
		t.Helper()
		if err := os.WriteFile(filepath.Join(repo.Top, res.Path), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		l, err := adr.Load(repo.WorktreeFS(), adr.LoadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		return l
	}
	// Saved already: nothing to write, the path still counts as saved.
	if changes, saved, err := SaveDrafts(repo, reload(draft), p); err != nil || len(changes) != 0 || !slices.Equal(saved, []string{res.Path}) {
		t.Errorf("SaveDrafts once saved = %+v, %v, %v", changes, saved, err)
	}
	// Someone else's file at the reserved path is never overwritten.
	var ce *DraftConflictError
	if _, _, err := SaveDrafts(repo, reload(draft+"\nedited by hand\n"), p); !errors.As(err, &ce) || ce.Path != res.Path || ce.ID != res.ID {
		t.Errorf("SaveDrafts over another file: %v", err)
	}
}
