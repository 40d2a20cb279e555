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
)

// Hold is how much memory a command may take before its first garbage
// collection (see [Defer]): enough for `list` and a warm `context --task`
// of 10,000 records to run without one (a question there allocates 38 to
// 44 MB; at 48 MiB one collection cost it about 13 ms of its 110 ms of
// CPU). What a command holds after that first collection, not this, sets
// the peak of a longer one: between 48 and 56 MiB the bench's commands
// at 10,000 records kept the same peak RSS within a few MiB.
const Hold = 56 << 20

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
// collection, after which the collector runs as it does by default. Most
// commands are short runs that load the log, print and exit: at 10,000
// records the default collector started five cycles during the load (the
// first at 4 MiB), marking the same records again each time and slowing
// every pointer write while it ran. A run that allocates more (a long
// `context` or the MCP server) is collected as usual from then on, so
// neither its peak memory nor its pace changes beyond the first cycle.
func Defer() { hold(Hold, firstCycle, os.Getenv) }

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
	never      until = iota // the process ends first
	firstCycle              // after the first collection
	muchLive                // after a collection that finds more than half the limit live
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
		case firstCycle:
			afterCycle(restore)
		case muchLive:
			live := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
			var check func()
			check = func() {
				metrics.Read(live)
				if live[0].Value.Kind() == metrics.KindUint64 && live[0].Value.Uint64() > uint64(limit/2) {
					restore()
					return
				}
				afterCycle(check)
			}
			afterCycle(check)
		}
	})
	return changed
}

// afterCycle runs fn once the next collection is over: a finalizer runs
// after the cycle that finds its sentinel unreachable (the sentinel holds
// a pointer: the tiny allocator, whose objects may never be finalized,
// takes only pointer-free ones).
func afterCycle(fn func()) {
	sentinel := &struct{ _ *byte }{}
	runtime.SetFinalizer(sentinel, func(*struct{ _ *byte }) { fn() })
}
