package budget

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
)

// Format is a transcript's request format.
type Format string

// Formats.
const (
	// Auto detects the format from the messages.
	Auto      Format = ""
	OpenAI    Format = "openai"
	Anthropic Format = "anthropic"
)

// Shape is how the transcript is written.
type Shape string

// Shapes.
const (
	// Request is a request object with a "messages" array.
	Request Shape = "request"
	// Array is a bare array of messages.
	Array Shape = "array"
	// Lines is JSON Lines: one message per line.
	Lines Shape = "jsonl"
)

// Transcript is a decoded, validated transcript.
type Transcript struct {
	Format Format
	Shape  Shape
	// fields are a request's other top-level fields, in order; the
	// messages go where messagesAt says.
	fields     []field
	messagesAt int
	Messages   []*Message
	Groups     []*Group
}

type field struct {
	key string
	val json.RawMessage
}

// Message is one message of the transcript.
type Message struct {
	Index int
	Role  string
	// raw is the message's exact JSON (compacted); a retained message is
	// written back as raw.
	raw json.RawMessage
	// Text is the message's own text (not its calls or results).
	Text    string
	Calls   []*Call
	Results []*Result
	// keep are an Anthropic user message's blocks that are not tool
	// results (its own text, images): they survive a compaction.
	keep []json.RawMessage
	// excerpt: a message written by an earlier compaction.
	excerpt bool
	group   *Group
}

// Call is one tool call.
type Call struct {
	ID, Name string
	// Args is the arguments object, as sent.
	Args   json.RawMessage
	Result *Result
}

// Result is the result of a call.
type Result struct {
	CallID string
	Text   string
	Error  bool
	msg    *Message
}

// Group is an assistant message's tool calls with all their results: the
// unit that is compacted or kept, both sides together.
type Group struct {
	Index int
	// Messages are the assistant message and the messages holding the
	// results, in transcript order.
	Messages []*Message
	Calls    []*Call
}

// InputError is a transcript that cannot be planned: malformed JSON, an
// unknown format or role, or an invalid or unanswered call history. Where
// names the message ("message 4", "line 7").
type InputError struct {
	Where string
	Msg   string
}

func (e *InputError) Error() string {
	if e.Where == "" {
		return e.Msg
	}
	return e.Where + ": " + e.Msg
}

func inputErr(where, format string, args ...any) error {
	return &InputError{Where: where, Msg: fmt.Sprintf(format, args...)}
}

// ExcerptLabel starts every excerpt this package writes.
const ExcerptLabel = "[git-adr budget: excerpt of an earlier tool exchange"

// Decode reads a transcript in a format (Auto detects it) and validates
// its call history.
func Decode(data []byte, f Format) (*Transcript, error) {
	switch f {
	case Auto, OpenAI, Anthropic:
	default:
		return nil, inputErr("", "unknown format %q (use openai or anthropic)", f)
	}
	t := &Transcript{Format: f}
	raws, where, err := t.split(data)
	if err != nil {
		return nil, err
	}
	if t.Format == Auto {
		if t.Format, err = detect(raws, t.fields); err != nil {
			return nil, err
		}
	}
	for i, raw := range raws {
		m := &Message{Index: i, raw: raw}
		if err := t.decodeMessage(m); err != nil {
			return nil, inputErr(where(i), "%v", err)
		}
		t.Messages = append(t.Messages, m)
	}
	if err := t.link(where); err != nil {
		return nil, err
	}
	return t, nil
}

