package gcpolicy

import (
	"math"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"sync"
	"testing"
	"time"

	"github.com/git-adr/git-adr/internal/offheap"
)

// noEnv is an environment without GOGC or GOMEMLIMIT.
func noEnv(string) string { return "" }

// fresh lets the next hold decide, from the collector's defaults, and
// puts the collector back as it was when the test ends.
func fresh(t *testing.T) {
	t.Helper()
	once = sync.Once{}
	oldPercent, oldLimit := debug.SetGCPercent(100), debug.SetMemoryLimit(math.MaxInt64)
	t.Cleanup(func() {
		once = sync.Once{}
		debug.SetGCPercent(oldPercent)
		debug.SetMemoryLimit(oldLimit)
	})
}

// collector is the GC percent and memory limit in force.
func collector() (percent int, limit int64) {
	percent = debug.SetGCPercent(-1)
	debug.SetGCPercent(percent)
	return percent, debug.SetMemoryLimit(-1)
}

// cycleUntil collects until done holds: a policy changes after a cycle,
// in a finalizer that runs on a goroutine of its own.
func cycleUntil(done func() bool) {
	for range 5000 {
		runtime.GC()
		if done() {
			return
		}
		time.Sleep(time.Millisecond)
	}
}

// cycles collects a few times, each finalizer of the cycle before run.
func cycles() {
	for range 3 {
		runtime.GC()
		runtime.GC()
	}
}

// GOGC or GOMEMLIMIT in the environment decide; and only the first call
// of a process decides.
func TestHoldOnce(t *testing.T) {
	fresh(t)
	env := func(k string) string {
		if k == "GOGC" {
			return "200"
		}
		return ""
	}
	if hold(Hold, underCeiling, env) {
		t.Fatal("hold changed the collector although GOGC is set")
	}
	if p, _ := collector(); p != 100 {
		t.Fatalf("GC percent = %d, want 100", p)
	}
	if hold(Hold, underCeiling, noEnv) {
		t.Fatal("a second call changed the collector")
	}
}

// Without GOGC or GOMEMLIMIT the collector is off up to the limit.
func TestHoldSets(t *testing.T) {
	fresh(t)
	if !hold(ShortLivedHeap, never, noEnv) {
		t.Fatal("hold changed nothing")
	}
	if p, l := collector(); p != -1 || l != ShortLivedHeap {
		t.Errorf("GC percent %d, memory limit %d; want -1 (off) and %d", p, l, ShortLivedHeap)
	}
}

// Floor turns the collector off up to its limit and keeps it so while
// little is live; a cycle that finds more than half the limit live gives
// the pace back to the default.
func TestFloorHandsBack(t *testing.T) {
	fresh(t)
	const limit = 16 << 20
	if !hold(limit, muchLive, noEnv) {
		t.Fatal("floor changed nothing")
	}
	cycles()
	if p, l := collector(); p != -1 || l != limit {
		t.Fatalf("after cycles with little live: GC percent %d, limit %d; want -1 and %d", p, l, limit)
	}
	held := make([]byte, limit)
	for i := range held {
		held[i] = 1
	}
	cycleUntil(func() bool { p, _ := collector(); return p == 100 })
	runtime.KeepAlive(held)
	if p, l := collector(); p != 100 || l != math.MaxInt64 {
		t.Errorf("with %d bytes live: GC percent %d, limit %d; want 100 and no limit", limit, p, l)
	}
}

// Defer's policy: off up to Hold; after the first collection the default
// pace under the Ceiling less what is held outside the heap; a collection
// that finds more than CeilingLive live, those bytes counted, lifts it.
func TestUnderCeiling(t *testing.T) {
	fresh(t)
	before := offheap.Held() // an earlier run's, in this process
	if !hold(Hold, underCeiling, noEnv) {
		t.Fatal("Defer's hold changed nothing")
	}
	if p, l := collector(); p != -1 || l != Hold {
		t.Fatalf("before the first collection: GC percent %d, limit %d; want -1 and %d", p, l, Hold)
	}
	cycleUntil(func() bool { p, _ := collector(); return p == 100 })
	if p, l := collector(); p != 100 || l != Ceiling-before {
		t.Fatalf("after the first collection: GC percent %d, limit %d; want 100 and %d", p, l, Ceiling-before)
	}
	cycles()
	if _, l := collector(); l != Ceiling-before {
		t.Fatalf("after cycles with little live: limit %d, want %d", l, Ceiling-before)
	}
	// A file read outside the heap lowers the ceiling by its size.
	p := filepath.Join(t.TempDir(), "cache")
	if err := os.WriteFile(p, make([]byte, 1<<20), 0o600); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(p)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, _, err := (offheap.Reader{On: true}).ReadFull(f, 1<<20); err != nil {
		t.Fatal(err)
	}
	out := offheap.Held()
	if out == before {
		t.Skip("no memory outside the heap on this system")
	}
	cycles()
	if _, l := collector(); l != Ceiling-out {
		t.Fatalf("with %d bytes outside the heap: limit %d, want %d", out, l, Ceiling-out)
	}
	// Live bytes under CeilingLive alone, over it with those counted.
	held := make([]byte, max(CeilingLive-out+(2<<20), 1<<20))
	for i := range held {
		held[i] = 1
	}
	cycleUntil(func() bool { _, l := collector(); return l == math.MaxInt64 })
	runtime.KeepAlive(held)
	if p, l := collector(); p != 100 || l != math.MaxInt64 {
		t.Errorf("with %d bytes live and %d outside: GC percent %d, limit %d; want 100 and no limit", len(held), out, p, l)
	}
}
