package budget

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// ADR-0069: old complete tool groups of the newest exchange are replaced,
// oldest first, by labelled excerpts until the request fits; the latest
// two groups stay; the excerpt has the tool name, bounded arguments and a
// result excerpt.
func TestOldHistoryCompaction(t *testing.T) {
	for _, f := range []Format{OpenAI, Anthropic} {
		t.Run(string(f), func(t *testing.T) {
			b := newTranscript(f).sys("You are a coding agent.").user("earlier task").assistant("done").
				user("fix the failing test in orders")
			for i := range 6 {
				b.call("run_shell", map[string]any{"command": fmt.Sprintf("go test ./orders/... -run T%d", i), "timeout": 60}, big(fmt.Sprintf("out%d", i), 40))
			}
			data := b.bytes()
			total := size(t, data)
			_, p := plan(t, data, Options{Budget: total * 6 / 10, KeepLatestReads: true})
			if !p.Fits {
				t.Fatalf("does not fit: %s", p.Failure)
			}
			got := compactedGroups(p)
			if len(got) == 0 || got[0] != 1 || !slices.IsSorted(got) {
				t.Errorf("compacted groups %v, want the oldest first", got)
			}
			if slices.Contains(got, 5) || slices.Contains(got, 6) {
				t.Errorf("compacted %v includes one of the latest two groups", got)
			}
			if r := keptReason(p, 6); r != ReasonLatest {
				t.Errorf("group 6 kept for %q", r)
			}
			// Only as much as needed: the groups left are "not needed".
			if len(got) < 4 && keptReason(p, 4) != ReasonFits {
				t.Errorf("group 4: %q, want %q", keptReason(p, 4), ReasonFits)
			}
			if p.After.Tokens > p.Budget || p.After.Tokens >= p.Before.Tokens {
				t.Errorf("tokens %d -> %d, budget %d", p.Before.Tokens, p.After.Tokens, p.Budget)
			}
			out := string(mustApply(t, p))
			for _, want := range []string{ExcerptLabel, "not a call to make again", "call 1: run_shell(command=\\\"go test ./orders/... -run T0\\\", timeout=60)", "result 1 (ok, ", "out0 line 0: the quick brown fox", "more characters]"} {
				if !strings.Contains(out, want) {
					t.Errorf("the outbound request lacks %q", want)
				}
			}
			if strings.Contains(out, "out0 line 39") {
				t.Errorf("the excerpt is not bounded")
			}
			// The earlier exchange and the instructions stay.
			for _, want := range []string{"earlier task", "fix the failing test in orders", "You are a coding agent."} {
				if !strings.Contains(out, want) {
					t.Errorf("lost %q", want)
				}
			}
		})
	}
}

// ADR-0069: retained calls keep their original arguments and identifiers
// byte for byte; both sides of a compacted pair go together; the durable
// transcript is not changed.
func TestProtocolConsistency(t *testing.T) {
	for _, f := range []Format{OpenAI, Anthropic} {
		t.Run(string(f), func(t *testing.T) {
			b := newTranscript(f).user("refactor the cache")
			b.calls("Reading both files.", read("a.go", big("a", 30)), read("b.go", big("b", 30)))
			b.call("run_shell", map[string]any{"command": "go vet ./...", "tags": []string{"x", "y"}}, big("vet", 30))
			b.call("run_shell", map[string]any{"command": "go test ./..."}, "ok")
			b.call("edit_file", map[string]any{"path": "a.go", "old": "x", "new": "y"}, "edited")
			data := b.bytes()
			orig := append([]byte(nil), data...)
			tr, p := plan(t, data, Options{Budget: size(t, data) / 2})
			out := mustApply(t, p)
			if !bytes.Equal(data, orig) {
				t.Fatal("planning changed the transcript")
			}
			if got := compactedGroups(p); !reflect.DeepEqual(got, []int{1, 2}) {
				t.Fatalf("compacted %v, want [1 2]", got)
			}
			// The parallel group is one excerpt: both calls, both results.
			if n := strings.Count(string(out), "call 2: read_file"); n != 1 {
				t.Errorf("parallel calls excerpted %d times", n)
			}
			for _, id := range []string{"call_001", "call_002", "call_003"} {
				if strings.Contains(string(out), `"`+id+`"`) {
					t.Errorf("compacted call %s still has a protocol side in the request", id)
				}
			}
			// Retained messages are the original bytes.
			for _, m := range tr.Messages {
				if m.group != nil && m.group.Index >= 2 && !bytes.Contains(out, m.raw) {
					t.Errorf("retained message %d changed", m.Index+1)
				}
			}
			back, err := Decode(out, f)
			if err != nil {
				t.Fatal(err)
			}
			if len(back.Groups) != 2 {
				t.Errorf("the request has %d tool groups, want the 2 retained", len(back.Groups))
			}
		})
	}
}

