package compaction

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/git-adr/git-adr/adr"
	"github.com/git-adr/git-adr/adr/view"
	"github.com/git-adr/git-adr/gitops"
)

// The manual drafter is a person or an agent working in a linked worktree
// of the plan's base under $GIT_DIR/adr/worktrees/<plan-id>. The brief and
// the evidence batches are in .adr-draft/ there, with draft.json to fill in
// (the candidate schema); replacement records may also be written as files
// at their reserved paths. `git adr compaction submit <plan-id>` reads them
// back. Nothing in .adr-draft/ is ever committed.

// DraftDir is the folder of the manual drafter's inputs and draft.
const DraftDir = ".adr-draft"

// ManualDir is a plan's manual drafting worktree.
func ManualDir(repo *gitops.Repo, id string) string {
	return filepath.Join(repo.AdrDir(), "worktrees", id)
}

// PrepareManual creates the worktree and writes the brief, batches and a
// draft.json whose coverage lists every unit to account for.
func PrepareManual(repo *gitops.Repo, p *Plan, brief Brief, batches []Batch) (string, error) {
	dir := ManualDir(repo, p.ID)
	if _, err := os.Stat(dir); err == nil {
		return "", fmt.Errorf("a drafting worktree for %s already exists at %s", p.ID, dir)
	}
	if err := os.MkdirAll(filepath.Dir(dir), 0o755); err != nil {
		return "", err
	}
	if err := repo.WorktreeAdd(dir, p.Base); err != nil {
		return "", err
	}
	// The worktree holds what the base commits, links included: every
	// file is written through its confinement, into a fresh .adr-draft.
	wt, err := gitops.OpenFS(dir)
	if err != nil {
		return "", err
	}
	defer wt.Close()
	if _, err := wt.Lstat(DraftDir); !errors.Is(err, fs.ErrNotExist) {
		repo.WorktreeRemove(dir, true)
		return "", fmt.Errorf("the plan's base commit has %s, where git-adr writes the brief; remove it from the branch", DraftDir)
	}
	skeleton := Candidate{Schema: CandidateSchema, Records: []NewRecord{}, Summary: view.Draft{
		Constraints: []view.Statement{}, Rationale: []view.Statement{}, Risks: []view.Statement{},
		Proposals: []view.Statement{}, Conflicts: []view.Statement{}, Coverage: []view.UnitCoverage{}}}
	for _, u := range brief.Units {
		skeleton.Summary.Coverage = append(skeleton.Summary.Coverage, view.UnitCoverage{Unit: u})
	}
	for _, r := range brief.Reserved {
		skeleton.Records = append(skeleton.Records, NewRecord{ID: r.ID, Supersedes: []string{}})
	}
	files := map[string][]byte{
		"brief.json": mustJSON(brief),
		"draft.json": mustJSON(skeleton),
		"README.md":  []byte(manualReadme(p, brief)),
	}
	for _, b := range batches {
		files[fmt.Sprintf("evidence/batch-%d.json", b.Number)] = mustJSON(b)
	}
	for name, data := range files {
		if err := wt.WriteFile(DraftDir+"/"+name, data, 0o644); err != nil {
			return "", err
		}
	}
	return dir, nil
}

func mustJSON(v any) []byte {
	data, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		panic(err)
	}
	return append(data, '\n')
}

func manualReadme(p *Plan, b Brief) string {
	var s strings.Builder
	fmt.Fprintf(&s, "# Drafting plan %s (revision %d, %s)\n\n", p.ID, p.Revision, p.Mode)
	s.WriteString("Fill in `draft.json` (schema git-adr/candidate/v1, described in docs/drafters.md) from the evidence in `evidence/`.\n")
	s.WriteString("Every unit listed under summary.coverage must get a state: retained (with a location), changed or retired (with a reason), or unresolved.\n")
	if p.Mode == Consolidate {
		s.WriteString("Write each replacement record at its reserved path (listed in brief.json) or inline in draft.json.\n")
	}
	fmt.Fprintf(&s, "\nThen run `git adr compaction submit %s`.\n\n## Instructions\n\n%s\n", p.ID, b.Instructions)
	return s.String()
}

// ReadManual reads draft.json and any replacement records written at their
// reserved paths, through the worktree's confinement: a link there that
// leads outside the worktree is refused, not read into a candidate.
func ReadManual(dir string, p *Plan) (*Candidate, error) {
	wt, err := gitops.OpenFS(dir)
	if err != nil {
		return nil, err
	}
	defer wt.Close()
	data, err := wt.ReadFile(DraftDir + "/draft.json")
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("%s has no %s/draft.json", dir, DraftDir)
	}
	if err != nil {
		return nil, err
	}
	c, err := decodeCandidate(data)
	if err != nil {
		return nil, fmt.Errorf("%s/draft.json: %w", DraftDir, err)
	}
	for _, res := range p.Reserved {
		content, err := wt.ReadFile(res.Path)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("reserved path %s: %w", res.Path, err)
		}
		found := false
		for i := range c.Records {
			if c.Records[i].ID == res.ID {
				c.Records[i].Content = string(content)
				if c.Records[i].Title == "" {
					c.Records[i].Title = adr.Parse(content).Title
				}
				found = true
			}
		}
		if !found {
			c.Records = append(c.Records, NewRecord{ID: res.ID, Title: adr.Parse(content).Title, Content: string(content), Supersedes: []string{}})
		}
	}
	// Empty skeleton entries are not proposals.
	var recs []NewRecord
	for _, r := range c.Records {
		if strings.TrimSpace(r.Content) != "" || strings.TrimSpace(r.Title) != "" {
			recs = append(recs, r)
		}
	}
	c.Records = recs
	return c, nil
}
