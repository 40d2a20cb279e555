package evidence

import (
	"encoding/json"
	"fmt"
)

// ToolName is the MCP tool that serves this package's answers; a Service
// with MCP set words hints and next steps for it.
const ToolName = "adr_context"

// ShowTool is the MCP tool that shows one record or unit by ID.
const ShowTool = "adr_show"

// words names a request's arguments as the caller spells them.
type words struct{ mcp bool }

var cliFlags = map[string]string{
	"id": "ID", "task": "--task", "file": "--file", "domain": "--domain", "iteration": "--iteration",
	"intent": "--current, --rationale or --history", "cursor": "--cursor", "max_units": "--max-units", "max_chars": "--max-chars",
}

// arg is the name of argument a (the MCP argument name) for the caller.
func (w words) arg(a string) string {
	if w.mcp {
		return a
	}
	return cliFlags[a]
}

// call is how the caller asks for args: a command line or a tool call.
func (w words) call(tool string, args map[string]any, cli string) string {
	if !w.mcp {
		return cli
	}
	if len(args) == 0 {
		return tool + " {}"
	}
	b, _ := json.Marshal(args)
	return tool + " " + string(b)
}

// listIDs is where the caller finds record IDs.
func (w words) listIDs() string {
	if w.mcp {
		return fmt.Sprintf("call %s with no arguments for an overview of the log, or with task to find records", ToolName)
	}
	return "run `git adr list` to see IDs"
}

func (s *Service) words() words { return words{mcp: s.MCP} }