// ADR-0069: planning is deterministic; applying the same plan twice gives
// the same bytes; the outbound request planned again needs no change.
func TestDeterministicPlanning(t *testing.T) {
	b := newTranscript(OpenAI).user("task")
	for i := range 8 {
		b.call("run_shell", map[string]any{"command": fmt.Sprint("step ", i)}, big(fmt.Sprint("s", i), 20))
	}
	data := b.bytes()
	o := Options{Budget: size(t, data) * 7 / 10, KeepLatestReads: true}
	var first, firstOut []byte
	for i := range 3 {
		_, p := plan(t, data, o)
		j, _ := json.Marshal(p)
		out := mustApply(t, p)
		again := mustApply(t, p)
		if !bytes.Equal(out, again) {
			t.Fatal("applying the same plan twice differs")
		}
		if i == 0 {
			first, firstOut = j, out
			continue
		}
		if !bytes.Equal(j, first) || !bytes.Equal(out, firstOut) {
			t.Fatal("planning twice differs")
		}
	}
	_, p := plan(t, firstOut, o)
	if !p.Fits || len(p.Compacted) != 0 {
		t.Errorf("the compacted request planned again: fits %v, %d more groups compacted", p.Fits, len(p.Compacted))
	}
	if out := mustApply(t, p); !bytes.Equal(out, firstOut) {
		t.Errorf("re-applying to the outbound request changed it")
	}
}

// The latest two tool groups are never compacted, however small the
// budget: an honest failure says why.
func TestLatestTwoKeptAndHonestFailure(t *testing.T) {
	b := newTranscript(OpenAI).sys("system prompt").user("task")
	b.call("run_shell", map[string]any{"command": "a"}, big("a", 50))
	b.call("run_shell", map[string]any{"command": "b"}, big("b", 50))
	b.call("run_shell", map[string]any{"command": "c"}, big("c", 50))
	data := b.bytes()
	_, p := plan(t, data, Options{Budget: 200})
	if p.Fits {
		t.Fatal("fits a budget smaller than the latest two groups")
	}
	if got := compactedGroups(p); !reflect.DeepEqual(got, []int{1}) {
		t.Errorf("compacted %v, want only group 1", got)
	}
	for _, want := range []string{"over the budget of 200", "the latest 2 tool groups take"} {
		if !strings.Contains(p.Failure, want) {
			t.Errorf("failure %q lacks %q", p.Failure, want)
		}
	}
	if _, err := p.Apply(); !errors.Is(err, ErrBudget) {
		t.Errorf("Apply of a failed plan = %v, want ErrBudget", err)
	}
	// KeepGroups is an option.
	_, p = plan(t, data, Options{Budget: 1, KeepGroups: 1})
	if got := compactedGroups(p); !reflect.DeepEqual(got, []int{1, 2}) {
		t.Errorf("KeepGroups 1: compacted %v", got)
	}
}

