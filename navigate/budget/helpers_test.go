package budget

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// transcript builds OpenAI or Anthropic transcripts for tests.
type transcript struct {
	format Format
	system string
	msgs   []any
	n      int
}

func newTranscript(f Format) *transcript { return &transcript{format: f} }

func (b *transcript) user(text string) *transcript {
	b.msgs = append(b.msgs, map[string]any{"role": "user", "content": text})
	return b
}

func (b *transcript) sys(text string) *transcript {
	if b.format == Anthropic {
		b.system = text
		return b
	}
	b.msgs = append(b.msgs, map[string]any{"role": "system", "content": text})
	return b
}

func (b *transcript) assistant(text string) *transcript {
	b.msgs = append(b.msgs, map[string]any{"role": "assistant", "content": text})
	return b
}

// exchange is one call made and answered.
type exchange struct {
	name   string
	args   map[string]any
	result string
	err    bool
}

// calls adds an assistant message making the calls (in parallel) and
// their results.
func (b *transcript) calls(say string, xs ...exchange) *transcript {
	ids := make([]string, len(xs))
	for i := range xs {
		b.n++
		ids[i] = fmt.Sprintf("call_%03d", b.n)
	}
	if b.format == OpenAI {
		var tcs []any
		for i, x := range xs {
			a, _ := json.Marshal(x.args)
			tcs = append(tcs, map[string]any{"id": ids[i], "type": "function", "function": map[string]any{"name": x.name, "arguments": string(a)}})
		}
		m := map[string]any{"role": "assistant", "content": nil, "tool_calls": tcs}
		if say != "" {
			m["content"] = say
		}
		b.msgs = append(b.msgs, m)
		for i, x := range xs {
			r := x.result
			if x.err {
				r = "Error: " + r
			}
			b.msgs = append(b.msgs, map[string]any{"role": "tool", "tool_call_id": ids[i], "content": r})
		}
		return b
	}
	var uses, results []any
	if say != "" {
		uses = append(uses, map[string]any{"type": "text", "text": say})
	}
	for i, x := range xs {
		uses = append(uses, map[string]any{"type": "tool_use", "id": ids[i], "name": x.name, "input": x.args})
		r := map[string]any{"type": "tool_result", "tool_use_id": ids[i], "content": x.result}
		if x.err {
			r["is_error"] = true
		}
		results = append(results, r)
	}
	b.msgs = append(b.msgs, map[string]any{"role": "assistant", "content": uses})
	b.msgs = append(b.msgs, map[string]any{"role": "user", "content": results})
	return b
}

func (b *transcript) call(name string, args map[string]any, result string) *transcript {
	return b.calls("", exchange{name: name, args: args, result: result})
}

func (b *transcript) bytes() []byte {
	req := map[string]any{"model": "m", "messages": b.msgs}
	if b.system != "" {
		req["system"] = b.system
	}
	data, err := json.Marshal(req)
	if err != nil {
		panic(err)
	}
	return data
}

func read(path, content string) exchange {
	return exchange{name: "read_file", args: map[string]any{"path": path}, result: content}
}

func shell(cmd, out string) exchange {
	return exchange{name: "run_shell", args: map[string]any{"command": cmd}, result: out}
}

// big is n lines of distinct text.
func big(tag string, n int) string {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, "%s line %d: the quick brown fox jumps over the lazy dog %d\n", tag, i, i*7)
	}
	return b.String()
}

func plan(t *testing.T, data []byte, o Options) (*Transcript, *Plan) {
	t.Helper()
	tr, err := Decode(data, Auto)
	if err != nil {
		t.Fatalf("Decode: %v", err)
	}
	p, err := NewPlan(tr, data, o)
	if err != nil {
		t.Fatalf("NewPlan: %v", err)
	}
	return tr, p
}

// size is the transcript's token count, to set budgets relative to it.
func size(t *testing.T, data []byte) int {
	_, p := plan(t, data, Options{Budget: 1 << 30})
	return p.Before.Tokens
}

func compactedGroups(p *Plan) []int {
	var gs []int
	for _, a := range p.Compacted {
		gs = append(gs, a.Group)
	}
	return gs
}

func keptReason(p *Plan, group int) string {
	for _, a := range p.Kept {
		if a.Group == group {
			return a.Reason
		}
	}
	return ""
}

// mustApply applies a plan that must fit, and checks that the outbound
// request is itself a valid transcript (pairs consistent).
func mustApply(t *testing.T, p *Plan) []byte {
	t.Helper()
	out, err := p.Apply()
	if err != nil {
		t.Fatalf("Apply: %v", err)
	}
	if _, err := Decode(out, p.Format); err != nil {
		t.Fatalf("the outbound request is not a valid transcript: %v\n%s", err, out)
	}
	return out
}
