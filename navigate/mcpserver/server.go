// Package mcpserver serves git-adr's tools over the Model Context
// Protocol, on the official Go SDK (ADR-0009): read-only tools, and the
// writing tools a server is started with on request (Tool.Writes).
//
// # Adding a tool
//
// A tool is a name, a description, an argument struct and a handler:
//
//	mcpserver.Add(srv, mcpserver.Tool[contextArgs]{
//		Name:        "adr_context",
//		Description: "...",
//		Handle:      func(ctx context.Context, a contextArgs) (any, error) { ... },
//	})
//
// The registry derives the input schema from the struct (json tags name the
// arguments, jsonschema tags describe them, fields without omitempty are
// required), decodes and checks the arguments itself so that a wrong one
// comes back naming it, marks the tool read-only (unless it Writes), and sends the handler's
// value once, as one text block: compact JSON, or the string itself for a
// [Text]. A result over the tool's Budget, a handler error and a panic
// all become tool errors (isError results) with hints; the server never
// crashes on a call.
package mcpserver

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"runtime/debug"
	"slices"
	"strings"
	"time"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Server is an MCP server of git-adr's tools.
type Server struct {
	srv   *mcp.Server
	impl  *mcp.Implementation
	log   *slog.Logger
	names []string
}

// Options configure a server.
type Options struct {
	// Version is the server version reported to clients.
	Version string
	// Instructions tell the client's model how to use the tools.
	Instructions string
	// Logger receives protocol and call logs; it must not write to the
	// protocol stream (stdout). Nil discards them.
	Logger *slog.Logger
}

// New returns a server with no tools.
func New(o Options) *Server {
	log := o.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	impl := &mcp.Implementation{Name: "git-adr", Title: "git-adr", Version: o.Version}
	srv := mcp.NewServer(impl, &mcp.ServerOptions{
		Instructions: o.Instructions,
		Logger:       log,
		// Only tools, whose list never changes during a session (so no
		// listChanged); no logging capability (logs go to stderr).
		Capabilities: &mcp.ServerCapabilities{Tools: &mcp.ToolCapabilities{}},
	})
	return &Server{srv: srv, impl: impl, log: log}
}

// Tools lists the names of the registered tools in order of registration.
func (s *Server) Tools() []string { return slices.Clone(s.names) }

// Run serves one session on t until the client disconnects or ctx ends.
func (s *Server) Run(ctx context.Context, t mcp.Transport) error { return s.srv.Run(ctx, t) }

// Connect starts a session on t and returns at once (tests connect a
// client to the other end of an in-memory transport).
func (s *Server) Connect(ctx context.Context, t mcp.Transport) (*mcp.ServerSession, error) {
	return s.srv.Connect(ctx, t, nil)
}

// Tool describes one tool whose arguments decode into In, a struct.
type Tool[In any] struct {
	Name        string
	Title       string
	Description string
	// Budget is the most code points the whole JSON-RPC message of one
	// result may take as it is sent ([Server.WireCost]); 0 means MessageBudget.
	// Handlers fit their pages to it; the registry refuses to send a
	// result over it.
	Budget int
	// BudgetHint tells the caller how to ask for less when a result is
	// over Budget.
	BudgetHint string
	// Adjust, when set, refines the inferred input schema (bounds,
	// defaults).
	Adjust func(*jsonschema.Schema)
	// Writes marks a tool that changes the repository's files (a
	// proposal): it is annotated neither read-only nor idempotent, and
	// not destructive (it adds, it never deletes or overwrites).
	Writes bool
	// Handle answers a call. Its value is sent as compact JSON, or as is
	// when it is a [Text]; an error becomes a tool error (see [Error]).
	Handle func(ctx context.Context, in In) (any, error)
}

// Text is a handler result sent as it is rather than as JSON.
type Text string

// Error is a tool failure with guidance for the caller's model.
type Error struct {
	Err   error
	Hints []string
}

func (e *Error) Error() string { return e.Err.Error() }
func (e *Error) Unwrap() error { return e.Err }

// WithHints wraps err with hints ("hint: ..." lines in the result).
func WithHints(err error, hints ...string) error { return &Error{Err: err, Hints: hints} }

