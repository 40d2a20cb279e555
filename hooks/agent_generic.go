package hooks

import (
	"fmt"
	"strings"

	"github.com/git-adr/git-adr/adr/guard"
)

// decodeGeneric reads git-adr's own JSON form (docs/guard.md):
//
//	{"tool": "read"|"search"|"list"|"shell"|"write"|"edit"|"evidence"|NAME,
//	 "path": ..., "paths": [...], "pattern": ..., "glob": ..., "include": ...,
//	 "type": ..., "command": ..., "content": ..., "old": ..., "new": ...,
//	 "session": ..., "cwd": ...}
func decodeGeneric(data []byte) (Input, error) {
	m, err := object(data)
	if err != nil {
		return Input{}, err
	}
	r := guard.Request{Agent: string(Generic), Session: str(m, "session"), Cwd: str(m, "cwd"), Tool: str(m, "tool"),
		Path: str(m, "path"), Glob: str(m, "glob"), Include: str(m, "include"), Type: str(m, "type")}
	if ps, ok := m["paths"].([]any); ok {
		for _, p := range ps {
			if s, ok := p.(string); ok {
				r.Paths = append(r.Paths, s)
			}
		}
	}
	switch strings.ToLower(r.Tool) {
	case "read":
		r.Op = guard.OpRead
	case "search":
		r.Op = guard.OpSearch
	case "list":
		r.Op = guard.OpList
	case "shell":
		r.Op, r.Command = guard.OpShell, command(m["command"])
	case "write":
		r.Op, r.Content, r.WholeFile = guard.OpWrite, str(m, "content"), true
	case "edit":
		r.Op, r.Old, r.New = guard.OpWrite, str(m, "old"), str(m, "new")
	case "evidence":
		r.Op = guard.OpEvidence
	case "":
		return Input{}, fmt.Errorf("the hook input has no \"tool\" (one of read, search, list, shell, write, edit, evidence, or an MCP tool name)")
	default:
		args := sub(m, "input")
		if len(args) == 0 {
			args = m
		}
		tool := r.Tool
		if rest, ok := strings.CutPrefix(tool, "mcp__"); ok {
			if _, t, ok := strings.Cut(rest, "__"); ok {
				tool = t
			}
		}
		mcpRequest(&r, tool, args)
	}
	return Input{Request: r}, nil
}
