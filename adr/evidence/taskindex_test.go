package evidence

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/git-adr/git-adr/adr"
	"github.com/git-adr/git-adr/internal/offheap"
)

// indexLog is a log whose records share words in different measure, so
// that a task ranks many of them. Their lengths differ, so that no two
// score the same: Search sums a record's scores in map order, and equal
// scores could then come out in either order.
func indexLog(t *testing.T, edit int) *adr.Log {
	t.Helper()
	topics := []string{"cache the orders API", "store orders in PostgreSQL", "replace MySQL", "retry payments",
		"queue events in Kafka", "reusable storage adapters", "cache invalidation for payments", "schema migrations"}
	fsys := fstest.MapFS{}
	for i := 1; i <= 40; i++ {
		decision := fmt.Sprintf("We %s and %s.%s", topics[i%len(topics)], topics[(i*3)%len(topics)], strings.Repeat(" Filler.", i))
		if i == edit {
			decision += " Reusing the payments cache is now allowed."
		}
		fsys[name(i, fmt.Sprintf("r%d", i))] = &fstest.MapFile{Data: []byte(nygard(i, "Decision "+topics[i%len(topics)], "Accepted", decision))}
	}
	l, err := loadFS(fsys)
	if err != nil {
		t.Fatal(err)
	}
	return l
}

var indexTasks = []string{"replace MySQL with PostgreSQL for order storage", "cache the payments", "reusable retry",
	"kafka queue", "nothing of the sort here xyzzy"}

// answers renders every task over l with a fresh service, every other
// one reading the stored index outside the heap (OutsideHeap).
func answers(t *testing.T, l *adr.Log, cacheDir string) []string {
	t.Helper()
	var out []string
	for i, task := range indexTasks {
		svc := &Service{Log: l, CacheDir: cacheDir, OutsideHeap: i%2 == 1}
		_, b, err := svc.Answer(Request{Task: task, Format: JSON})
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, string(b))
	}
	return out
}

func sameAnswers(t *testing.T, what string, want, got []string) {
	t.Helper()
	for i := range want {
		if want[i] != got[i] {
			t.Errorf("%s: the answer to %q differs from one without caches", what, indexTasks[i])
		}
	}
}

// TestTaskIndexAnswersAsRebuilt: answers are the same without caches,
// with the index just built, with the index stored, with the stored
// index damaged or made for other records, and after an edit.
func TestTaskIndexAnswersAsRebuilt(t *testing.T) {
	l := indexLog(t, 0)
	want := answers(t, l, "")
	dir := t.TempDir()
	sameAnswers(t, "building", want, answers(t, l, dir))
	file := filepath.Join(dir, "index.bin")
	good, err := os.ReadFile(file)
	if err != nil {
		t.Fatalf("no stored index: %v", err)
	}
	sameAnswers(t, "stored", want, answers(t, l, dir))
	if now, _ := os.ReadFile(file); !bytes.Equal(now, good) {
		t.Error("a stored index that matches was written again")
	}
	// An edit makes the index another one; the term cache still serves
	// the records that did not change.
	edited := indexLog(t, 7)
	sameAnswers(t, "after an edit", answers(t, edited, ""), answers(t, edited, dir))
	foreign, _ := os.ReadFile(file)
	if bytes.Equal(foreign, good) {
		t.Fatal("the index was not replaced after an edit")
	}
	flipped := append([]byte(nil), good...)
	flipped[len(flipped)/2] ^= 0x10
	for what, data := range map[string][]byte{"truncated": good[:len(good)-5], "flipped": flipped, "garbage": []byte("garbage"),
		"empty": nil, "for other records": foreign} {
		if err := os.WriteFile(file, data, 0o600); err != nil {
			t.Fatal(err)
		}
		sameAnswers(t, what, want, answers(t, l, dir))
		if now, _ := os.ReadFile(file); !bytes.Equal(now, good) {
			t.Errorf("%s: the index was not rebuilt", what)
		}
	}
}

// TestTaskIndexDamaged: a stored index with any byte changed, cut short or
// made for another key is refused as a whole.
func TestTaskIndexDamaged(t *testing.T) {
	l := indexLog(t, 0)
	svc := &Service{Log: l, CacheDir: t.TempDir()}
	recs, _, _ := svc.taskIndexes()
	svc.saving.Wait()
	ids := make([]string, len(recs))
	for i, r := range recs {
		ids[i] = r.Locus()
	}
	good, err := os.ReadFile(taskIndexPath(svc.CacheDir))
	if err != nil {
		t.Fatal(err)
	}
	key := [32]byte(good[len(taskIndexFormat):])
	if _, _, err := decodeTaskIndex(good, key, ids); err != nil {
		t.Fatal(err)
	}
	if _, _, err := decodeTaskIndex(good, [32]byte{1, 2, 4}, ids); err == nil {
		t.Error("an index for another key was trusted")
	}
	// Read outside the heap, the index of another key is given back; the
	// one that is used stays.
	held := offheap.Held()
	if _, _, ok := loadTaskIndex(svc.CacheDir, [32]byte{1, 2, 4}, ids, offheap.Reader{On: true}); ok {
		t.Error("loadTaskIndex trusted an index for another key")
	}
	if n := offheap.Held() - held; n != 0 {
		t.Errorf("an index refused kept %d bytes outside the heap", n)
	}
	if _, _, ok := loadTaskIndex(svc.CacheDir, key, ids, offheap.Reader{On: true}); !ok {
		t.Error("loadTaskIndex refused the index of its key")
	}
	for i := range good {
		bad := append([]byte(nil), good...)
		bad[i] ^= 0x04
		if _, _, err := decodeTaskIndex(bad, key, ids); err == nil {
			t.Errorf("a flipped bit at byte %d of %d was trusted", i, len(good))
		}
	}
	for n := 0; n < len(good); n++ {
		if _, _, err := decodeTaskIndex(good[:n], key, ids); err == nil {
			t.Errorf("the first %d of %d bytes were trusted", n, len(good))
		}
	}
}

// A service that lets go of each record's text once it is analysed
// (ReleaseTexts, the command's) answers as one that keeps them: the texts
// an answer quotes are read again from their files.
func TestReleaseTextsAnswersTheSame(t *testing.T) {
	dir := t.TempDir()
	topics := []string{"cache the orders API", "store orders in PostgreSQL", "replace MySQL", "retry payments", "queue events in Kafka"}
	for i := 1; i <= 20; i++ {
		p := filepath.Join(dir, filepath.FromSlash(name(i, fmt.Sprintf("r%d", i))))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		decision := fmt.Sprintf("We %s.%s", topics[i%len(topics)], strings.Repeat(" Filler.", i))
		if err := os.WriteFile(p, []byte(nygard(i, "Decision "+topics[i%len(topics)], "Accepted", decision)), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	load := func() *adr.Log {
		// Through a parse cache, as the command loads: only such records
		// can read their texts again.
		l, err := adr.Load(os.DirFS(dir), adr.LoadOptions{Cache: adr.OpenCache(t.TempDir(), false)})
		if err != nil {
			t.Fatal(err)
		}
		return l
	}
	for _, task := range indexTasks {
		req := Request{Task: task, Format: Text}
		_, keep, err := (&Service{Log: load(), CacheDir: t.TempDir()}).Answer(req)
		if err != nil {
			t.Fatal(err)
		}
		_, release, err := (&Service{Log: load(), CacheDir: t.TempDir(), ReleaseTexts: true}).Answer(req)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(keep, release) {
			t.Errorf("%q: with ReleaseTexts\n%s\nwithout\n%s", task, release, keep)
		}
	}
}
