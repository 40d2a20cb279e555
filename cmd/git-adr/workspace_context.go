package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/git-adr/git-adr/adr"
	"github.com/git-adr/git-adr/adr/evidence"
	"github.com/git-adr/git-adr/workspace"
)

// runWorkspaceContext is `git adr context` across a workspace: a task is
// ranked in every repository and the answers merged within one budget; a
// qualified ID is answered by its repository alone.
func runWorkspaceContext(env *Env, id string, o contextOptions) error {
	switch {
	case o.file != "" || o.diff != "" || o.staged || o.domain != "" || o.iteration != "" || o.cursor != "" || o.rationale || o.history:
		return usagef("across a workspace, context answers --task or an ID").
			hint("name one repository's record (`git adr --workspace FILE context NAME:ADR-0001`), or run context in that repository for --file, --diff, --staged, --domain, --iteration, --cursor, --rationale and --history")
	case o.pretty && !o.json:
		return usagef("--pretty needs --json").hint("git adr context --json --pretty ...")
	}
	ws, err := env.workspace()
	if err != nil {
		return err
	}
	if id != "" {
		return workspaceContextID(env, ws, id, o)
	}
	if o.task == "" {
		return usagef("across a workspace, context needs --task or an ID").hint(`git adr --workspace FILE context --task "..."`)
	}
	progress, done := terminalProgress(env.Err, "asking repositories")
	ans, err := ws.Context(workspace.ContextRequest{Task: o.task, MaxUnits: o.maxUnits, MaxChars: o.maxChars}, progress)
	done()
	if err != nil {
		var re *evidence.RequestError
		if errors.As(err, &re) {
			return usagef("%s", re.Msg).hint(re.Hint)
		}
		return wsErr(err)
	}
	ans.Pack(o.maxUnits, o.maxChars, func(a *workspace.ContextAnswer) int { return utf8.RuneCount(renderWorkspaceContext(a, o)) })
	_, err = env.Out.Write(renderWorkspaceContext(ans, o))
	return err
}

// workspaceContextID answers an ID in the one repository that holds it,
// as context does there, under a line naming the repository.
func workspaceContextID(env *Env, ws *workspace.Workspace, id string, o contextOptions) error {
	f, err := ws.Find(id)
	if err != nil {
		if adr.IsNotFound(err) {
			return usagef("no record %q in the workspace", id).hint("run `git adr list` with the same --workspace to see qualified IDs")
		}
		return wsErr(err)
	}
	defer f.Close()
	// The lazy log Find opened is read whole for the relations.
	ld, err := f.Member.Open(false)
	if err != nil {
		return wsErr(err)
	}
	defer ld.Close()
	local := f.Record.ID
	if f.Anchor != "" {
		local += "#" + f.Anchor
	}
	req := evidence.Request{ID: local, MaxUnits: o.maxUnits, MaxChars: o.maxChars, Format: evidence.Text}
	if o.json {
		req.Format = evidence.JSON
		if o.pretty {
			req.Format = evidence.PrettyJSON
		}
	}
	svc := &evidence.Service{Log: ld.Log, CacheDir: ld.CacheDir}
	_, out, err := svc.Answer(req)
	if err != nil {
		var re *evidence.RequestError
		if errors.As(err, &re) {
			return usagef("%s", re.Msg).hint(re.Hint)
		}
		return err
	}
	if !o.json {
		fmt.Fprintf(env.Out, "repository: %s (%s)\n", adr.Escape(f.Member.Name), adr.Escape(f.Member.Source()))
	}
	_, err = env.Out.Write(out)
	return err
}

type wsContextJSON struct {
	Selector string `json:"selector"`
	Query    string `json:"query"`
	// Repositories are the repositories asked with their confidence,
	// when they take a tenth of the budget at most (as the text's
	// confidence line does); else only those whose units the answer
	// sends, and Unlisted counts the others asked. The first
	// maxNamedUnavailable not read are always listed (NotRead counts them
	// all); those the term index did not ask are counted in Prefilter.
	// Listed whole, the repositories of a workspace of a hundred took
	// the budget of every unit (ADR-0050).
	Repositories []workspace.MemberAnswer   `json:"repositories"`
	Unlisted     int                        `json:"unlisted,omitempty"`
	NotRead      int                        `json:"not_read,omitempty"`
	Records      int                        `json:"records"`
	Prefilter    *workspace.Prefilter       `json:"prefilter,omitempty"`
	Units        []json.RawMessage          `json:"units"`
	References   []workspace.NamedReference `json:"references,omitempty"`
	Omitted      int                        `json:"omitted"`
}

