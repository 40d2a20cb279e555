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
func Defer() { hold(Hold, true, os.Getenv) }

// ShortLived turns the garbage collector off for a process that exits in
// milliseconds (a commit's hooks): a collection there costs more than it
// frees, and the memory goes back when the process ends. The memory
// limit keeps a huge commit from growing without bound.
func ShortLived() { hold(ShortLivedHeap, false, os.Getenv) }

// hold turns the collector off until the heap reaches limit; with
// restore, the defaults come back after that first cycle. It reports
// whether it changed anything.
func hold(limit int64, restore bool, getenv func(string) string) (changed bool) {
	once.Do(func() {
		if getenv("GOGC") != "" || getenv("GOMEMLIMIT") != "" {
			return
		}
		changed = true
		oldPercent := debug.SetGCPercent(-1)
		oldLimit := debug.SetMemoryLimit(limit)
		if !restore {
			return
		}
		// The finalizer runs after the first cycle, which the limit starts
		// (the sentinel holds a pointer: the tiny allocator, whose objects
		// may never be finalized, takes only pointer-free ones).
		sentinel := &struct{ _ *byte }{}
		runtime.SetFinalizer(sentinel, func(*struct{ _ *byte }) {
			debug.SetGCPercent(oldPercent)
			debug.SetMemoryLimit(oldLimit)
		})
	})
	return changed
}

// Floor paces the collector for a command that reads many repositories
// one after another and holds little of each (a workspace's sync and its
// questions): each collection waits until the process holds FloorHeap,
// not twice what the last one found live. The default pace collected a
// first sync of 100 repositories 170 times (a goal of 4 to 6 MB: each
// repository's parse and summary is garbage once written), and its own
// CPU fell by a tenth with the floor. A cycle that finds more than half
// of FloorHeap live hands the pace back to the default, so a command
// that holds more is collected as usual.
func Floor() { floor(FloorHeap, os.Getenv) }

// floor turns the collector off until the process holds limit, cycle
// after cycle, until one finds more than limit/2 live. It reports
// whether it changed anything.
func floor(limit int64, getenv func(string) string) (changed bool) {
	once.Do(func() {
		if getenv("GOGC") != "" || getenv("GOMEMLIMIT") != "" {
			return
		}
		changed = true
		oldPercent := debug.SetGCPercent(-1)
		oldLimit := debug.SetMemoryLimit(limit)
		live := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
		var arm func()
		arm = func() {
			// A finalizer runs once after the cycle that finds its
			// sentinel unreachable: one is set for every cycle.
			sentinel := &struct{ _ *byte }{}
			runtime.SetFinalizer(sentinel, func(*struct{ _ *byte }) {
				metrics.Read(live)
				if live[0].Value.Kind() == metrics.KindUint64 && live[0].Value.Uint64() > uint64(limit/2) {
					debug.SetGCPercent(oldPercent)
					debug.SetMemoryLimit(oldLimit)
					return
				}
				arm()
			})
		}
		arm()
	})
	return changed
}