// Older exchanges are trimmed whole, oldest first, when the excerpts are
// not enough; system messages and the newest instruction stay.
func TestTrimsOlderExchangesWhereInstructionsDoNotFit(t *testing.T) {
	b := newTranscript(OpenAI).sys("system prompt")
	b.user("first task " + big("first", 40)).assistant("ok")
	b.user("second task").call("run_shell", map[string]any{"command": "x"}, big("x", 40)).assistant("done")
	b.user("third task, the newest").call("run_shell", map[string]any{"command": "y"}, "short")
	data := b.bytes()
	total := size(t, data)
	_, p := plan(t, data, Options{Budget: total - 200})
	if !p.Fits || len(p.Trimmed) != 1 || p.Trimmed[0].Messages[0] != 2 {
		t.Fatalf("trimmed %+v (fits %v), want the first exchange", p.Trimmed, p.Fits)
	}
	out := string(mustApply(t, p))
	if strings.Contains(out, "first task") || !strings.Contains(out, "second task") || !strings.Contains(out, "system prompt") || !strings.Contains(out, "the newest") {
		t.Errorf("wrong messages trimmed: %s", out[:200])
	}
	// Tool groups of older exchanges are trimmed whole, never excerpted.
	_, p = plan(t, data, Options{Budget: 400})
	if len(p.Compacted) != 0 || len(p.Trimmed) != 2 {
		t.Errorf("compacted %v trimmed %v, want the two older exchanges trimmed", p.Compacted, p.Trimmed)
	}
	out = string(mustApply(t, p))
	if strings.Contains(out, "second task") || strings.Contains(out, `"call_001"`) {
		t.Errorf("the second exchange or half of its pair is left")
	}
}

// Error and denial text is part of the excerpt.
func TestExcerptKeepsErrorsAndDenials(t *testing.T) {
	for _, f := range []Format{OpenAI, Anthropic} {
		b := newTranscript(f).user("task")
		b.calls("", exchange{name: "run_shell", args: map[string]any{"command": "rm -rf /tmp/x"}, result: "permission denied by the owner: destructive command " + big("d", 60), err: true})
		b.call("run_shell", map[string]any{"command": "ls"}, big("ls", 5))
		b.call("run_shell", map[string]any{"command": "pwd"}, big("pwd", 5))
		data := b.bytes()
		_, p := plan(t, data, Options{Budget: size(t, data) * 7 / 10})
		out := string(mustApply(t, p))
		if !strings.Contains(out, "result 1 (error, ") || !strings.Contains(out, "permission denied by the owner: destructive command") {
			t.Errorf("%s: the excerpt lost the denial: %s", f, out)
		}
	}
}

// keep-latest-read, case 1: the latest read is kept while an older shell
// result is evicted.
func TestKeepLatestReadWhileOlderShellEvicted(t *testing.T) {
	b := newTranscript(OpenAI).user("task")
	b.calls("", shell("make", big("make", 40)))
	b.calls("", read("main.go", big("main", 40)))
	b.calls("", shell("ls", "a"), shell("pwd", "b"))
	b.calls("", shell("date", "c"))
	data := b.bytes()
	_, p := plan(t, data, Options{Budget: size(t, data) * 7 / 10, KeepLatestReads: true})
	if !p.Fits {
		t.Fatal(p.Failure)
	}
	if got := compactedGroups(p); !reflect.DeepEqual(got, []int{1}) {
		t.Errorf("compacted %v, want the shell group only", got)
	}
	if r := keptReason(p, 2); r != ReasonLatestRead+"main.go" {
		t.Errorf("read group kept for %q", r)
	}
	if !strings.Contains(string(mustApply(t, p)), "main line 39") {
		t.Error("the latest read is not inline")
	}
}

// case 2: only the newest read of a path is kept; an older read of the
// same path is excerpted.
func TestKeepLatestReadOnlyNewestOfAPath(t *testing.T) {
	b := newTranscript(OpenAI).user("task")
	b.calls("", read("main.go", big("old", 40)))
	b.calls("", read("main.go", big("new", 40)))
	b.calls("", shell("ls", "a"))
	b.calls("", shell("pwd", "b"))
	data := b.bytes()
	_, p := plan(t, data, Options{Budget: size(t, data) * 7 / 10, KeepLatestReads: true})
	if got := compactedGroups(p); !reflect.DeepEqual(got, []int{1}) {
		t.Errorf("compacted %v, want the older read", got)
	}
	out := string(mustApply(t, p))
	if !strings.Contains(out, "new line 39") || strings.Contains(out, "old line 39") {
		t.Error("the wrong read of main.go is inline")
	}
}