// Add registers t on s. It panics when In has no valid schema (a
// programming error caught by the first test that builds the server).
func Add[In any](s *Server, t Tool[In]) {
	schema, err := jsonschema.For[In](nil)
	if err != nil {
		panic(fmt.Sprintf("mcpserver: tool %q: %v", t.Name, err))
	}
	if schema.Type != "object" {
		panic(fmt.Sprintf("mcpserver: tool %q: arguments must be a struct", t.Name))
	}
	for _, p := range schema.Properties {
		// Optional numbers are pointers, inferred as "null or integer":
		// say integer, and let absence mean the default.
		if len(p.Types) == 2 && slices.Contains(p.Types, "null") {
			p.Type = p.Types[slices.IndexFunc(p.Types, func(s string) bool { return s != "null" })]
			p.Types = nil
		}
	}
	if t.Adjust != nil {
		t.Adjust(schema)
	}
	openWorld, destructive := false, false
	notes := &mcp.ToolAnnotations{Title: t.Title, ReadOnlyHint: true, IdempotentHint: true, OpenWorldHint: &openWorld}
	if t.Writes {
		notes = &mcp.ToolAnnotations{Title: t.Title, DestructiveHint: &destructive, OpenWorldHint: &openWorld}
	}
	s.srv.AddTool(&mcp.Tool{
		Name:        t.Name,
		Title:       t.Title,
		Description: t.Description,
		InputSchema: schema,
		Annotations: notes,
	}, func(ctx context.Context, req *mcp.CallToolRequest) (res *mcp.CallToolResult, err error) {
		start := time.Now()
		defer func() {
			if p := recover(); p != nil {
				s.log.Error("tool panicked", "tool", t.Name, "panic", p, "stack", string(debug.Stack()))
				res = errorResult(&Error{Err: fmt.Errorf("internal error in %s: %v", t.Name, p),
					Hints: []string{"this is a bug in git-adr; the call had no effect, and other calls still work"}})
			}
			s.log.Info("tool call", "tool", t.Name, "error", res != nil && res.IsError, "duration", time.Since(start))
		}()
		var in In
		if err := decodeArgs(req.Params.Arguments, schema, &in); err != nil {
			return errorResult(err), nil
		}
		v, err := t.Handle(ctx, in)
		if err != nil {
			return errorResult(err), nil
		}
		text, err := encode(v)
		if err != nil {
			return errorResult(fmt.Errorf("encoding the %s result: %w", t.Name, err)), nil
		}
		budget := t.Budget
		if budget <= 0 {
			budget = MessageBudget
		}
		if n := s.TextCost(text); n > budget {
			hints := []string{"ask for less"}
			if t.BudgetHint != "" {
				hints = []string{t.BudgetHint}
			}
			return errorResult(&Error{Err: fmt.Errorf("the result is %d code points as sent, over the %d-code-point budget of %s; nothing was sent", n, budget, t.Name), Hints: hints}), nil
		}
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: text}}}, nil
	})
	s.names = append(s.names, t.Name)
}

// Encode renders a handler's value as the result text: compact JSON
// without HTML escaping, or a [Text] as it is.
func Encode(v any) (string, error) { return encode(v) }

func encode(v any) (string, error) {
	if t, ok := v.(Text); ok {
		return string(t), nil
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return "", err
	}
	return strings.TrimSuffix(b.String(), "\n"), nil
}

// errorResult is a tool error: "error: ..." then "hint: ..." lines, the way
// the command line prints errors.
func errorResult(err error) *mcp.CallToolResult {
	var b strings.Builder
	fmt.Fprintf(&b, "error: %s", err)
	var e *Error
	if errors.As(err, &e) {
		for _, h := range e.Hints {
			fmt.Fprintf(&b, "\nhint: %s", h)
		}
	}
	res := &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: b.String()}}}
	res.IsError = true
	return res
}

// decodeArgs decodes raw arguments into in, naming any argument that is
// unknown, missing or of the wrong type.
func decodeArgs(raw json.RawMessage, schema *jsonschema.Schema, in any) error {
	known := slices.Sorted(func(yield func(string) bool) {
		for k := range schema.Properties {
			if !yield(k) {
				return
			}
		}
	})
	usage := "arguments: " + argSummary(schema, known)
	var fields map[string]json.RawMessage
	if len(bytes.TrimSpace(raw)) > 0 && string(bytes.TrimSpace(raw)) != "null" {
		if err := json.Unmarshal(raw, &fields); err != nil {
			return &Error{Err: errors.New("arguments must be a JSON object"), Hints: []string{usage}}
		}
	}
	for k := range fields {
		if _, ok := schema.Properties[k]; !ok {
			return &Error{Err: fmt.Errorf("unknown argument %q", k), Hints: []string{usage}}
		}
	}
	for _, k := range schema.Required {
		if v, ok := fields[k]; !ok || string(v) == "null" {
			return &Error{Err: fmt.Errorf("missing required argument %q", k), Hints: []string{usage}}
		}
	}
	if fields == nil {
		return nil
	}
	for k, v := range fields {
		// A number where a string is wanted is taken as its digits: record
		// IDs are strings ("12", "ADR-0012"), but clients that coerce
		// key=value arguments (the MCP Inspector) and models send 12.
		if p := schema.Properties[k]; p != nil && p.Type == "string" && isJSONNumber(v) {
			fields[k], _ = json.Marshal(string(bytes.TrimSpace(v)))
		}
	}
	b, _ := json.Marshal(fields)
	if err := json.Unmarshal(b, in); err != nil {
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) {
			want := te.Type.String()
			if p := schema.Properties[te.Field]; p != nil && p.Type != "" {
				want = p.Type
			}
			return &Error{Err: fmt.Errorf("argument %q must be %s %s, not %s", te.Field, article(want), want, te.Value), Hints: []string{usage}}
		}
		return &Error{Err: fmt.Errorf("arguments: %v", err), Hints: []string{usage}}
	}
	return nil
}

// isJSONNumber reports a JSON number literal.
func isJSONNumber(v json.RawMessage) bool {
	v = bytes.TrimSpace(v)
	if len(v) == 0 || v[0] != '-' && (v[0] < '0' || v[0] > '9') {
		return false
	}
	var n json.Number
	return json.Unmarshal(v, &n) == nil
}

// argSummary lists the arguments as "name (type, required), ...".
func argSummary(schema *jsonschema.Schema, names []string) string {
	if len(names) == 0 {
		return "none"
	}
	parts := make([]string, len(names))
	for i, n := range names {
		p := schema.Properties[n]
		kind := p.Type
		if slices.Contains(schema.Required, n) {
			kind += ", required"
		}
		parts[i] = fmt.Sprintf("%s (%s)", n, kind)
	}
	return strings.Join(parts, ", ")
}

func article(word string) string {
	if word != "" && strings.ContainsRune("aeiou", rune(word[0])) {
		return "an"
	}
	return "a"
}
