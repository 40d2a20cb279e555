package trust

import (
	"testing"
	"time"
)

// The report shows what the file asks before any trust is recorded; once
// it is trusted its values are in effect, each saying where it comes from.
func TestReport(t *testing.T) {
	r, cfg := gitRepo(t, risky)
	rv := &Resolver{File: cfg, Path: r.Abs(".adr.toml"), Git: r, Store: &Store{Dir: t.TempDir()}}
	rep := NewReport(rv, func(v Value) string { return "uses " + v.Key })
	if len(rep.Asks) != 5 || !rep.AsksFor(DrafterCommand.Key) || rep.Asks[0].Does != "uses "+rep.Asks[0].Key {
		t.Fatalf("NewReport asks %+v", rep.Asks)
	}
	if err := rep.Settle(rv, false, time.Now()); err != nil {
		t.Fatal(err)
	}
	if rep.State != Untrusted || rep.InEffect[0].State != "ignored" {
		t.Errorf("before trust: state %q, %+v", rep.State, rep.InEffect[0])
	}
	// A resolver keeps the trust it read: a new one reads it anew.
	rv = &Resolver{File: cfg, Path: rv.Path, Git: r, Store: rv.Store}
	rep = NewReport(rv, func(Value) string { return "" })
	if err := rep.Settle(rv, true, time.Now()); err != nil {
		t.Fatal(err)
	}
	if rep.State != Trusted || rep.InEffect[0].State != "set" || rep.InEffect[0].From != "trusted "+rep.Path {
		t.Errorf("after trust: state %q, %+v", rep.State, rep.InEffect[0])
	}
	if EnvRef("GITHUB_TOKEN") != "$GITHUB_TOKEN" || EnvRef("A B") != `$"A B"` {
		t.Errorf("EnvRef = %s, %s", EnvRef("GITHUB_TOKEN"), EnvRef("A B"))
	}
}
