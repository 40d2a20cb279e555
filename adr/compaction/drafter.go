package compaction

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"strings"
	"time"

	"github.com/git-adr/git-adr/adr/view"
)

// Schemas of the drafter protocol (docs/drafters.md).
const (
	BriefSchema     = "git-adr/brief/v1"
	RequestSchema   = "git-adr/draft-request/v1"
	CandidateSchema = "git-adr/candidate/v1"
)

// Brief tells a drafter what to produce.
type Brief struct {
	Schema       string     `json:"schema"`
	Plan         string     `json:"plan"`
	Revision     int        `json:"revision"`
	Mode         Mode       `json:"mode"`
	Scope        Scope      `json:"scope"`
	Style        string     `json:"style,omitempty"`
	Instructions string     `json:"instructions"`
	Feedback     []string   `json:"feedback"`
	Units        []string   `json:"units"`
	Reserved     []Reserved `json:"reserved,omitempty"`
}

// BriefFor is what the drafter of a plan revision is told: the plan's
// scope, style and units, the numbers it reserved, the standing
// instructions (and those of a consolidation) and every feedback a person
// gave so far.
func BriefFor(p *Plan) Brief {
	b := Brief{Schema: BriefSchema, Plan: p.ID, Revision: p.Revision, Mode: p.Mode, Scope: p.Scope,
		Style: p.Style, Instructions: Instructions, Feedback: append([]string{}, p.Feedback...), Units: []string{}}
	for _, s := range p.Sources {
		for _, u := range s.Units {
			b.Units = append(b.Units, u.Locator)
		}
	}
	for _, r := range p.Reserved {
		b.Reserved = append(b.Reserved, Reserved{ID: r.ID, Path: r.Path})
	}
	if p.Mode == Consolidate {
		b.Instructions += "\n" + ConsolidateInstructions
	}
	return b
}

// Reserved is a number a consolidation may give a replacement record.
type Reserved struct {
	ID   string `json:"id"`
	Path string `json:"path"`
}

// Request is one call to a drafter: a batch to draft from, or the
// cross-batch pass that reconciles the partial drafts (shared constraints,
// conflicts between batches) into one candidate.
type Request struct {
	Schema   string      `json:"schema"`
	Type     string      `json:"type"` // "batch" or "reconcile"
	Brief    Brief       `json:"brief"`
	Batch    *Batch      `json:"batch,omitempty"`
	Partials []Candidate `json:"partials,omitempty"`
}

// Candidate is what a drafter returns: the summary draft (CURRENT.md is
// rendered from it) and, for consolidation, complete replacement records.
type Candidate struct {
	Schema  string      `json:"schema"`
	Summary view.Draft  `json:"summary"`
	Records []NewRecord `json:"records"`
	Notes   string      `json:"notes,omitempty"`
}

// NewRecord is a replacement ADR a consolidation proposes.
type NewRecord struct {
	// ID is one of the brief's reserved IDs.
	ID         string   `json:"id"`
	Title      string   `json:"title"`
	Content    string   `json:"content"`
	Supersedes []string `json:"supersedes"`
}

// Drafter drafts candidates from evidence.
type Drafter interface {
	Name() string
	Draft(ctx context.Context, req Request) (*Candidate, error)
}

// Instructions are the standing instructions every drafter receives.
const Instructions = `You draft a derived view of an architecture decision log for human review.
Use only the evidence given. Restate each decision in force precisely; never weaken, widen or invent a constraint.
Keep open proposals apart from constraints, and report contradictions and open questions as conflicts.
Every statement cites the unit locators it restates. Account for every unit listed in brief.units exactly once in summary.coverage:
retained (with the location in the view, e.g. "Effective constraints/Storage"), changed (with the reason), retired (with the reason, e.g. superseded by ADR-0009), or unresolved.
Answer with one JSON object of schema git-adr/candidate/v1: {"schema", "summary": {"constraints", "rationale", "risks", "proposals", "conflicts", "coverage"}, "records", "notes"}.
Statements are {"topic", "text", "sources"}; coverage entries are {"unit", "state", "location", "reason"}.`

