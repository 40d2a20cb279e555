package hooks

import (
	"fmt"
	"strings"

	"github.com/git-adr/git-adr/adr/guard"
)

// decodeClaude reads a PreToolUse input of Claude Code or Codex CLI:
// {session_id, cwd, hook_event_name, tool_name, tool_input}. Claude Code
// names its tools Read, Grep, Glob, LS, Bash, Edit, MultiEdit, Write,
// NotebookRead, NotebookEdit and mcp__SERVER__TOOL; Codex sends every
// shell command as Bash (tool_input.command) and MCP calls as
// mcp__SERVER__TOOL with the server's hyphens turned into underscores.
func decodeClaude(agent Agent, data []byte) (Input, error) {
	m, err := object(data)
	if err != nil {
		return Input{}, err
	}
	in := sub(m, "tool_input")
	r := guard.Request{Agent: string(agent), Session: str(m, "session_id"), Cwd: str(m, "cwd"), Tool: str(m, "tool_name")}
	if r.Tool == "" {
		return Input{}, fmt.Errorf("the hook input names no tool (tool_name)")
	}
	switch r.Tool {
	case "Read":
		r.Op, r.Path = guard.OpRead, str(in, "file_path")
	case "NotebookRead":
		r.Op, r.Path = guard.OpRead, str(in, "notebook_path")
	case "Grep":
		r.Op, r.Path, r.Glob, r.Type = guard.OpSearch, str(in, "path"), str(in, "glob"), str(in, "type")
	case "Glob", "LS":
		r.Op, r.Path = guard.OpList, str(in, "path")
	case "Bash":
		r.Op, r.Command = guard.OpShell, command(in["command"])
		if r.Command == "" {
			r.Command = command(in["cmd"])
		}
		if wd := str(in, "workdir"); wd != "" {
			r.Cwd = wd
		}
	case "Edit":
		r.Op, r.Path, r.Old, r.New = guard.OpWrite, str(in, "file_path"), str(in, "old_string"), str(in, "new_string")
	case "MultiEdit":
		r.Op, r.Path = guard.OpWrite, str(in, "file_path")
		edits, _ := in["edits"].([]any)
		var olds, news []string
		for _, e := range edits {
			if o, ok := e.(map[string]any); ok {
				olds, news = append(olds, str(o, "old_string")), append(news, str(o, "new_string"))
			}
		}
		r.Old, r.New = strings.Join(olds, "\n"), strings.Join(news, "\n")
	case "Write":
		r.Op, r.Path, r.Content, r.WholeFile = guard.OpWrite, str(in, "file_path"), str(in, "content"), true
	case "NotebookEdit":
		r.Op, r.Path, r.New = guard.OpWrite, str(in, "notebook_path"), str(in, "new_source")
	case "apply_patch":
		patchRequest(&r, str(in, "input", "patch", "command"))
	default:
		if rest, ok := strings.CutPrefix(r.Tool, "mcp__"); ok {
			if _, tool, ok := strings.Cut(rest, "__"); ok {
				mcpRequest(&r, tool, in)
			}
		}
	}
	return Input{Request: r, Event: str(m, "hook_event_name"), agent: agent, toolInput: in}, nil
}

// patchRequest reads the files an apply_patch patch changes (Codex's
// "*** Update File: PATH" lines): a write to the first guard file it
// touches, else to its first file.
func patchRequest(r *guard.Request, patch string) {
	r.Op = guard.OpWrite
	var first string
	for _, line := range strings.Split(patch, "\n") {
		for _, p := range []string{"*** Update File: ", "*** Add File: ", "*** Delete File: ", "*** Move to: "} {
			if f, ok := strings.CutPrefix(line, p); ok {
				f = strings.TrimSpace(f)
				if first == "" {
					first = f
				}
				for _, g := range guard.GuardFiles {
					if f == g || strings.HasSuffix(f, "/"+g) {
						r.Path, r.Old = f, patch
						return
					}
				}
			}
		}
	}
	r.Path, r.Old = first, patch
}

// claudeOutput is Claude Code's (and Codex's) PreToolUse JSON answer.
type claudeOutput struct {
	HookSpecificOutput claudeSpecific `json:"hookSpecificOutput"`
}

type claudeSpecific struct {
	HookEventName            string         `json:"hookEventName"`
	PermissionDecision       string         `json:"permissionDecision,omitempty"`
	PermissionDecisionReason string         `json:"permissionDecisionReason,omitempty"`
	UpdatedInput             map[string]any `json:"updatedInput,omitempty"`
	AdditionalContext        string         `json:"additionalContext,omitempty"`
}

// narrowClaude runs a refused search narrowed instead: updatedInput is the
// call's own input with the command (Bash) or the glob (Grep, adr_search)
// replaced, and additionalContext tells the model what was left out. No
// permissionDecision is given, so Claude Code's own permission rules judge
// the narrowed call as they would have judged the original (verified with
// Claude Code 2.1.332: a rewritten command that needs approval is still
// asked for). Codex is not sent this: its hooks were not verified to
// honour updatedInput, so it gets the refusal, which names the narrowed
// command.
func narrowClaude(in Input, d guard.Decision) (Answer, bool) {
	n := d.Narrowed
	updated := make(map[string]any, len(in.toolInput)+1)
	for k, v := range in.toolInput {
		updated[k] = v
	}
	var note string
	switch {
	case n.Op == guard.OpShell:
		if _, ok := in.toolInput["command"].(string); !ok {
			return Answer{}, false // not the Bash input this adapter knows
		}
		updated["command"] = n.Command
		note = fmt.Sprintf("git-adr guard: this search ran as `%s`, leaving out the decision log (ADR roots), which it would have read at once. "+
			"For decisions use `git adr context --task \"what you are doing\"` or read a record by path.", n.Command)
	case n.Op == guard.OpSearch:
		updated["glob"] = n.Glob
		note = fmt.Sprintf("git-adr guard: this search ran with the glob %q, leaving out the decision log (ADR roots), which it would have read at once. "+
			"For decisions use `git adr context --task \"what you are doing\"` or read a record by path.", n.Glob)
	default:
		return Answer{}, false
	}
	o := claudeOutput{HookSpecificOutput: claudeSpecific{HookEventName: "PreToolUse", UpdatedInput: updated, AdditionalContext: note}}
	return Answer{Stdout: marshal(o)}, true
}

// encodeClaude denies with permissionDecision "deny" and the reason, which
// the model receives as the tool's result; guidance for a call that runs
// goes in additionalContext, which the model receives beside the result,
// and no permissionDecision is given, so the agent's own permission rules
// still apply. Both exit 0.
func encodeClaude(d guard.Decision) Answer {
	o := claudeOutput{HookSpecificOutput: claudeSpecific{HookEventName: "PreToolUse"}}
	switch {
	case d.Verdict == guard.Deny:
		o.HookSpecificOutput.PermissionDecision = "deny"
		o.HookSpecificOutput.PermissionDecisionReason = d.Message()
	case d.Message() != "":
		o.HookSpecificOutput.AdditionalContext = d.Message()
	default:
		return Answer{}
	}
	return Answer{Stdout: marshal(o)}
}
