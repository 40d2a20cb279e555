package workspace

import (
	"fmt"
	"os"
	"sync"
	"testing"
	"time"

	"github.com/git-adr/git-adr/internal/failpoint"
)

// Sync summarises beside its fetches: with more members than fetchers
// and summarisers, every result keeps the workspace's order, progress
// counts each member once, and each mirror's summary, removed, is made
// again stamped with its tip.
func TestSyncSummarisesEveryMemberInOrder(t *testing.T) {
	remotes := map[string]map[string]string{}
	var order []string
	for i := range 2*DefaultSyncJobs + 1 {
		name := fmt.Sprintf("r%d", i)
		order = append(order, name)
		remotes[name] = map[string]string{"0001-use-queues.md": decision(1, "Use queues "+name, "Failed payments are retried.")}
	}
	ws, _ := termsWorkspace(t, remotes, order) // syncs once
	for _, m := range ws.Members {
		if m.Remote() {
			if err := os.Remove(m.summary().path); err != nil {
				t.Fatal(err)
			}
		}
	}
	for _, jobs := range []int{0, 1, MaxSyncJobs} {
		syncInOrder(t, ws, jobs)
	}
}

// syncInOrder syncs ws with jobs fetchers: every result keeps the
// workspace's order, progress counts each member once, and each remote
// member's summary is stamped with its tip.
func syncInOrder(t *testing.T, ws *Workspace, jobs int) {
	t.Helper()
	want := 0
	results := ws.Sync("test", jobs, func(done, total int) {
		if done != want || total != len(ws.Members) {
			t.Errorf("progress %d/%d, want %d/%d", done, total, want, len(ws.Members))
		}
		want++
	})
	if want != len(ws.Members)+1 {
		t.Fatalf("progress called %d times, want %d", want, len(ws.Members)+1)
	}
	for i, res := range results {
		if res.Member != ws.Members[i] || res.Err != nil {
			t.Fatalf("result %d: %s %v, want %s", i, res.Member.Name, res.Err, ws.Members[i].Name)
		}
		if !res.Member.Remote() {
			continue
		}
		if res.Before != res.After {
			t.Errorf("%s: %s..%s on a sync with nothing new", res.Member.Name, res.Before, res.After)
		}
		if at := res.Member.summary(); at.commit != res.After || !at.current() {
			t.Errorf("%s: no summary stamped with the tip %s", res.Member.Name, res.After)
		}
	}
}

// TestSyncJobsBoundsFetches: with --jobs N, N fetches run at once and no
// more. The first N fetches wait for each other at the failpoint before
// git runs (a rendezvous, not a timing: fewer fetchers than N never meet,
// and the test fails after a wait), and the most fetches ever under way
// is counted between the failpoints around each fetch.
func TestSyncJobsBoundsFetches(t *testing.T) {
	remotes := map[string]map[string]string{}
	var order []string
	for i := range 7 {
		name := fmt.Sprintf("r%d", i)
		order = append(order, name)
		remotes[name] = map[string]string{"0001-use-queues.md": decision(1, "Use queues "+name, "Failed payments are retried.")}
	}
	ws, _ := termsWorkspace(t, remotes, order)
	for _, jobs := range []int{1, 3} {
		var mu sync.Mutex
		active, most, arrived := 0, 0, 0
		met := make(chan struct{})
		failpoint.Set(func(point string) {
			switch point {
			case "workspace-fetch":
				mu.Lock()
				active++
				most = max(most, active)
				arrived++
				first := arrived <= jobs
				if arrived == jobs {
					close(met)
				}
				mu.Unlock()
				if first {
					select {
					case <-met:
					case <-time.After(30 * time.Second):
						t.Errorf("jobs %d: %d fetches never ran at once", jobs, jobs)
					}
				}
			case "workspace-fetched":
				mu.Lock()
				active--
				mu.Unlock()
			}
		})
		results := ws.Sync("test", jobs, nil)
		failpoint.Set(func(string) {})
		for _, res := range results {
			if res.Err != nil {
				t.Fatalf("jobs %d: %s: %v", jobs, res.Member.Name, res.Err)
			}
		}
		if most != jobs || arrived != len(order) {
			t.Errorf("jobs %d: at most %d fetches at once over %d fetches, want %d over %d", jobs, most, arrived, jobs, len(order))
		}
	}
}
