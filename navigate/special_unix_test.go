//go:build unix

package navigate

import (
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// TestSpecialFilesDoNotBlock: opening a FIFO for reading blocks until a
// writer comes; read, ls and search must refuse or skip it at once.
func TestSpecialFilesDoNotBlock(t *testing.T) {
	tr, dir := newTree(t, map[string]string{"a.txt": "needle\n"})
	if err := syscall.Mkfifo(filepath.Join(dir, "fifo"), 0o644); err != nil {
		t.Skip("mkfifo:", err)
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		_, err := tr.Read("fifo", ReadOptions{StartLine: 1, LineCount: 1})
		wantErr(t, err, ErrNotRegular)
		_, err = tr.List("fifo", ListOptions{})
		wantErr(t, err, ErrNotDir)
		_, err = tr.Search(SearchOptions{Pattern: "x", Path: "fifo"})
		wantErr(t, err, ErrNotRegular)
		res, err := tr.Search(SearchOptions{Pattern: "needle"})
		if err != nil || len(res.Matches) != 1 {
			t.Errorf("search beside a FIFO: %+v %v", res, err)
		}
		l, err := tr.List(".", ListOptions{})
		if err != nil || len(l.Entries) != 2 || l.Entries[1].Type != TypeOther {
			t.Errorf("list: %+v %v", l, err)
		}
	}()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("blocked on a FIFO")
	}
}