// case 3: the newest read of each distinct path is kept.
func TestKeepLatestReadEachDistinctPath(t *testing.T) {
	b := newTranscript(Anthropic).user("task")
	b.calls("", read("a.go", big("a", 30)))
	b.calls("", shell("make", big("make", 60)))
	b.calls("", read("b.go", big("b", 30)), read("a.go", big("a2", 10)))
	b.calls("", read("c.go", big("c", 30)))
	b.calls("", shell("ls", "x"))
	b.calls("", shell("pwd", "y"))
	data := b.bytes()
	_, p := plan(t, data, Options{Budget: size(t, data) * 75 / 100, KeepLatestReads: true})
	if !p.Fits {
		t.Fatal(p.Failure)
	}
	if got := compactedGroups(p); !reflect.DeepEqual(got, []int{1, 2}) {
		t.Errorf("compacted %v, want the older read of a.go and the shell", got)
	}
	if r := keptReason(p, 3); r != ReasonLatestRead+"a.go, b.go" {
		t.Errorf("group 3 kept for %q", r)
	}
	if r := keptReason(p, 4); r != ReasonLatestRead+"c.go" {
		t.Errorf("group 4 kept for %q", r)
	}
}

// case 4: a read larger than the cap is excerpted anyway.
func TestKeepLatestReadOversizedStillExcerpted(t *testing.T) {
	b := newTranscript(OpenAI).user("task")
	b.calls("", read("huge.go", big("huge", 200)))
	b.calls("", shell("ls", "a"))
	b.calls("", shell("pwd", "b"))
	data := b.bytes()
	_, p := plan(t, data, Options{Budget: size(t, data) / 2, KeepLatestReads: true, ReadCap: 4000})
	if got := compactedGroups(p); !reflect.DeepEqual(got, []int{1}) {
		t.Errorf("compacted %v, want the oversized read", got)
	}
}

// case 5: with the flag off, reads are compacted like any other group.
func TestKeepLatestReadFlagOff(t *testing.T) {
	b := newTranscript(OpenAI).user("task")
	b.calls("", shell("make", big("make", 40)))
	b.calls("", read("main.go", big("main", 40)))
	b.calls("", shell("ls", "a"))
	b.calls("", shell("date", "c"))
	data := b.bytes()
	o := Options{Budget: size(t, data) * 4 / 10}
	_, p := plan(t, data, o)
	if got := compactedGroups(p); !reflect.DeepEqual(got, []int{1, 2}) {
		t.Errorf("flag off: compacted %v, want both old groups", got)
	}
	o.KeepLatestReads = true
	_, p = plan(t, data, o)
	if got := compactedGroups(p); !reflect.DeepEqual(got, []int{1}) {
		t.Errorf("flag on: compacted %v, want the shell group", got)
	}
	// A failed read is never "the latest read".
	b = newTranscript(OpenAI).user("task")
	b.calls("", exchange{name: "read_file", args: map[string]any{"path": "x.go"}, result: big("missing", 30), err: true})
	b.calls("", shell("ls", "a"))
	b.calls("", shell("date", "c"))
	data = b.bytes()
	_, p = plan(t, data, Options{Budget: size(t, data) / 2, KeepLatestReads: true})
	if got := compactedGroups(p); !reflect.DeepEqual(got, []int{1}) {
		t.Errorf("a failed read was kept: compacted %v", got)
	}
}

