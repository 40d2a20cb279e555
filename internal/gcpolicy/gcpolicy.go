// Package gcpolicy decides, once per process, how git-adr's garbage
// collector runs: most commands are short runs that load the log, print
// and exit, for which a collection costs more than it frees.
//
// The first of [Defer], [ShortLived] and [Floor] a process calls decides;
// GOGC or GOMEMLIMIT set in the environment are left to decide instead.
package gcpolicy

import (
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"sync"

	"github.com/git-adr/git-adr/internal/offheap"
)

// Hold is how much memory a command may take before its first garbage
// collection (see [Defer]): enough for `list` and a warm `context --task`
// of 10,000 records to run without one (a question there allocates about
// 30 MB; the caches it reads, 12.7 MB more, are read outside the heap by
// package offheap and come on top).
const Hold = 44 << 20

// Ceiling is the soft memory limit a command runs under after its first
// collection (see [Defer]), less what it holds outside the heap, while it
// holds little: the default pace lets the heap grow to twice what is
// live, which put a first `list` of 10,000 records, holding 24 MB, at 71
// MiB of peak memory; under the ceiling it collects a little more often
// and stays at 60.
const Ceiling = 48 << 20

// CeilingLive is how much a collection may find live, what the process
// holds outside the heap counted, before [Defer] lifts the ceiling: a
// command that holds more would spend its time collecting to stay under
// it (compaction's analysis, holding 44 MB at its peak at 10,000 records,
// took twice as long), so it is paced as by default.
const CeilingLive = 30 << 20

// ShortLivedHeap bounds the heap of a process that runs without the
// garbage collector (see [ShortLived]): past it the collector runs as
// usual.
const ShortLivedHeap = 256 << 20

// FloorHeap is the least memory a command that reads many repositories
// (see [Floor]) lets the heap take before each collection.
const FloorHeap = 64 << 20

// once makes the first of Defer, ShortLived and Floor the one that
// decides how this process collects garbage.
var once sync.Once

// Defer lets the command take Hold bytes before the first garbage
// collection, after which the collector runs at its default pace under
// the soft limit Ceiling (less what the process holds outside the heap),
// until a collection finds more than CeilingLive live (then without a
// limit). Most commands are short runs that load the log, print and exit:
// at 10,000 records the default collector started five cycles during the
// load (the first at 4 MiB), marking the same records again each time and
// slowing every pointer write while it ran. A run that allocates more (a
// first load, a long `context` or the MCP server) is collected from then
// on, within the ceiling while it holds little.
func Defer() { hold(Hold, underCeiling, os.Getenv) }

// ShortLived turns the garbage collector off for a process that exits in
// milliseconds (a commit's hooks): a collection there costs more than it
// frees, and the memory goes back when the process ends. The memory
// limit keeps a huge commit from growing without bound.
func ShortLived() { hold(ShortLivedHeap, never, os.Getenv) }

// Floor paces the collector for a command that reads many repositories
// one after another and holds little of each (a workspace's sync and its
// questions): each collection waits until the process holds FloorHeap,
// not twice what the last one found live. The default pace collected a
// first sync of 100 repositories 170 times (a goal of 4 to 6 MB: each
// repository's parse and summary is garbage once written). A cycle that
// finds more than half of FloorHeap live hands the pace back to the
// default, so a command that holds more is collected as usual.
func Floor() { hold(FloorHeap, muchLive, os.Getenv) }

// until says when [hold] gives the collector its defaults back.
type until int

const (
	never        until = iota // the process ends first
	muchLive                  // after a collection that finds more than half the limit live
	underCeiling              // after the first collection, under Ceiling until one finds more than CeilingLive live
)

// hold turns the collector off until the process holds limit, and gives
// the defaults back as back says. It reports whether it changed anything.
func hold(limit int64, back until, getenv func(string) string) (changed bool) {
	once.Do(func() {
		if getenv("GOGC") != "" || getenv("GOMEMLIMIT") != "" {
			return
		}
		changed = true
		oldPercent := debug.SetGCPercent(-1)
		oldLimit := debug.SetMemoryLimit(limit)
		restore := func() {
			debug.SetGCPercent(oldPercent)
			debug.SetMemoryLimit(oldLimit)
		}
		switch back {
		case muchLive:
			afterCycle(func() { whileLive(limit/2, restore) })
		case underCeiling:
			afterCycle(func() {
				debug.SetGCPercent(oldPercent)
				underCeilingUntil(restore)
			})
		}
	})
	return changed
}

// whileLive runs fn after the first collection, this one's included,
// that finds more than max bytes live.
func whileLive(max int64, fn func()) {
	if liveBytes() > max {
		fn()
		return
	}
	afterCycle(func() { whileLive(max, fn) })
}

// underCeilingUntil sets the soft limit to Ceiling less what the process
// holds outside the heap (package offheap), after this collection and
// every later one, until one finds more than CeilingLive live, those
// bytes counted; then it runs restore. The limit is thus always at least
// Ceiling - CeilingLive above what is live.
func underCeilingUntil(restore func()) {
	out := offheap.Held()
	if liveBytes()+out > CeilingLive {
		restore()
		return
	}
	debug.SetMemoryLimit(Ceiling - out)
	afterCycle(func() { underCeilingUntil(restore) })
}

// liveBytes is what the last collection found live.
func liveBytes() int64 {
	live := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	metrics.Read(live)
	if live[0].Value.Kind() != metrics.KindUint64 {
		return 0
	}
	return int64(live[0].Value.Uint64())
}

// afterCycle runs fn once the next collection is over: a finalizer runs
// after the cycle that finds its sentinel unreachable (the sentinel holds
// a pointer: the tiny allocator, whose objects may never be finalized,
// takes only pointer-free ones).
func afterCycle(fn func()) {
	sentinel := &struct{ _ *byte }{}
	runtime.SetFinalizer(sentinel, func(*struct{ _ *byte }) { fn() })
}