// split finds the messages: a request object, an array, or JSON Lines.
func (t *Transcript) split(data []byte) ([]json.RawMessage, func(int) string, error) {
	trimmed := bytes.TrimSpace(data)
	msgWhere := func(i int) string { return fmt.Sprintf("message %d", i+1) }
	if len(trimmed) == 0 {
		return nil, nil, inputErr("", "the transcript is empty")
	}
	if trimmed[0] == '[' {
		t.Shape = Array
		var raws []json.RawMessage
		if err := json.Unmarshal(trimmed, &raws); err != nil {
			return nil, nil, inputErr("", "not a JSON array of messages: %v", err)
		}
		return compactAll(raws), msgWhere, nil
	}
	if trimmed[0] != '{' {
		return nil, nil, inputErr("", "not JSON: a transcript is a request object, an array of messages or JSON Lines")
	}
	// One object over the whole input is a request; several are lines.
	dec := json.NewDecoder(bytes.NewReader(trimmed))
	var first json.RawMessage
	if err := dec.Decode(&first); err == nil && !dec.More() {
		if fields, ok, err := objectFields(first); err != nil {
			return nil, nil, inputErr("", "%v", err)
		} else if ok && hasKey(fields, "messages") {
			t.Shape = Request
			var raws []json.RawMessage
			for i, fl := range fields {
				if fl.key == "messages" {
					if err := json.Unmarshal(fl.val, &raws); err != nil {
						return nil, nil, inputErr("", `"messages" is not an array of messages: %v`, err)
					}
					t.messagesAt = i
				}
			}
			t.fields = fields
			return compactAll(raws), msgWhere, nil
		}
	}
	t.Shape = Lines
	var raws []json.RawMessage
	var lines []int
	for n, line := range bytes.Split(trimmed, []byte("\n")) {
		line = bytes.TrimSpace(line)
		if len(line) == 0 {
			continue
		}
		where := fmt.Sprintf("line %d", n+1)
		fields, ok, err := objectFields(line)
		if err != nil || !ok {
			return nil, nil, inputErr(where, "not a JSON object")
		}
		if !hasKey(fields, "role") {
			inner, found := value(fields, "message")
			if !found {
				return nil, nil, inputErr(where, `not a message: no "role" and no "message"`)
			}
			line = inner
		}
		raws = append(raws, line)
		lines = append(lines, n+1)
	}
	return compactAll(raws), func(i int) string { return fmt.Sprintf("line %d", lines[i]) }, nil
}

// objectFields reads a JSON object's fields in order; ok is false when the
// value is not an object. A repeated key is an error.
func objectFields(data []byte) ([]field, bool, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	tok, err := dec.Token()
	if err != nil {
		return nil, false, err
	}
	if d, isDelim := tok.(json.Delim); !isDelim || d != '{' {
		return nil, false, nil
	}
	var fs []field
	seen := map[string]bool{}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, false, err
		}
		k := tok.(string)
		if seen[k] {
			return nil, false, fmt.Errorf("key %q appears twice", k)
		}
		seen[k] = true
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return nil, false, err
		}
		fs = append(fs, field{k, v})
	}
	if _, err := dec.Token(); err != nil {
		return nil, false, err
	}
	if dec.More() {
		return nil, false, errors.New("trailing data after the object")
	}
	return fs, true, nil
}

func hasKey(fs []field, k string) bool { _, ok := value(fs, k); return ok }

func value(fs []field, k string) (json.RawMessage, bool) {
	for _, f := range fs {
		if f.key == k {
			return f.val, true
		}
	}
	return nil, false
}

func compactAll(raws []json.RawMessage) []json.RawMessage {
	for i, r := range raws {
		var b bytes.Buffer
		if json.Compact(&b, r) == nil {
			raws[i] = b.Bytes()
		}
	}
	return raws
}

// detect names the format from what only one of them has.
func detect(raws []json.RawMessage, top []field) (Format, error) {
	oa, an := "", ""
	if hasKey(top, "system") {
		an = `a top-level "system"`
	}
	for i, raw := range raws {
		var m struct {
			Role       string          `json:"role"`
			ToolCalls  json.RawMessage `json:"tool_calls"`
			ToolCallID string          `json:"tool_call_id"`
			Content    json.RawMessage `json:"content"`
		}
		if json.Unmarshal(raw, &m) != nil {
			continue
		}
		switch {
		case oa == "" && (m.Role == "tool" || m.Role == "system" || m.Role == "developer" || len(m.ToolCalls) > 0 && string(m.ToolCalls) != "null"):
			oa = fmt.Sprintf("message %d (role %s)", i+1, m.Role)
		}
		var blocks []struct {
			Type string `json:"type"`
		}
		if an == "" && json.Unmarshal(m.Content, &blocks) == nil {
			for _, b := range blocks {
				if b.Type == "tool_use" || b.Type == "tool_result" {
					an = fmt.Sprintf("message %d (a %s block)", i+1, b.Type)
					break
				}
			}
		}
	}
	switch {
	case oa != "" && an != "":
		return "", inputErr("", "the transcript mixes OpenAI (%s) and Anthropic (%s) messages; pass the format", oa, an)
	case an != "":
		return Anthropic, nil
	}
	// Plain user/assistant text reads the same in both.
	return OpenAI, nil
}