// ADR-0069: invalid or unanswered call history is rejected before
// compaction, naming where.
func TestInvalidHistoriesRejected(t *testing.T) {
	oa := func(msgs ...string) []byte {
		return []byte(`{"model":"m","messages":[` + strings.Join(msgs, ",") + `]}`)
	}
	user := `{"role":"user","content":"task"}`
	call := func(id, args string) string {
		return `{"role":"assistant","content":null,"tool_calls":[{"id":"` + id + `","type":"function","function":{"name":"run_shell","arguments":` + fmt.Sprintf("%q", args) + `}}]}`
	}
	res := func(id string) string { return `{"role":"tool","tool_call_id":"` + id + `","content":"ok"}` }
	an := func(msgs ...string) []byte {
		return []byte(`{"model":"m","system":"s","messages":[` + strings.Join(msgs, ",") + `]}`)
	}
	use := func(id string) string {
		return `{"role":"assistant","content":[{"type":"tool_use","id":"` + id + `","name":"run_shell","input":{"command":"ls"}}]}`
	}
	result := func(ids ...string) string {
		var bs []string
		for _, id := range ids {
			bs = append(bs, `{"type":"tool_result","tool_use_id":"`+id+`","content":"ok"}`)
		}
		return `{"role":"user","content":[` + strings.Join(bs, ",") + `]}`
	}
	cases := []struct {
		name string
		data []byte
		want string
	}{
		{"unanswered call", oa(user, call("c1", `{}`)), `message 2: call "c1" (run_shell) has no result before the end of the transcript`},
		{"unanswered then user", oa(user, call("c1", `{}`), user), `call "c1" (run_shell) has no result before message 3`},
		{"result without a call", oa(user, res("c9")), `message 2: result for call "c9" follows no call`},
		{"result of an unknown call", oa(user, call("c1", `{}`), res("c1"), call("c2", `{}`), res("c3")), `message 5: result for call "c3", which was never made`},
		{"second result", oa(user, call("c1", `{}`), res("c1"), res("c1")), `message 4: second result for call "c1"`},
		{"late result", oa(user, call("c1", `{}`), res("c1"), call("c2", `{}`), res("c2"), user, res("c2")), `message 7: result for call "c2" follows no call`},
		{"repeated ID", oa(user, call("c1", `{}`), res("c1"), call("c1", `{}`), res("c1")), `message 4: call ID "c1" is used twice`},
		{"arguments not JSON", oa(user, call("c1", `{"a":`)), `message 2: tool call "c1": its arguments are not a JSON object`},
		{"arguments not an object", oa(user, call("c1", `[1]`)), `its arguments are not a JSON object`},
		{"unknown role", oa(`{"role":"robot","content":"x"}`), `message 1: unknown role "robot"`},
		{"no role", oa(`{"content":"x"}`), `message 1: a message without "role"`},
		{"deprecated function_call", oa(user, `{"role":"assistant","function_call":{"name":"f","arguments":"{}"}}`), `"function_call" (the deprecated form) is not supported`},
		{"anthropic unanswered", an(`{"role":"user","content":"t"}`, use("u1")), `message 2: call "u1" (run_shell) has no result`},
		{"anthropic answered late", an(`{"role":"user","content":"t"}`, use("u1"), `{"role":"user","content":"wait"}`, `{"role":"assistant","content":"ok"}`, result("u1")), `call "u1" (run_shell) has no result before message 3`},
		{"anthropic half answered", an(`{"role":"user","content":"t"}`, `{"role":"assistant","content":[{"type":"tool_use","id":"u1","name":"a","input":{}},{"type":"tool_use","id":"u2","name":"b","input":{}}]}`, result("u1")), `call "u2" (b) has no result`},
		{"anthropic result in assistant", an(`{"role":"assistant","content":[{"type":"tool_result","tool_use_id":"u1","content":"x"}]}`), `a tool_result block in an assistant message`},
		{"anthropic system role", an(`{"role":"system","content":"x"}`), `mixes OpenAI (message 1 (role system)) and Anthropic (a top-level "system")`},
		{"mixed formats", oa(user, call("c1", `{}`), res("c1"), use("u1"), result("u1")), "mixes OpenAI"},
		{"empty", []byte("  "), "the transcript is empty"},
		{"not JSON", []byte("hello"), "not JSON"},
		{"a JSON Lines line that is not a message", []byte(user + "\n" + `{"type":"summary"}` + "\n"), `line 2: not a message`},
		{"duplicate key", []byte(`{"messages":[],"messages":[]}`), `key "messages" appears twice`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := Decode(c.data, Auto)
			var ie *InputError
			if !errors.As(err, &ie) || !strings.Contains(err.Error(), c.want) {
				t.Errorf("Decode = %v, want an InputError with %q", err, c.want)
			}
		})
	}
}

