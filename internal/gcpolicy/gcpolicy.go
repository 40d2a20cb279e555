// Package gcpolicy decides, once per process, how git-adr's garbage
// collector runs: most commands are short runs that load the log, print
// and exit, for which a collection costs more than it frees.
//
// The first of [Defer] and [ShortLived] a process calls decides; GOGC or
// GOMEMLIMIT set in the environment are left to decide instead.
package gcpolicy

import (
	"os"
	"runtime"
	"runtime/debug"
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

// once makes the first of Defer and ShortLived the one that decides how
// this process collects garbage.
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
