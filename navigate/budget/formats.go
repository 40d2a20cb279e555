package budget

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
)

// decodeOpenAI reads an OpenAI chat message.
func decodeOpenAI(m *Message) error {
	var v struct {
		Role      string          `json:"role"`
		Content   json.RawMessage `json:"content"`
		ToolCalls []struct {
			ID       string `json:"id"`
			Type     string `json:"type"`
			Function struct {
				Name      string `json:"name"`
				Arguments string `json:"arguments"`
			} `json:"function"`
		} `json:"tool_calls"`
		ToolCallID   string          `json:"tool_call_id"`
		FunctionCall json.RawMessage `json:"function_call"`
	}
	if err := json.Unmarshal(m.raw, &v); err != nil {
		return fmt.Errorf("not an OpenAI chat message: %v", err)
	}
	m.Role = v.Role
	text, err := textOf(v.Content)
	if err != nil {
		return err
	}
	switch v.Role {
	case "system", "developer", "user":
		m.Text = text
		m.excerpt = v.Role == "user" && strings.HasPrefix(text, ExcerptLabel)
	case "assistant":
		if len(v.FunctionCall) > 0 && string(v.FunctionCall) != "null" {
			return errors.New(`"function_call" (the deprecated form) is not supported; use "tool_calls"`)
		}
		m.Text = text
		for _, tc := range v.ToolCalls {
			if tc.ID == "" || tc.Function.Name == "" {
				return errors.New("a tool call without an id or a function name")
			}
			if tc.Type != "" && tc.Type != "function" {
				return fmt.Errorf("tool call %q has type %q; only function calls are read", tc.ID, tc.Type)
			}
			if err := objectArgs([]byte(tc.Function.Arguments)); err != nil {
				return fmt.Errorf("tool call %q: %v", tc.ID, err)
			}
			m.Calls = append(m.Calls, &Call{ID: tc.ID, Name: tc.Function.Name, Args: json.RawMessage(tc.Function.Arguments)})
		}
	case "tool":
		if v.ToolCallID == "" {
			return errors.New(`a tool message without "tool_call_id"`)
		}
		m.Results = []*Result{{CallID: v.ToolCallID, Text: text, Error: looksLikeError(text)}}
	case "":
		return errors.New(`a message without "role"`)
	default:
		return fmt.Errorf("unknown role %q (OpenAI roles: system, developer, user, assistant, tool)", v.Role)
	}
	return nil
}

// looksLikeError guesses whether an OpenAI tool result reports a failure:
// the format has no error flag, so text starting with "error" or
// "denied", or a JSON object with an "error" field, counts as one.
func looksLikeError(text string) bool {
	t := strings.ToLower(strings.TrimSpace(text))
	if strings.HasPrefix(t, "error") || strings.HasPrefix(t, "denied") || strings.HasPrefix(t, "permission denied") {
		return true
	}
	var obj map[string]json.RawMessage
	if json.Unmarshal([]byte(text), &obj) == nil {
		_, ok := obj["error"]
		return ok
	}
	return false
}

// anthropicBlock is one content block of an Anthropic message.
type anthropicBlock struct {
	Type      string          `json:"type"`
	Text      string          `json:"text"`
	ID        string          `json:"id"`
	Name      string          `json:"name"`
	Input     json.RawMessage `json:"input"`
	ToolUseID string          `json:"tool_use_id"`
	Content   json.RawMessage `json:"content"`
	IsError   bool            `json:"is_error"`
}