// JSON Lines and bare arrays are read and written in their own shape.
func TestShapes(t *testing.T) {
	b := newTranscript(OpenAI).user("task")
	for i := range 4 {
		b.call("run_shell", map[string]any{"command": fmt.Sprint(i)}, big(fmt.Sprint(i), 30))
	}
	var req struct{ Messages []json.RawMessage }
	json.Unmarshal(b.bytes(), &req)
	var lines, wrapped bytes.Buffer
	for _, m := range req.Messages {
		lines.Write(m)
		lines.WriteString("\n")
		fmt.Fprintf(&wrapped, `{"type":"x","message":%s}`+"\n", m)
	}
	array, _ := json.Marshal(req.Messages)
	for name, data := range map[string][]byte{"jsonl": lines.Bytes(), "wrapped": wrapped.Bytes(), "array": array} {
		tr, p := plan(t, data, Options{Budget: size(t, data) * 3 / 4})
		out := mustApply(t, p)
		want := Lines
		if name == "array" {
			want = Array
		}
		if tr.Shape != want || p.Shape != want {
			t.Errorf("%s: shape %s", name, tr.Shape)
		}
		if want == Lines && bytes.Count(out, []byte("\n")) != p.After.Messages {
			t.Errorf("%s: %d lines for %d messages", name, bytes.Count(out, []byte("\n")), p.After.Messages)
		}
		if len(p.Compacted) == 0 {
			t.Errorf("%s: nothing compacted", name)
		}
	}
}

// Anthropic: the results message's own text (the user's) survives the
// compaction of its group.
func TestAnthropicUserTextSurvivesCompaction(t *testing.T) {
	data := []byte(`{"model":"m","messages":[{"role":"user","content":"task"},` +
		`{"role":"assistant","content":[{"type":"tool_use","id":"u1","name":"run_shell","input":{"command":"make"}}]},` +
		`{"role":"user","content":[{"type":"tool_result","tool_use_id":"u1","content":"` + strings.Repeat("build output ", 300) + `"},{"type":"text","text":"also check the docs"}]},` +
		`{"role":"assistant","content":[{"type":"tool_use","id":"u2","name":"run_shell","input":{"command":"ls"}}]},` +
		`{"role":"user","content":[{"type":"tool_result","tool_use_id":"u2","content":"a"}]},` +
		`{"role":"assistant","content":[{"type":"tool_use","id":"u3","name":"run_shell","input":{"command":"pwd"}}]},` +
		`{"role":"user","content":[{"type":"tool_result","tool_use_id":"u3","content":"b","is_error":true}]}]}`)
	_, p := plan(t, data, Options{Budget: 300})
	out := string(mustApply(t, p))
	if !strings.Contains(out, `{"type":"text","text":"also check the docs"}`) || strings.Contains(out, `"u1"`) {
		t.Errorf("out = %s", out)
	}
}

func TestBadOptions(t *testing.T) {
	if _, err := Decode([]byte(`[{"role":"system","content":"x"}]`), Anthropic); err == nil || !strings.Contains(err.Error(), `unknown role "system"`) {
		t.Errorf("a system message in Anthropic's format = %v", err)
	}
	tr, _ := Decode([]byte(`[{"role":"user","content":"x"}]`), Auto)
	if _, err := NewPlan(tr, nil, Options{Budget: 0}); err == nil {
		t.Error("a zero budget was accepted")
	}
	if _, err := Decode([]byte(`[]`), "gemini"); err == nil {
		t.Error("an unknown format was accepted")
	}
}