// decodeMessage reads one message in the transcript's format.
func (t *Transcript) decodeMessage(m *Message) error {
	if t.Format == OpenAI {
		return decodeOpenAI(m)
	}
	return decodeAnthropic(m)
}

// link pairs every call with its result and forms the tool groups,
// refusing a history a provider would refuse: calls answered late or not
// at all, results of unknown or already answered calls, repeated IDs.
func (t *Transcript) link(where func(int) string) error {
	calls := map[string]*Call{}
	var open *Group // the group whose results must come next
	finish := func(at int) error {
		if open == nil {
			return nil
		}
		for _, c := range open.Calls {
			if c.Result == nil {
				return inputErr(where(open.Messages[0].Index), "call %q (%s) has no result before %s; an unanswered call cannot be sent", c.ID, c.Name, describeAt(t, at, where))
			}
		}
		open = nil
		return nil
	}
	for i, m := range t.Messages {
		switch {
		case len(m.Results) > 0:
			if open == nil {
				return inputErr(where(i), "result for call %q follows no call", m.Results[0].CallID)
			}
			for _, r := range m.Results {
				c, ok := calls[r.CallID]
				switch {
				case !ok:
					return inputErr(where(i), "result for call %q, which was never made", r.CallID)
				case c.Result != nil:
					return inputErr(where(i), "second result for call %q", r.CallID)
				case !contains(open.Calls, c):
					return inputErr(where(i), "result for call %q comes after other messages; results must follow their call", r.CallID)
				}
				c.Result, r.msg = r, m
			}
			open.Messages = append(open.Messages, m)
			m.group = open
			if t.Format == Anthropic {
				// Anthropic answers all of a turn's calls in the next
				// user message.
				if err := finish(i + 1); err != nil {
					return err
				}
			}
		default:
			if err := finish(i); err != nil {
				return err
			}
		}
		if len(m.Calls) > 0 {
			g := &Group{Index: len(t.Groups), Messages: []*Message{m}}
			for _, c := range m.Calls {
				if _, dup := calls[c.ID]; dup {
					return inputErr(where(i), "call ID %q is used twice", c.ID)
				}
				calls[c.ID] = c
				g.Calls = append(g.Calls, c)
			}
			m.group = g
			t.Groups = append(t.Groups, g)
			open = g
		}
	}
	return finish(len(t.Messages))
}

func describeAt(t *Transcript, at int, where func(int) string) string {
	if at >= len(t.Messages) {
		return "the end of the transcript"
	}
	return where(at)
}

func contains(cs []*Call, c *Call) bool {
	for _, x := range cs {
		if x == c {
			return true
		}
	}
	return false
}

// instruction reports whether m is a user instruction: a user message of
// its own (no tool results, not an excerpt).
func (m *Message) instruction() bool {
	return m.Role == "user" && len(m.Results) == 0 && !m.excerpt
}

// textOf reads OpenAI or Anthropic content: a string, or an array of
// parts whose text parts are joined (other parts are named in brackets).
func textOf(content json.RawMessage) (string, error) {
	if len(content) == 0 || string(content) == "null" {
		return "", nil
	}
	var s string
	if json.Unmarshal(content, &s) == nil {
		return s, nil
	}
	var parts []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}
	if err := json.Unmarshal(content, &parts); err != nil {
		return "", errors.New(`"content" is neither text nor an array of parts`)
	}
	var b strings.Builder
	for _, p := range parts {
		if b.Len() > 0 {
			b.WriteString("\n")
		}
		if p.Type == "text" {
			b.WriteString(p.Text)
		} else {
			b.WriteString("[" + p.Type + "]")
		}
	}
	return b.String(), nil
}

// objectArgs checks that arguments are a JSON object.
func objectArgs(args []byte) error {
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(args, &obj); err != nil || obj == nil {
		return errors.New("its arguments are not a JSON object")
	}
	return nil
}