// ConsolidateInstructions are added for a consolidation.
const ConsolidateInstructions = `This is a consolidation: besides the view, draft complete replacement ADRs in "records", one per reserved ID you use (brief.reserved), at its reserved path, in the brief's style.
Each replacement is a proposal (status Proposed): a person accepts it, you never do. It must support ordinary work on its own: Context, Decision (with the rationale), Consequences and Considered options (rejected alternatives included); historical detail stays in the records it supersedes.
List in "supersedes" the sources it replaces, and link each in the content. Preserve every constraint; a unit you change or retire needs a reason, and only a source a replacement supersedes may have changed or retired units. A unit you leave unresolved keeps its record from being superseded.
The summary is the CURRENT view after acceptance: cite the replacements' units (for example ADR-0042#decision) where they restate a source.`

// DraftAll sends every batch, then (when there is more than one) the
// cross-batch pass, and returns the final candidate with the partials.
func DraftAll(ctx context.Context, d Drafter, brief Brief, batches []Batch, progress func(string)) (*Candidate, []Candidate, error) {
	var partials []Candidate
	for i := range batches {
		if progress != nil {
			progress(fmt.Sprintf("drafting batch %d of %d with %s", i+1, len(batches), d.Name()))
		}
		c, err := d.Draft(ctx, Request{Schema: RequestSchema, Type: "batch", Brief: brief, Batch: &batches[i]})
		if err != nil {
			return nil, nil, fmt.Errorf("batch %d of %d: %w", i+1, len(batches), err)
		}
		partials = append(partials, *c)
	}
	if len(partials) == 1 {
		return &partials[0], partials, nil
	}
	if progress != nil {
		progress(fmt.Sprintf("reconciling %d batches with %s", len(partials), d.Name()))
	}
	c, err := d.Draft(ctx, Request{Schema: RequestSchema, Type: "reconcile", Brief: brief, Partials: partials})
	if err != nil {
		return nil, nil, fmt.Errorf("cross-batch pass: %w", err)
	}
	return c, partials, nil
}

// decodeCandidate reads a drafter's answer, tolerating a Markdown code
// fence around the JSON (models add them).
func decodeCandidate(data []byte) (*Candidate, error) {
	s := strings.TrimSpace(string(data))
	if strings.HasPrefix(s, "```") {
		if i := strings.IndexByte(s, '\n'); i >= 0 {
			s = s[i+1:]
		}
		s = strings.TrimSuffix(strings.TrimSpace(s), "```")
	}
	var c Candidate
	dec := json.NewDecoder(strings.NewReader(s))
	if err := dec.Decode(&c); err != nil {
		return nil, fmt.Errorf("the answer is not a candidate JSON object: %v (it starts %q)", err, clip(s, 80))
	}
	if c.Schema != CandidateSchema {
		return nil, fmt.Errorf("the answer has schema %q, want %q", c.Schema, CandidateSchema)
	}
	return &c, nil
}

func clip(s string, n int) string {
	rs := []rune(s)
	if len(rs) <= n {
		return s
	}
	return string(rs[:n]) + "…"
}

// drafterWaitDelay bounds how long a cancelled drafter's output pipes are
// waited for.
const drafterWaitDelay = 2 * time.Second

// CommandDrafter runs a program: the request as JSON on stdin, the
// candidate as JSON on stdout; stderr passes through.
type CommandDrafter struct {
	Command string
	Dir     string
	Env     []string
	Stderr  io.Writer
	Timeout time.Duration
}

// Name implements Drafter.
func (c *CommandDrafter) Name() string { return "command drafter `" + c.Command + "`" }

