package hooks

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/git-adr/git-adr/adr"
	"github.com/git-adr/git-adr/adr/guard"
)

// Agent names a coding agent's tool-hook protocol.
type Agent string

// The protocols `git adr guard --hook` speaks.
const (
	// Claude is Claude Code's PreToolUse command hook.
	Claude Agent = "claude"
	// Codex is Codex CLI's PreToolUse command hook (Claude Code's format).
	Codex Agent = "codex"
	// OpenCode is the JSON the git-adr plugin for OpenCode sends from its
	// tool.execute.before hook (see OpenCodePlugin).
	OpenCode Agent = "opencode"
	// Generic is git-adr's own JSON form, for any other tool.
	Generic Agent = "generic"
)

// Agents lists the protocols.
var Agents = []Agent{Claude, OpenCode, Codex, Generic}

// ParseAgent reads an agent name.
func ParseAgent(s string) (Agent, bool) {
	for _, a := range Agents {
		if string(a) == s {
			return a, true
		}
	}
	return "", false
}

// Input is a decoded hook input: the request and where it runs.
type Input struct {
	Request guard.Request
	// Event is the hook event named by the input ("" when it names none);
	// only PreToolUse is judged.
	Event string
	// agent and toolInput are the protocol and the call's arguments as
	// sent, from which a narrowed call's input is made.
	agent     Agent
	toolInput map[string]any
}

// maxInput bounds a hook input (a Write of a large file carries it whole).
const maxInput = 32 << 20

// Decode reads one hook input of agent.
func Decode(agent Agent, data []byte) (Input, error) {
	if len(data) > maxInput {
		return Input{}, fmt.Errorf("the hook input is larger than %d MiB", maxInput>>20)
	}
	if len(bytes.TrimSpace(data)) == 0 {
		return Input{}, fmt.Errorf("the hook input is empty: the agent sent no JSON on standard input")
	}
	switch agent {
	case Claude, Codex:
		return decodeClaude(agent, data)
	case OpenCode:
		in, err := decodeOpenCode(data)
		in.agent = agent
		return in, err
	case Generic:
		in, err := decodeGeneric(data)
		in.agent = agent
		return in, err
	}
	return Input{}, fmt.Errorf("unknown agent %q", agent)
}

// object decodes a JSON object, keeping numbers as written.
func object(data []byte) (map[string]any, error) {
	d := json.NewDecoder(bytes.NewReader(data))
	d.UseNumber()
	var m map[string]any
	if err := d.Decode(&m); err != nil {
		return nil, fmt.Errorf("the hook input is not a JSON object: %v", err)
	}
	if m == nil {
		return nil, fmt.Errorf("the hook input is not a JSON object")
	}
	if d.More() {
		return nil, fmt.Errorf("the hook input has data after its JSON object")
	}
	return m, nil
}

func str(m map[string]any, keys ...string) string {
	for _, k := range keys {
		if s, ok := m[k].(string); ok {
			return s
		}
	}
	return ""
}

func sub(m map[string]any, key string) map[string]any {
	o, _ := m[key].(map[string]any)
	if o == nil {
		return map[string]any{}
	}
	return o
}

// command reads a shell command given as a string or as an argument list.
func command(v any) string {
	switch c := v.(type) {
	case string:
		return c
	case []any:
		var words []string
		for _, w := range c {
			s, _ := w.(string)
			words = append(words, adr.ShellWord(s))
		}
		// ["bash", "-lc", "SCRIPT"] is the script.
		if len(c) == 3 {
			if s, ok := c[2].(string); ok {
				if f, _ := c[1].(string); f == "-c" || f == "-lc" {
					return s
				}
			}
		}
		return strings.Join(words, " ")
	}
	return ""
}

// gitADRTools are git-adr's MCP tools: the evidence and listing tools are
// always allowed; adr_read and adr_search are judged as reads and searches;
// the writing tools (git adr mcp --allow-propose) output no record and
// write only proposals, which git-adr itself confines: not judged.
var gitADRTools = map[string]guard.Op{
	"adr_context": guard.OpEvidence, "adr_show": guard.OpEvidence, "adr_list": guard.OpList,
	"adr_read": guard.OpRead, "adr_search": guard.OpSearch,
	"adr_propose": guard.OpOther, "adr_link": guard.OpOther,
}

