package labelled

import (
	"os"
	"testing"

	"github.com/git-adr/git-adr/adr/evidence"
)

// floors guard regressions on the sets in testdata; the figures are
// printed with -v, and with the ablation by scripts/bench-context.
var floors = map[string]float64{
	"testdata/shared-tasks.json":   0.95,
	"testdata/fresh-tasks.json":    0.9,
	"testdata/outside1-tasks.json": 0.9,
	"testdata/outside2-tasks.json": 0.9,
}

// TestLabelledSets measures every labelled set: recall within one
// default response, no confident answer to a task no record covers,
// every response within the budget and every record not in force
// labelled.
func TestLabelledSets(t *testing.T) {
	wd, _ := os.Getwd()
	dir, err := Corpora(wd)
	if err != nil {
		t.Skip(err)
	}
	for file, floor := range floors {
		set, err := Load(file)
		if err != nil {
			t.Fatal(err)
		}
		res, err := Run(set, []string{"testdata/corpora", dir}, evidence.Ablation{})
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Missing) > 0 {
			t.Logf("%s: corpora not here, their tasks not counted: %v", file, res.Missing)
		}
		t.Logf("%s (%s): recall %.3f (%d/%d), mean %.0f code points, no-record tasks without a confident answer %d/%d",
			file, set.Use, res.Recall(), res.Found, res.Relevant, res.MeanCodePoints(), res.NoRecordOK, res.NoRecord)
		for _, m := range res.Misses {
			t.Log(m)
		}
		if res.Recall() < floor {
			t.Errorf("%s: recall %.3f below %.2f", file, res.Recall(), floor)
		}
		if res.NoRecordOK < res.NoRecord {
			t.Errorf("%s: %d no-record tasks got a confident answer", file, res.NoRecord-res.NoRecordOK)
		}
		if res.Over > 0 || res.Unlabelled > 0 {
			t.Errorf("%s: %d responses over the budget, %d units not in force without a label", file, res.Over, res.Unlabelled)
		}
	}
}