// Draft implements Drafter.
func (c *CommandDrafter) Draft(ctx context.Context, req Request) (*Candidate, error) {
	if c.Timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, c.Timeout)
		defer cancel()
	}
	in, err := json.Marshal(req)
	if err != nil {
		return nil, err
	}
	cmd := exec.CommandContext(ctx, "sh", "-c", c.Command)
	ownProcessGroup(cmd)
	cmd.WaitDelay = drafterWaitDelay
	cmd.Dir = c.Dir
	cmd.Env = append(os.Environ(), c.Env...)
	cmd.Stdin = bytes.NewReader(in)
	var out, errb bytes.Buffer
	cmd.Stdout = &out
	cmd.Stderr = &errb
	if c.Stderr != nil {
		cmd.Stderr = io.MultiWriter(&errb, c.Stderr)
	}
	if err := cmd.Run(); err != nil {
		if ctx.Err() != nil {
			return nil, fmt.Errorf("%s timed out after %s", c.Name(), c.Timeout)
		}
		return nil, fmt.Errorf("%s failed: %v: %s", c.Name(), err, clip(strings.TrimSpace(errb.String()), 300))
	}
	cand, err := decodeCandidate(out.Bytes())
	if err != nil {
		return nil, fmt.Errorf("%s: %w", c.Name(), err)
	}
	return cand, nil
}

// OpenAIDrafter calls any OpenAI-compatible chat-completions endpoint
// (OpenAI, Ollama, vLLM, llama.cpp's server).
type OpenAIDrafter struct {
	BaseURL string
	Model   string
	APIKey  string
	Client  *http.Client
	Timeout time.Duration
}

// Name implements Drafter.
func (o *OpenAIDrafter) Name() string {
	return fmt.Sprintf("openai drafter (%s at %s)", o.Model, o.BaseURL)
}

// Draft implements Drafter.
func (o *OpenAIDrafter) Draft(ctx context.Context, req Request) (*Candidate, error) {
	if o.Timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, o.Timeout)
		defer cancel()
	}
	user, err := json.Marshal(req)
	if err != nil {
		return nil, err
	}
	body, _ := json.Marshal(map[string]any{
		"model":           o.Model,
		"temperature":     0,
		"response_format": map[string]string{"type": "json_object"},
		"messages": []map[string]string{
			{"role": "system", "content": req.Brief.Instructions},
			{"role": "user", "content": string(user)},
		},
	})
	url := strings.TrimRight(o.BaseURL, "/") + "/chat/completions"
	hreq, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", o.Name(), err)
	}
	hreq.Header.Set("Content-Type", "application/json")
	if o.APIKey != "" {
		hreq.Header.Set("Authorization", "Bearer "+o.APIKey)
	}
	client := o.Client
	if client == nil {
		client = http.DefaultClient
	}
	resp, err := client.Do(hreq)
	if err != nil {
		return nil, fmt.Errorf("%s: POST %s: %w", o.Name(), url, err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, 16<<20))
	if err != nil {
		return nil, fmt.Errorf("%s: reading the answer: %w", o.Name(), err)
	}
	if resp.StatusCode/100 != 2 {
		return nil, fmt.Errorf("%s: POST %s: %s: %s", o.Name(), url, resp.Status, clip(strings.TrimSpace(string(data)), 300))
	}
	var chat struct {
		Choices []struct {
			Message struct {
				Content string `json:"content"`
			} `json:"message"`
			FinishReason string `json:"finish_reason"`
		} `json:"choices"`
	}
	if err := json.Unmarshal(data, &chat); err != nil || len(chat.Choices) == 0 {
		return nil, fmt.Errorf("%s: the endpoint did not answer with a chat completion: %s", o.Name(), clip(string(data), 200))
	}
	if chat.Choices[0].FinishReason == "length" {
		return nil, fmt.Errorf("%s: the answer was cut off (finish_reason length); use smaller batches or a model with a larger output limit", o.Name())
	}
	cand, err := decodeCandidate([]byte(chat.Choices[0].Message.Content))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", o.Name(), err)
	}
	return cand, nil
}

// ErrNoDrafter means no drafter is configured or named.
var ErrNoDrafter = errors.New("no drafter configured")
