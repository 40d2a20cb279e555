package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"

	"github.com/git-adr/git-adr/adr"
	"github.com/git-adr/git-adr/adr/evidence"
	"github.com/git-adr/git-adr/navigate/mcpserver"
)

// The writing tools of `git adr mcp`, served only when asked for
// (--allow-propose, or git config adr.mcp.propose true): an agent drafts
// a proposed record (adr_propose) and links a proposal (adr_link). Neither
// accepts, rejects, supersedes nor archives anything; that stays a
// person's, in their own terminal (`git adr decide ID accept`), and the
// read guard keeps refusing it to agents.

// proposeEnabled says whether this server serves the writing tools (see
// [mcpserver.ProposeServed]).
func proposeEnabled(env *Env, flag bool) (on bool, refused string, err error) {
	repo, err := env.Repo()
	if err != nil {
		return false, "", err
	}
	on, refused, err = mcpserver.ProposeServed(repo, flag)
	var ve *mcpserver.ProposeValueError
	if errors.As(err, &ve) {
		return false, "", usagef("%v", err).hint("set it to true or false: `git config " + mcpserver.ProposeKey + " false`")
	}
	return on, refused, err
}

// proposeInstructions are added to the server's instructions with the
// writing tools.
const proposeInstructions = `
Two tools also write, and only proposals. When you make a change that decides something about the architecture, record why with adr_propose: it writes a PROPOSED decision record in this log's own template, with the next free number, and links it (adr_link links a proposal later). A person reviews it and accepts or rejects it in their own terminal; you never can, and nothing you propose changes the status of another record. Tell the person the steps the answer's next lists.`

// mcpWriter runs the writing tools: one at a time in this server, each
// under the project lock with an Env of its own (the server's Env is
// shared by concurrent read calls and holds no lock).
type mcpWriter struct {
	env *Env
	mu  sync.Mutex
}

// run calls f with a fresh Env for one write and turns its error into a
// tool error with the command's hints.
func (w *mcpWriter) run(tool string, f func(e *Env) (any, error)) (any, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	repo, err := w.env.Repo()
	if err != nil {
		return nil, err
	}
	var stderr bytes.Buffer
	e := &Env{In: strings.NewReader(""), Out: &bytes.Buffer{}, Err: &stderr, Dir: w.env.Dir, Roots: w.env.Roots,
		repo: repo, command: "git adr mcp: " + tool, serving: true}
	defer e.unlock()
	v, err := f(e)
	var ce *cmdError
	if errors.As(err, &ce) {
		return nil, mcpserver.WithHints(ce.err, ce.hints...)
	}
	return v, err
}

// wait blocks until no write is under way: the session may end then.
func (w *mcpWriter) wait() {
	w.mu.Lock()
	defer w.mu.Unlock()
}

// mcpProposal names a proposal's fields as adr_propose's arguments.
var mcpProposal = proposalSurface{
	field:   func(n string) string { return fmt.Sprintf("argument %q", n) },
	findIDs: fmt.Sprintf("call %s with no arguments for an overview of the log, or with task to find records", evidence.ToolName),
	mcp:     true,
}

type proposeArgs struct {
	Title        string   `json:"title" jsonschema:"what is decided, in a few words (at most 200 characters, one line), such as Cache reads in Redis"`
	Context      string   `json:"context" jsonschema:"why a decision is needed: the forces, constraints and problem (Markdown; headings only of a level below the section's)"`
	Decision     string   `json:"decision" jsonschema:"the decision proposed, stated plainly (Markdown)"`
	Consequences string   `json:"consequences,omitempty" jsonschema:"what becomes easier or harder, and the risks (Markdown)"`
	RelatesTo    []string `json:"relates_to,omitempty" jsonschema:"IDs of records this one relates to (linked both ways)"`
	Amends       []string `json:"amends,omitempty" jsonschema:"IDs of records this one amends (linked both ways: Amends / Amended by)"`
	Refines      []string `json:"refines,omitempty" jsonschema:"IDs of records this one refines (linked both ways: Refines / Refined by)"`
	Supersedes   []string `json:"supersedes,omitempty" jsonschema:"IDs of records this proposal would supersede once a person accepts it; they do not change now"`
	Domains      []string `json:"domains,omitempty" jsonschema:"domains to tag the record with, such as storage"`
	Dir          string   `json:"dir,omitempty" jsonschema:"the ADR directory to write in, relative to the repository root, when the repository has several; default: the first"`
}