// OwnTools names, sorted, git-adr's own MCP tools, which the guard knows
// by name: `git adr mcp --allow-propose` registers exactly these (a test
// of cmd/git-adr ties the two lists).
func OwnTools() []string {
	names := make([]string, 0, len(gitADRTools))
	for n := range gitADRTools {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// mcpRequest maps an MCP tool call. git-adr's own tools are known by
// name; another server's tool is judged by the paths its arguments name
// and the words of its name (read, search, list, write), which is a
// heuristic (docs/guard.md lists it as a gap).
func mcpRequest(r *guard.Request, tool string, args map[string]any) {
	if op, ok := gitADRTools[tool]; ok {
		r.Op = op
		r.Path = str(args, "path")
		r.Glob = str(args, "glob")
		return
	}
	var paths []string
	for _, k := range []string{"path", "file_path", "filePath", "file", "filename", "source", "directory"} {
		if s := str(args, k); s != "" {
			paths = append(paths, s)
		}
	}
	if u := str(args, "uri"); strings.HasPrefix(u, "file://") {
		paths = append(paths, strings.TrimPrefix(u, "file://"))
	}
	if ps, ok := args["paths"].([]any); ok {
		for _, p := range ps {
			if s, ok := p.(string); ok {
				paths = append(paths, s)
			}
		}
	}
	if len(paths) == 0 {
		r.Op = guard.OpOther
		return
	}
	name := strings.ToLower(tool)
	has := func(words ...string) bool {
		for _, w := range words {
			if strings.Contains(name, w) {
				return true
			}
		}
		return false
	}
	switch {
	case has("write", "edit", "create", "move", "delete", "remove", "rename"):
		r.Op, r.Path = guard.OpWrite, paths[0]
	case has("search", "grep", "find"):
		r.Op, r.Path = guard.OpSearch, paths[0]
		r.Glob = str(args, "glob", "include")
	case has("list", "tree", "glob", "ls", "dir"):
		r.Op, r.Path = guard.OpList, paths[0]
	case has("read", "cat", "view", "get", "open", "show", "fetch", "load"):
		r.Op, r.Path, r.Paths = guard.OpRead, paths[0], paths[1:]
	default:
		r.Op = guard.OpOther
	}
}

// Answer is what a hook writes and the exit code it ends with.
type Answer struct {
	Stdout, Stderr []byte
	Code           int
}

// Answer answers the decision on this input in its agent's protocol: as
// [Encode], except that Claude Code runs a narrowed search
// (Decision.Narrowed) instead of being refused (see encodeClaude).
func (in Input) Answer(d guard.Decision) Answer {
	if in.agent == Claude && d.Verdict == guard.Deny && d.Narrowed != nil {
		if a, ok := narrowClaude(in, d); ok {
			return a
		}
	}
	return Encode(in.agent, d)
}

// Encode answers a decision in agent's protocol.
func Encode(agent Agent, d guard.Decision) Answer {
	switch agent {
	case Claude, Codex:
		return encodeClaude(d)
	case OpenCode:
		return encodeOpenCode(d)
	}
	return encodeGeneric(d)
}

// Failure answers a call the guard could not judge (an input it cannot
// read, an internal error): in guard mode, and when the mode itself is
// unknown, the call is refused with the reason; in warn mode it runs with
// the reason attached; off lets it run. The guard never lets a call run
// silently because it failed.
func Failure(agent Agent, mode guard.Mode, err error) Answer {
	d := guard.Decision{Mode: mode}
	switch mode {
	case guard.Off:
		d.Verdict = guard.Allow
	case guard.Warn:
		d.Verdict = guard.Warned
		d.Reason = fmt.Sprintf("git-adr guard (warn mode) could not judge this call: %v", err)
	default:
		d.Verdict = guard.Deny
		d.Reason = fmt.Sprintf("git-adr guard could not judge this call, so it is refused: %v. A person can check the guard with `git adr guard status`.", err)
	}
	return Encode(agent, d)
}

// genericAnswer is the generic protocol's output (docs/guard.md).
type genericAnswer struct {
	Decision guard.Verdict    `json:"decision"`
	Mode     guard.Mode       `json:"mode"`
	Reason   string           `json:"reason,omitempty"`
	Notes    []string         `json:"notes,omitempty"`
	Findings []genericFinding `json:"findings,omitempty"`
	// Narrowed is the allowed search without the ADR roots that a
	// refused one can be run as ({"command"} or {"glob"}).
	Narrowed map[string]string `json:"narrowed,omitempty"`
}

type genericFinding struct {
	Rule  guard.Rule `json:"rule"`
	Paths []string   `json:"paths,omitempty"`
}

func encodeGeneric(d guard.Decision) Answer {
	a := genericAnswer{Decision: d.Verdict, Mode: d.Mode, Reason: d.Reason, Notes: d.Notes}
	if n := d.Narrowed; n != nil {
		if n.Op == guard.OpShell {
			a.Narrowed = map[string]string{"command": n.Command}
		} else {
			a.Narrowed = map[string]string{"glob": n.Glob}
		}
	}
	for _, f := range d.Findings {
		a.Findings = append(a.Findings, genericFinding{Rule: f.Rule, Paths: f.Paths})
	}
	return Answer{Stdout: marshal(a)}
}

func marshal(v any) []byte {
	var b bytes.Buffer
	e := json.NewEncoder(&b)
	e.SetEscapeHTML(false)
	e.Encode(v)
	return b.Bytes()
}
