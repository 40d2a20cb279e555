package guard

// Op is what a tool call does, in the guard's terms.
type Op int

// Operations an agent adapter can report.
const (
	// OpOther is a tool the guard does not judge (a to-do list, a web
	// fetch, an MCP tool without file arguments).
	OpOther Op = iota
	// OpRead outputs one file (Path), or several (Paths).
	OpRead
	// OpSearch searches Path (a file or a directory, "" for the working
	// directory) recursively, keeping files by Glob, Include and Type.
	OpSearch
	// OpList lists names (a directory listing, a glob, find): allowed.
	OpList
	// OpShell runs Command in a shell.
	OpShell
	// OpWrite changes Path: a whole new Content, or an edit of Old to New.
	OpWrite
	// OpEvidence is one of git-adr's own bounded tools (adr_context,
	// adr_show, adr_list): allowed.
	OpEvidence
)

// Request is one tool call as an agent adapter decoded it.
type Request struct {
	// Agent is the adapter (claude, codex, opencode, generic).
	Agent string
	// Session identifies the agent session, for deduplicated warnings and
	// repeat reads ("" for none).
	Session string
	// Cwd is the absolute directory the tool runs in.
	Cwd string
	// Tool is the tool's name as the agent gave it, for messages.
	Tool string
	Op   Op
	// Path is the file or directory read, searched, listed or written;
	// Paths are further files read by one call.
	Path  string
	Paths []string
	// Glob is a ripgrep-style glob (Claude Code's Grep glob, adr_search
	// glob); Include a name glob (OpenCode's grep include); Type a
	// ripgrep file type.
	Glob, Include, Type string
	// Command is the shell command of OpShell.
	Command string
	// Content is the whole new file of OpWrite; Old and New an edit.
	Content, Old, New string
	// WholeFile reports a write of Content rather than an edit.
	WholeFile bool
}