// listedRepositories chooses the repositories a JSON answer lists (see
// wsContextJSON.Repositories) within maxChars (0: the default budget).
func listedRepositories(a *workspace.ContextAnswer, maxChars int) (listed []workspace.MemberAnswer, unlisted, notRead int) {
	if maxChars == 0 {
		maxChars = evidence.DefaultTaskMaxChars
	}
	sent := map[string]bool{}
	for _, u := range a.Units {
		sent[u.Repository] = true
	}
	size := 0 // of the repositories asked, listed whole
	for _, m := range a.Members {
		if !m.NotAsked && m.Unavailable == "" {
			enc, _ := json.Marshal(m)
			size += utf8.RuneCount(enc) + 1
		}
	}
	whole := size <= maxChars/10
	listed = []workspace.MemberAnswer{}
	for _, m := range a.Members {
		switch {
		case m.NotAsked:
		case m.Unavailable != "":
			if notRead++; notRead <= maxNamedUnavailable {
				listed = append(listed, m)
			}
		case whole || sent[m.Name]:
			listed = append(listed, m)
		default:
			unlisted++
		}
	}
	return listed, unlisted, notRead
}

func renderWorkspaceContext(a *workspace.ContextAnswer, o contextOptions) []byte {
	var b bytes.Buffer
	if o.json {
		v := wsContextJSON{Selector: "task", Query: a.Task, Repositories: []workspace.MemberAnswer{}, Records: a.Records, Prefilter: a.Prefilter, Units: []json.RawMessage{}, References: a.References(), Omitted: a.Omitted}
		v.Repositories, v.Unlisted, v.NotRead = listedRepositories(a, o.maxChars)
		for _, u := range a.Units {
			raw, _ := json.Marshal(u.Unit)
			// The repository leads each unit.
			repo, _ := json.Marshal(u.Repository)
			v.Units = append(v.Units, append(append([]byte(`{"repository":`), repo...), append([]byte{','}, raw[1:]...)...))
		}
		if o.pretty {
			writeJSON(&b, v)
		} else {
			enc := json.NewEncoder(&b)
			enc.SetEscapeHTML(false)
			enc.Encode(v)
		}
		return b.Bytes()
	}
	esc := adr.Escape
	fmt.Fprintf(&b, "context: task %q (current) across %d repositories, %d records\n", a.Task, len(a.Members), a.Records)
	var conf []string
	notAsked, notRead := 0, 0
	for _, m := range a.Members {
		switch {
		case m.NotAsked:
			notAsked++
			continue
		case m.Unavailable != "":
			// Named up to a few: a workspace never synced names all.
			if notRead++; notRead > maxNamedUnavailable {
				continue
			}
			conf = append(conf, fmt.Sprintf("%s %s (%s)", esc(m.Name), m.Confidence, m.Unavailable))
			continue
		}
		conf = append(conf, fmt.Sprintf("%s %s", esc(m.Name), m.Confidence))
	}
	if notRead > maxNamedUnavailable {
		conf = append(conf, fmt.Sprintf("%d more not read", notRead-maxNamedUnavailable))
	}
	if notAsked > 0 {
		// The members the term index did not ask are counted, not
		// named: their names would take the budget of the units.
		conf = append(conf, fmt.Sprintf("%d not asked (the workspace term index predicted weaker answers or none)", notAsked))
	}
	fmt.Fprintf(&b, "confidence: %s\n", strings.Join(conf, ", "))
	for i, u := range a.Units {
		status := u.Status
		if u.InForce != nil && !*u.InForce {
			status += " (not in force)"
		}
		fmt.Fprintf(&b, "\n[%d] %s  %s  %s %s:%d-%d\n", i+1, esc(u.ID), status, esc(u.Repository), esc(u.Path), u.Lines[0], u.Lines[1])
		if u.Title != "" {
			fmt.Fprintf(&b, "    %s\n", esc(u.Title))
		}
		if u.Note != "" {
			fmt.Fprintf(&b, "    note: %s\n", esc(u.Note))
		}
		text := adr.EscapeBody(u.Text)
		b.WriteString(text)
		if !strings.HasSuffix(text, "\n") {
			b.WriteByte('\n')
		}
	}
	if len(a.Units) == 0 {
		b.WriteString("\nwarning: no decision record in the workspace applies to this task\n")
	}
	if refs := a.References(); len(refs) > 0 {
		b.WriteString("\nnamed by these units in other repositories:\n")
		for _, r := range refs {
			fmt.Fprintf(&b, "  %s  %s  %s (named by %s)\n", esc(r.ID), r.Status, esc(r.Title), esc(r.By))
		}
	}
	b.WriteByte('\n')
	if a.Omitted > 0 {
		fmt.Fprintf(&b, "omitted: %d units (a qualified ID shows one whole: git adr context NAME:ADR-0001)\n", a.Omitted)
	}
	maxUnits, maxChars := o.maxUnits, o.maxChars
	if maxUnits == 0 {
		maxUnits = evidence.DefaultTaskMaxUnits
	}
	if maxChars == 0 {
		maxChars = evidence.DefaultTaskMaxChars
	}
	fmt.Fprintf(&b, "size: %d bytes, %d code points before this line (budget %d code points, %d units)\n", b.Len(), utf8.RuneCount(b.Bytes()), maxChars, maxUnits)
	return b.Bytes()
}
