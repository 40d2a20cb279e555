package evidence

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/git-adr/git-adr/adr"
)

// preanalysedLog is indexLog(t, edit) loaded with a preanalysis for a
// first task query over cacheDir.
func preanalysedLog(t *testing.T, edit int, cacheDir string) (*adr.Log, *Preanalysis) {
	t.Helper()
	pre := NewPreanalysis(cacheDir)
	if pre == nil {
		t.Fatal("no preanalysis without a term cache")
	}
	plain := indexLog(t, edit)
	l, err := adr.Load(plain.FS, adr.LoadOptions{Parsed: pre.Parsed})
	if err != nil {
		t.Fatal(err)
	}
	if len(pre.docs) != len(l.Records) {
		t.Fatalf("%d records analysed as the log loaded, want %d", len(pre.docs), len(l.Records))
	}
	return l, pre
}

// TestPreanalysisAnswersAsRebuilt: a first task query whose records were
// analysed as the log loaded (their texts let go of) answers as one that
// analyses them itself, stores the same index, and takes every record
// from the preanalysis; so does one that finds a term cache written
// meanwhile, whose vocabulary numbers the terms otherwise.
func TestPreanalysisAnswersAsRebuilt(t *testing.T) {
	want := answers(t, indexLog(t, 0), "")
	plainDir := t.TempDir()
	answers(t, indexLog(t, 0), plainDir)
	wantIndex, err := os.ReadFile(filepath.Join(plainDir, "index.bin"))
	if err != nil {
		t.Fatal(err)
	}

	dir := t.TempDir()
	l, pre := preanalysedLog(t, 0, dir)
	svc := &Service{Log: l, CacheDir: dir, Preanalysis: pre, ReleaseTexts: true}
	_, b, err := svc.Answer(Request{Task: indexTasks[0], Format: JSON})
	if err != nil {
		t.Fatal(err)
	}
	sameAnswers(t, "preanalysed", want[:1], []string{string(b)})
	if len(pre.docs) != 0 {
		t.Errorf("%d preanalysed records were analysed again", len(pre.docs))
	}
	if got, _ := os.ReadFile(filepath.Join(dir, "index.bin")); !bytes.Equal(got, wantIndex) {
		t.Error("the preanalysed query stored another index")
	}
	if NewPreanalysis(dir) != nil {
		t.Error("a preanalysis was offered over a term cache")
	}
	if err := os.Remove(filepath.Join(dir, "terms.bin")); err != nil {
		t.Fatal(err)
	}
	if NewPreanalysis(dir) != nil {
		t.Error("a preanalysis was offered over a stored index")
	}
	sameAnswers(t, "after a preanalysed query", want, answers(t, indexLog(t, 0), dir))

	// A term cache of other records appears between the load and the
	// query: the preanalysed terms are renumbered into its vocabulary.
	other := t.TempDir()
	l, pre = preanalysedLog(t, 0, other)
	answers(t, indexLog(t, 7), other)
	svc = &Service{Log: l, CacheDir: other, Preanalysis: pre, ReleaseTexts: true}
	_, b, err = svc.Answer(Request{Task: indexTasks[0], Format: JSON})
	if err != nil {
		t.Fatal(err)
	}
	sameAnswers(t, "preanalysed, over another term cache", want[:1], []string{string(b)})
	if got, _ := os.ReadFile(filepath.Join(other, "index.bin")); !bytes.Equal(got, wantIndex) {
		t.Error("the preanalysed query over another term cache stored another index")
	}
}
