package adr

import (
	"runtime"
	"sync"
)

// parallelMin is the fewest items a loop over records spreads over the
// CPUs: below it, starting goroutines costs more than the loop.
const parallelMin = 2048

// inParallel calls f over consecutive ranges [lo, hi) that together
// cover [0, n), one range per CPU when n is at least parallelMin, else
// once over all of it. f must only touch what its range owns.
func inParallel(n int, f func(lo, hi int)) {
	workers := min(runtime.GOMAXPROCS(0), 8)
	if n < parallelMin || workers < 2 {
		f(0, n)
		return
	}
	var wg sync.WaitGroup
	step := (n + workers - 1) / workers
	for lo := step; lo < n; lo += step {
		wg.Add(1)
		go func() {
			defer wg.Done()
			f(lo, min(lo+step, n))
		}()
	}
	f(0, min(step, n))
	wg.Wait()
}
