package labelled

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/git-adr/git-adr/adr"
	"github.com/git-adr/git-adr/adr/evidence"
	"github.com/git-adr/git-adr/internal/jsoncost"
)

// floors guard regressions on the sets in testdata, on the recall that
// counts a record only when the answer carries its text (RecallText);
// the figures are printed with -v, and with the baselines and the
// ablation by scripts/bench-context.
var floors = map[string]float64{
	"testdata/shared-tasks.json":   0.95,
	"testdata/fresh-tasks.json":    0.85,
	"testdata/outside1-tasks.json": 0.9,
	"testdata/outside2-tasks.json": 0.85,
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
		t.Logf("%s (%s): recall %.3f (%d/%d), text in the answer %.3f (%d/%d), mean %.0f code points, no-record tasks without a confident answer %d/%d",
			file, set.Use, res.Recall(), res.Found, res.Relevant, res.RecallText(), res.FoundText, res.Relevant, res.MeanCodePoints(), res.NoRecordOK, res.NoRecord)
		for _, m := range res.Misses {
			t.Log(m)
		}
		if res.RecallText() < floor {
			t.Errorf("%s: recall (text in the answer) %.3f below %.2f", file, res.RecallText(), floor)
		}
		if res.NoRecordOK < res.NoRecord {
			t.Errorf("%s: %d no-record tasks got a confident answer", file, res.NoRecord-res.NoRecordOK)
		}
		if res.Over > 0 || res.Unlabelled > 0 {
			t.Errorf("%s: %d responses over the budget, %d units not in force without a label", file, res.Over, res.Unlabelled)
		}
	}
}

// TestLabelNamesNoRecord: a label that names no record of its log (a
// four-digit ID for a log whose file names have three) stops the run
// with the ID the log does have, instead of counting as a miss.
func TestLabelNamesNoRecord(t *testing.T) {
	dir := t.TempDir()
	adrs := filepath.Join(dir, "log", "adr")
	if err := os.MkdirAll(adrs, 0o755); err != nil {
		t.Fatal(err)
	}
	rec := "# 18. SQL Migrations\n\nDate: 2024-02-12\n\n## Status\n\nAccepted\n\n## Decision\n\nUse Liquibase for schema migrations.\n"
	if err := os.WriteFile(filepath.Join(adrs, "018-sql-migrations.md"), []byte(rec), 0o644); err != nil {
		t.Fatal(err)
	}
	run := func(id string) error {
		set := &Set{Tasks: []Task{{Corpus: "log", Task: "which tool runs schema migrations", Relevant: []string{id}}}}
		_, err := Run(set, []string{dir}, evidence.Ablation{})
		return err
	}
	if err := run("ADR-018"); err != nil {
		t.Fatalf("a label the log has: %v", err)
	}
	err := run("ADR-0018")
	if err == nil || !strings.Contains(err.Error(), "label ADR-0018 names no record") || !strings.Contains(err.Error(), "did you mean ADR-018") {
		t.Fatalf("a label the log lacks: got %v", err)
	}
}

// TestMeasureSizes: each form is measured from its own answer. A record
// whose text is full of quotes and newlines costs more in the MCP
// message (escaped twice) than as text, and every form stays within the
// budget.
func TestMeasureSizes(t *testing.T) {
	dir := t.TempDir()
	adrs := filepath.Join(dir, "log", "adr")
	if err := os.MkdirAll(adrs, 0o755); err != nil {
		t.Fatal(err)
	}
	rec := "# 1. Quote every \"name\"\n\n## Status\n\nAccepted\n\n## Decision\n\n" + strings.Repeat("We quote \"names\" in \"logs\".\n", 40)
	if err := os.WriteFile(filepath.Join(adrs, "0001-quote.md"), []byte(rec), 0o644); err != nil {
		t.Fatal(err)
	}
	set := &Set{Tasks: []Task{{Corpus: "log", Task: "how do we quote names in logs", Relevant: []string{"ADR-0001"}}}}
	// The MCP server's measure is given by the caller (bench-context
	// passes the server's own); here, the answer's text escaped once as
	// the message carries it, without the envelope.
	inMessage := func(b []byte) int { return jsoncost.String(strings.TrimSuffix(string(b), "\n"), 1) }
	z, err := MeasureSizes(set, []string{dir}, inMessage)
	if err != nil {
		t.Fatal(err)
	}
	if z.Tasks != 1 || z.Text <= 0 || z.JSON <= z.Text || z.MCPWire <= z.Text {
		t.Fatalf("sizes %+v: want text > 0, and JSON and the MCP message larger than text", z)
	}
	if z.MCPWire > evidence.DefaultMaxChars || z.JSON > evidence.DefaultMaxChars {
		t.Fatalf("sizes %+v: over the budget", z)
	}
	// The MCP form is counted with the measure given: an envelope of 100
	// code points more is 100 more, and the other forms do not change.
	z2, err := MeasureSizes(set, []string{dir}, func(b []byte) int { return inMessage(b) + 100 })
	if err != nil {
		t.Fatal(err)
	}
	if z2.MCPWire != z.MCPWire+100 || z2.JSON != z.JSON || z2.Text != z.Text {
		t.Fatalf("sizes %+v with an envelope of 100, %+v without", z2, z)
	}
}

