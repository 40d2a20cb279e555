package evidence

import (
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// TestPendingWritesConcurrentAnswers: answers made at once on one Service
// each wait for every write started before their Wait, and none panics
// the way a reused sync.WaitGroup can.
func TestPendingWritesConcurrentAnswers(t *testing.T) {
	var p pendingWrites
	var wg sync.WaitGroup
	for a := 0; a < 8; a++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for round := 0; round < 50; round++ {
				var done atomic.Bool
				p.Go(func() { time.Sleep(50 * time.Microsecond); done.Store(true) })
				p.Wait()
				if !done.Load() {
					t.Error("Wait returned before a write it had seen started")
					return
				}
			}
		}()
	}
	wg.Wait()
	if len(p.runs) != 0 {
		t.Errorf("%d finished writes still held", len(p.runs))
	}
}
