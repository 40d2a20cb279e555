package gcpolicy

import (
	"runtime/debug"
	"sync"
	"testing"
)

// GOGC or GOMEMLIMIT in the environment decide; and only the first call
// of a process decides.
func TestHoldOnce(t *testing.T) {
	before := debug.SetGCPercent(100)
	debug.SetGCPercent(before)
	env := func(k string) string {
		if k == "GOGC" {
			return "200"
		}
		return ""
	}
	if hold(Hold, true, env) {
		t.Fatal("hold changed the collector although GOGC is set")
	}
	if p := debug.SetGCPercent(before); p != before {
		t.Fatalf("GC percent = %d, want %d", p, before)
	}
	if hold(Hold, true, func(string) string { return "" }) {
		t.Fatal("a second call changed the collector")
	}
}

// Without GOGC or GOMEMLIMIT the collector is off up to the limit.
func TestHoldSets(t *testing.T) {
	once = sync.Once{}
	defer func() { once = sync.Once{} }()
	oldPercent, oldLimit := debug.SetGCPercent(100), debug.SetMemoryLimit(-1)
	defer func() {
		debug.SetGCPercent(oldPercent)
		debug.SetMemoryLimit(oldLimit)
	}()
	if !hold(ShortLivedHeap, false, func(string) string { return "" }) {
		t.Fatal("hold changed nothing")
	}
	if p := debug.SetGCPercent(-1); p != -1 {
		t.Errorf("GC percent = %d, want -1 (off)", p)
	}
	if l := debug.SetMemoryLimit(-1); l != ShortLivedHeap {
		t.Errorf("memory limit = %d, want %d", l, ShortLivedHeap)
	}
}