// TestLabelsByFile: a label may name a record by its file (two files share
// the number 2503; a record kept as README.md in a folder is named by the
// folder), and a label naming a Markdown file git-adr does not read as a
// record counts as a miss, not an error.
func TestLabelsByFile(t *testing.T) {
	dir := t.TempDir()
	write := func(p, text string) {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, p)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, p), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	rec := func(title, decision string) string {
		return "# " + title + "\n\n## Status\n\nAccepted\n\n## Decision\n\n" + decision + " " + strings.Repeat("It holds for every server we run. ", 5) + "\n"
	}
	write("log/docs/adr/adr-2503-bundle-include.md", rec("Bundle include", "Bundles include the referenced resources in one search."))
	write("log/docs/adr/adr-2503-not-referenced.md", rec("Not referenced search", "A search may ask for resources nothing references."))
	write("log/docs/adr/adr-2504-bulk-update.md", rec("Bulk update", "Bulk updates run as background jobs."))
	write("log/notes/design-sketch.md", "# A sketch\n\nNothing decided here about bundles.\n")
	set := &Set{Tasks: []Task{
		{Corpus: "log", Task: "can a search ask for resources that nothing references", Relevant: []string{"adr-2503-not-referenced"}},
		{Corpus: "log", Task: "how are bundles of referenced resources included", Relevant: []string{"adr-2503-bundle-include", "design-sketch"}},
	}}
	res, err := Run(set, []string{dir}, evidence.Ablation{})
	if err != nil {
		t.Fatal(err)
	}
	if res.Relevant != 3 || res.FoundText != 2 || len(res.Misses) != 1 || !strings.Contains(res.Misses[0], "design-sketch (a file git-adr does not read as a record)") {
		t.Fatalf("relevant %d, text found %d, misses %v", res.Relevant, res.FoundText, res.Misses)
	}
	set.Tasks[0].Relevant = []string{"adr-2599-nothing"}
	if _, err := Run(set, []string{dir}, evidence.Ablation{}); err == nil || !strings.Contains(err.Error(), "names no record") {
		t.Fatalf("a label naming nothing: %v", err)
	}
}

// TestAnswersRepeat: the same task over the same log gives the same
// bytes every time, from a new load and a new service (a sum in map order
// once made windows and confidence differ by rounding from run to run).
func TestAnswersRepeat(t *testing.T) {
	wd, _ := os.Getwd()
	dir, err := Corpora(wd)
	if err != nil {
		t.Skip(err)
	}
	set, err := Load("testdata/shared-tasks.json")
	if err != nil {
		t.Fatal(err)
	}
	var first []string
	for round := 0; round < 3; round++ {
		var outs []string
		_, err := ForEachTask(set, []string{"testdata/corpora", dir}, func(l *adr.Log, _ string, lt Task) error {
			_, out, err := (&evidence.Service{Log: l}).Answer(evidence.Request{Task: lt.Task, Format: evidence.JSON})
			outs = append(outs, string(out))
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		if round == 0 {
			first = outs
			continue
		}
		for i := range outs {
			if outs[i] != first[i] {
				t.Fatalf("task %d answered differently in round %d:\n%s\n%s", i, round, first[i], outs[i])
			}
		}
	}
}
