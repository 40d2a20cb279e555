package hooks

import (
	_ "embed"
	"fmt"
	"strings"

	"github.com/git-adr/git-adr/adr/guard"
)

// OpenCodePlugin is the OpenCode plugin `git adr guard install --agent
// opencode` writes to .opencode/plugin/git-adr-guard.js. Its
// tool.execute.before hook runs `git adr guard --hook opencode` with the
// call as JSON and throws the reason when the answer is deny (OpenCode
// then gives the model the message instead of running the tool); guidance
// for a call that runs is appended to the tool's output by its
// tool.execute.after hook. A hook that cannot run git-adr throws too.
//
//go:embed opencode-plugin.js
var OpenCodePlugin string

// decodeOpenCode reads what the plugin sends: {tool, sessionID, callID,
// args, directory}. OpenCode names its tools read, grep, glob, list,
// bash, edit, write, patch and SERVER_TOOL for MCP tools.
func decodeOpenCode(data []byte) (Input, error) {
	m, err := object(data)
	if err != nil {
		return Input{}, err
	}
	args := sub(m, "args")
	r := guard.Request{Agent: string(OpenCode), Session: str(m, "sessionID"), Cwd: str(m, "directory"), Tool: str(m, "tool")}
	if r.Tool == "" {
		return Input{}, fmt.Errorf("the hook input names no tool")
	}
	switch r.Tool {
	case "read":
		r.Op, r.Path = guard.OpRead, str(args, "filePath")
	case "grep":
		r.Op, r.Path, r.Include = guard.OpSearch, str(args, "path"), str(args, "include")
	case "glob", "list":
		r.Op, r.Path = guard.OpList, str(args, "path")
	case "bash":
		r.Op, r.Command = guard.OpShell, command(args["command"])
		if wd := str(args, "workdir"); wd != "" {
			r.Cwd = wd
		}
	case "edit":
		r.Op, r.Path, r.Old, r.New = guard.OpWrite, str(args, "filePath"), str(args, "oldString"), str(args, "newString")
	case "write":
		r.Op, r.Path, r.Content, r.WholeFile = guard.OpWrite, str(args, "filePath"), str(args, "content"), true
	case "patch", "apply_patch":
		patchRequest(&r, str(args, "patchText", "patch", "input"))
	default:
		// MCP tools are SERVER_TOOL; git-adr's are known by their names.
		for name := range gitADRTools {
			if strings.HasSuffix(r.Tool, "_"+name) {
				mcpRequest(&r, name, args)
				return Input{Request: r}, nil
			}
		}
		if strings.Contains(r.Tool, "_") {
			mcpRequest(&r, r.Tool, args)
		}
	}
	return Input{Request: r}, nil
}

// openCodeAnswer is what the plugin reads.
type openCodeAnswer struct {
	Decision guard.Verdict `json:"decision"`
	Message  string        `json:"message,omitempty"`
}

func encodeOpenCode(d guard.Decision) Answer {
	return Answer{Stdout: marshal(openCodeAnswer{Decision: d.Verdict, Message: d.Message()})}
}