// decodeAnthropic reads an Anthropic message.
func decodeAnthropic(m *Message) error {
	var v struct {
		Role    string          `json:"role"`
		Content json.RawMessage `json:"content"`
	}
	if err := json.Unmarshal(m.raw, &v); err != nil {
		return fmt.Errorf("not an Anthropic message: %v", err)
	}
	m.Role = v.Role
	switch v.Role {
	case "user", "assistant":
	case "":
		return errors.New(`a message without "role"`)
	default:
		return fmt.Errorf("unknown role %q (Anthropic messages are user or assistant; the system prompt is the request's \"system\")", v.Role)
	}
	var s string
	if json.Unmarshal(v.Content, &s) == nil {
		m.Text = s
		m.excerpt = v.Role == "user" && strings.HasPrefix(s, ExcerptLabel)
		return nil
	}
	var raws []json.RawMessage
	if err := json.Unmarshal(v.Content, &raws); err != nil {
		return errors.New(`"content" is neither text nor an array of blocks`)
	}
	var text []string
	for _, raw := range raws {
		var b anthropicBlock
		if err := json.Unmarshal(raw, &b); err != nil {
			return fmt.Errorf("a content block: %v", err)
		}
		switch b.Type {
		case "tool_use":
			if v.Role != "assistant" {
				return errors.New("a tool_use block in a user message")
			}
			if b.ID == "" || b.Name == "" {
				return errors.New("a tool_use block without an id or a name")
			}
			if err := objectArgs(b.Input); err != nil {
				return fmt.Errorf("tool_use %q: %v", b.ID, err)
			}
			m.Calls = append(m.Calls, &Call{ID: b.ID, Name: b.Name, Args: compact(b.Input)})
		case "tool_result":
			if v.Role != "user" {
				return errors.New("a tool_result block in an assistant message")
			}
			if b.ToolUseID == "" {
				return errors.New(`a tool_result block without "tool_use_id"`)
			}
			rt, err := textOf(b.Content)
			if err != nil {
				return fmt.Errorf("tool_result %q: %v", b.ToolUseID, err)
			}
			m.Results = append(m.Results, &Result{CallID: b.ToolUseID, Text: rt, Error: b.IsError})
		case "text":
			text = append(text, b.Text)
			m.keep = append(m.keep, raw)
		default:
			text = append(text, "["+b.Type+"]")
			m.keep = append(m.keep, raw)
		}
	}
	m.Text = strings.Join(text, "\n")
	m.excerpt = v.Role == "user" && len(text) > 0 && strings.HasPrefix(text[0], ExcerptLabel)
	return nil
}

func compact(raw json.RawMessage) json.RawMessage {
	var b bytes.Buffer
	if json.Compact(&b, raw) != nil {
		return raw
	}
	return b.Bytes()
}

// excerptMessage is the message that replaces a compacted group: a user
// message holding the excerpt (and, in Anthropic's format, the results
// message's own text and images, which are the user's).
func (t *Transcript) excerptMessage(g *Group, text string) json.RawMessage {
	enc := func(v any) json.RawMessage {
		var b bytes.Buffer
		e := json.NewEncoder(&b)
		e.SetEscapeHTML(false)
		if err := e.Encode(v); err != nil {
			panic(err) // strings and raw JSON always encode
		}
		return bytes.TrimSuffix(b.Bytes(), []byte("\n"))
	}
	if t.Format == OpenAI {
		return enc(struct {
			Role    string `json:"role"`
			Content string `json:"content"`
		}{"user", text})
	}
	blocks := []json.RawMessage{enc(struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}{"text", text})}
	for _, m := range g.Messages[1:] {
		blocks = append(blocks, m.keep...)
	}
	return enc(struct {
		Role    string            `json:"role"`
		Content []json.RawMessage `json:"content"`
	}{"user", blocks})
}

// render writes the request: the transcript's shape with these messages.
func (t *Transcript) render(msgs []json.RawMessage) []byte {
	var b bytes.Buffer
	switch t.Shape {
	case Lines:
		for _, m := range msgs {
			b.Write(m)
			b.WriteByte('\n')
		}
		return b.Bytes()
	case Array:
		writeArray(&b, msgs)
	default:
		b.WriteByte('{')
		for i, f := range t.fields {
			if i > 0 {
				b.WriteByte(',')
			}
			k, _ := json.Marshal(f.key)
			b.Write(k)
			b.WriteByte(':')
			if i == t.messagesAt {
				writeArray(&b, msgs)
			} else {
				b.Write(compact(f.val))
			}
		}
		b.WriteByte('}')
	}
	b.WriteByte('\n')
	return b.Bytes()
}

func writeArray(b *bytes.Buffer, msgs []json.RawMessage) {
	b.WriteByte('[')
	for i, m := range msgs {
		if i > 0 {
			b.WriteByte(',')
		}
		b.Write(m)
	}
	b.WriteByte(']')
}

// envelope is the request without its messages, for counting.
func (t *Transcript) envelope() []byte {
	if t.Shape != Request {
		return nil
	}
	return t.render(nil)
}
