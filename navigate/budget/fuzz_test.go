package budget

import (
	"fmt"
	"testing"
)

// FuzzDecode feeds the transcript decoder arbitrary input. Whatever it
// accepts must plan without error at any budget, and a plan that fits must
// produce a request that is itself a valid transcript of the same format
// (pairs consistent) and needs nothing more at the same budget.
func FuzzDecode(f *testing.F) {
	b := newTranscript(OpenAI).sys("s").user("task")
	b.calls("", read("a.go", big("a", 5)), shell("ls", "x"))
	b.call("run_shell", map[string]any{"command": "make"}, big("m", 5))
	f.Add(b.bytes(), 300)
	a := newTranscript(Anthropic).sys("s").user("task")
	a.calls("hi", read("a.go", big("a", 5)))
	a.calls("", exchange{name: "run_shell", args: map[string]any{"c": 1}, result: "no", err: true})
	a.call("run_shell", map[string]any{"command": "make"}, big("m", 5))
	f.Add(a.bytes(), 200)
	f.Add([]byte(`{"role":"user","content":"x"}`+"\n"+`{"message":{"role":"assistant","content":"y"}}`), 10)
	f.Add([]byte(`[{"role":"assistant","tool_calls":[{"id":"1","function":{"name":"f","arguments":"{}"}}]},{"role":"tool","tool_call_id":"1","content":"r"}]`), 5)
	f.Fuzz(func(t *testing.T, data []byte, budget int) {
		tr, err := Decode(data, Auto)
		if err != nil {
			return
		}
		budget = 1 + abs(budget)%100000
		p, err := NewPlan(tr, data, Options{Budget: budget, KeepLatestReads: budget%2 == 0, Count: func(s string) int { return len(s) / 4 }})
		if err != nil {
			t.Fatalf("NewPlan: %v", err)
		}
		if !p.Fits {
			if p.Failure == "" {
				t.Fatal("a plan that does not fit gives no reason")
			}
			return
		}
		out, err := p.Apply()
		if err != nil {
			t.Fatal(err)
		}
		back, err := Decode(out, tr.Format)
		if err != nil {
			t.Fatalf("the outbound request does not decode: %v\n%s", err, out)
		}
		p2, err := NewPlan(back, out, Options{Budget: budget, Count: func(s string) int { return len(s) / 4 }})
		if err != nil || len(p2.Compacted) != 0 || len(p2.Trimmed) != 0 {
			t.Fatalf("planning the outbound request again changed it: %v %s", err, fmt.Sprint(p2.Compacted, p2.Trimmed))
		}
	})
}

func abs(n int) int {
	if n < 0 {
		if n == -n {
			return 0
		}
		return -n
	}
	return n
}