type linkArgs struct {
	ID       string `json:"id" jsonschema:"the proposed record to link from (only proposals are linked by this tool)"`
	Relation string `json:"relation" jsonschema:"relates-to, amends or refines"`
	Target   string `json:"target" jsonschema:"the record it relates to, amends or refines"`
}

// linkResult is adr_link's answer.
type linkResult struct {
	ID       string         `json:"id"`
	Relation string         `json:"relation"`
	Target   string         `json:"target"`
	Changed  bool           `json:"changed"`
	Updated  []string       `json:"updated"`
	Next     []proposalStep `json:"next"`
}

// addProposeTools serves adr_propose and adr_link.
func addProposeTools(srv *mcpserver.Server, w *mcpWriter) {
	mcpserver.Add(srv, mcpserver.Tool[proposeArgs]{
		Name:   "adr_propose",
		Title:  "Propose a decision",
		Writes: true,
		Description: "Write a PROPOSED architecture decision record for a change you make, so that why is recorded: in this log's own template " +
			"and style, with the next free number, your context, decision and consequences in the template's sections, linked both ways to " +
			"relates_to / amends / refines. It never accepts, rejects, supersedes or archives anything: supersedes only says what the proposal " +
			"would replace once a person accepts it. Returns JSON {id, path, title, status, links, would_supersede, updated, template_sections, " +
			"notes, next}: tell the person the steps in next (review, commit, and accepting it in their own terminal with git adr decide ID accept, " +
			"which you cannot do). A title the log already has is refused: a proposal sent again finds the first.",
		Handle: func(_ context.Context, a proposeArgs) (any, error) {
			return w.run("adr_propose", func(e *Env) (any, error) {
				return runProposal(e, proposal{Title: a.Title, Context: a.Context, Decision: a.Decision, Consequences: a.Consequences,
					RelatesTo: a.RelatesTo, Amends: a.Amends, Refines: a.Refines, Supersedes: a.Supersedes, Domains: a.Domains, Dir: a.Dir}, mcpProposal)
			})
		},
	})
	mcpserver.Add(srv, mcpserver.Tool[linkArgs]{
		Name:   "adr_link",
		Title:  "Link a proposal",
		Writes: true,
		Description: "Link a PROPOSED record to another record both ways: relates-to, amends or refines (the target gets the reverse link: " +
			"Relates to, Amended by, Refined by). Only proposals are linked, and only by relations that bind nothing; a supersession is " +
			"stated when proposing (adr_propose supersedes). Returns JSON {id, relation, target, changed, updated, next}; changed is false " +
			"when the records were linked already.",
		Handle: func(_ context.Context, a linkArgs) (any, error) {
			return w.run("adr_link", func(e *Env) (any, error) { return runProposalLink(e, a) })
		},
	})
}

// runProposalLink links a proposed record under the project lock.
func runProposalLink(env *Env, a linkArgs) (*linkResult, error) {
	typ, ok := adr.ProposalLinkRelation(a.Relation)
	if !ok {
		return nil, usagef("argument \"relation\" %q is not one adr_link writes", clip(a.Relation)).
			hint("use relates-to, amends or refines; a proposal states what it would supersede when it is proposed (adr_propose supersedes), and a person decides the rest")
	}
	if err := env.lockWrites(); err != nil {
		return nil, err
	}
	l, err := env.Log()
	if err != nil {
		return nil, err
	}
	if err := env.requireRoots(l); err != nil {
		return nil, err
	}
	src, err := proposalTarget(env, l, mcpProposal, "id", a.ID)
	if err != nil {
		return nil, err
	}
	if src.Status != adr.Proposed {
		return nil, usagef("%s is %s, not a proposal: adr_link links proposals only", src.ID, src.Status).
			hint("name your proposal as id and this record as target (amended-by is amends the other way); a person links other records with `git adr link`")
	}
	dst, err := proposalTarget(env, l, mcpProposal, "target", a.Target)
	if err != nil {
		return nil, err
	}
	res := &linkResult{ID: src.ID, Relation: typ.Label(), Target: dst.ID, Updated: []string{}, Next: []proposalStep{}}
	changes, _, err := l.Link(src, typ.Label(), dst, typ.Reverse().Label())
	if errors.Is(err, adr.ErrNoChange) {
		return res, nil
	}
	if err != nil {
		return nil, lifecycleErr(err)
	}
	if res.Updated, err = writeProposal(env, src, changes); err != nil {
		return nil, err
	}
	res.Changed = true
	res.Next = adr.ProposalLinkNext(res.Updated)
	return res, nil
}
