// Package offheap reads a file into memory that the garbage collector does
// not manage, for a command that runs once and exits.
//
// git-adr's derived files (the parse cache, the task index) are read whole
// and then shared, without a copy, by everything decoded from them. In
// the heap those bytes count towards what the collector finds live, so
// the heap may grow to twice their size again before the next collection:
// at 10,000 records the parse cache and the task index are 12.7 MB, which
// the default pace let grow into 25 MB of peak memory. Read into an
// anonymous private mapping they cost their own size and no more, and a
// question that reads them allocates that much less before its first
// collection.
//
// The mapping is never given back: what was decoded from it points into
// it, out of the collector's sight, so nothing can tell when it is free.
// A long-running process (the MCP server, a workspace reading a thousand
// repositories) must read into the heap instead, which [Reader] does when
// it is off. The mapping is anonymous, not of the file: a file truncated
// while mapped would end the process with SIGBUS where an anonymous copy
// stays whole.
package offheap

import (
	"fmt"
	"io"
	"os"
	"sync/atomic"
)

// MaxFile is the largest file ReadFull and Use read: git-adr's derived
// files are about a kilobyte a record (9 MB at 10,000 records, the largest
// of them), so a file past a gigabyte is damage or a plant, which would
// otherwise be read whole (a sparse file costs its writer nothing) until
// the system ran out of memory.
const MaxFile = 1 << 30

// ErrTooLarge is the error for a file past MaxFile.
var ErrTooLarge = fmt.Errorf("file larger than %d bytes", MaxFile)

// A Reader reads files for one process. Its zero value reads into the
// heap.
type Reader struct {
	// On reads into memory outside the heap where the system allows it.
	On bool
}

// ReadFull reads the n bytes of the open file f (its size when it was
// looked at; the file is replaced whole, never written in place, so fewer
// bytes mean damage and an error). release gives memory read outside the
// heap back, for bytes that turned out not to be worth keeping (a file
// found damaged or foreign) and that nothing points into; it does nothing
// for bytes in the heap, and must be called at most once.
func (r Reader) ReadFull(f *os.File, n int64) (b []byte, release func(), err error) {
	b, mapped, err := read(f, n, r.On)
	if err != nil || !mapped {
		return b, func() {}, err
	}
	held.Add(int64(len(b)))
	return b, func() {
		held.Add(-int64(len(b)))
		unmap(b)
	}, nil
}

// held counts the bytes ReadFull keeps outside the heap.
var held atomic.Int64

// Held is how many bytes this process holds outside the heap, read by
// [Reader.ReadFull] (package gcpolicy counts them in its memory bound).
func Held() int64 { return held.Load() }

// Use reads the n bytes of the open file f outside the heap where the
// system allows it, calls use with them and gives the memory back: for a
// decoder that copies what it keeps, and so in any process. use must not
// keep the bytes, nor anything that points into them.
func Use(f *os.File, n int64, use func([]byte) error) error {
	b, mapped, err := read(f, n, true)
	if err != nil {
		return err
	}
	err = use(b)
	if mapped {
		unmap(b)
	}
	return err
}

// read reads n bytes of f, into a mapping when outside is set and the
// system gives one (mapped), else into the heap.
func read(f *os.File, n int64, outside bool) (b []byte, mapped bool, err error) {
	if n <= 0 {
		return nil, false, nil
	}
	if n > MaxFile {
		return nil, false, ErrTooLarge
	}
	if outside {
		b = mapAnonymous(n)
	}
	mapped = b != nil
	if !mapped {
		b = make([]byte, n)
	}
	if _, err := io.ReadFull(f, b); err != nil {
		if mapped {
			unmap(b) // nothing points into it yet
		}
		return nil, false, err
	}
	return b, mapped, nil
}
