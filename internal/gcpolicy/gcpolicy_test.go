package gcpolicy

import (
	"math"
	"runtime"
	"runtime/debug"
	"sync"
	"testing"
	"time"
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
	if hold(Hold, firstCycle, env) {
		t.Fatal("hold changed the collector although GOGC is set")
	}
	if p := debug.SetGCPercent(before); p != before {
		t.Fatalf("GC percent = %d, want %d", p, before)
	}
	if hold(Hold, firstCycle, func(string) string { return "" }) {
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
	if !hold(ShortLivedHeap, never, func(string) string { return "" }) {
		t.Fatal("hold changed nothing")
	}
	if p := debug.SetGCPercent(-1); p != -1 {
		t.Errorf("GC percent = %d, want -1 (off)", p)
	}
	if l := debug.SetMemoryLimit(-1); l != ShortLivedHeap {
		t.Errorf("memory limit = %d, want %d", l, ShortLivedHeap)
	}
}

// Floor turns the collector off up to its limit and keeps it so while
// little is live; a cycle that finds more than half the limit live gives
// the pace back to the default.
func TestFloorHandsBack(t *testing.T) {
	once = sync.Once{}
	defer func() { once = sync.Once{} }()
	oldPercent, oldLimit := debug.SetGCPercent(100), debug.SetMemoryLimit(math.MaxInt64)
	defer func() {
		debug.SetGCPercent(oldPercent)
		debug.SetMemoryLimit(oldLimit)
	}()
	const limit = 16 << 20
	if !hold(limit, muchLive, func(string) string { return "" }) {
		t.Fatal("floor changed nothing")
	}
	percent := func() int {
		p := debug.SetGCPercent(-1)
		debug.SetGCPercent(p)
		return p
	}
	// Cycles that find little live keep the floor.
	for range 3 {
		runtime.GC()
		runtime.GC() // the finalizer of the cycle before has run
	}
	if p, l := percent(), debug.SetMemoryLimit(-1); p != -1 || l != limit {
		t.Fatalf("after cycles with little live: GC percent %d, limit %d; want -1 and %d", p, l, limit)
	}
	// A cycle that finds more than half the limit live hands back.
	held := make([]byte, limit)
	for i := range held {
		held[i] = 1
	}
	// The finalizer that hands back runs after a cycle, on its own
	// goroutine: wait for it, a cycle at a time.
	for range 5000 {
		runtime.GC()
		if percent() == 100 {
			break
		}
		time.Sleep(time.Millisecond)
	}
	runtime.KeepAlive(held)
	if p, l := percent(), debug.SetMemoryLimit(-1); p != 100 || l != math.MaxInt64 {
		t.Errorf("with %d bytes live: GC percent %d, limit %d; want 100 and no limit", limit, p, l)
	}
}
