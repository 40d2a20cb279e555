package main

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/git-adr/git-adr/adr/evidence"
	"github.com/git-adr/git-adr/adr/evidence/labelled"
)

// sets are the labelled task sets. Their corpora are looked for in the
// repository's own copies (adr/evidence/labelled/testdata/corpora), in
// the -heldout-corpora folder, and in the shared corpora
// (../shared/corpora, or $GIT_ADR_CORPORA).
var sets = []string{
	"adr/evidence/labelled/testdata/shared-tasks.json",
	"adr/evidence/labelled/testdata/fresh-tasks.json",
	"adr/evidence/labelled/testdata/outside1-tasks.json",
	"adr/evidence/labelled/testdata/outside2-tasks.json",
	"adr/evidence/labelled/testdata/outside3-tasks.json",
	"adr/evidence/labelled/testdata/outside4-tasks.json",
	"adr/evidence/labelled/testdata/outside5-tasks.json",
	"adr/evidence/labelled/testdata/outside6-tasks.json",
	"adr/evidence/labelled/testdata/outside7-tasks.json",
	"adr/evidence/labelled/testdata/outside8-tasks.json",
	"adr/evidence/labelled/testdata/outside9-tasks.json",
	"adr/evidence/labelled/testdata/outside10-tasks.json",
	"adr/evidence/labelled/testdata/outside11-tasks.json",
}

// ablations are the configurations measured: as shipped, then with one
// heuristic switched off, then with all the query expansions off.
var ablations = []struct {
	name string
	a    evidence.Ablation
}{
	{"as shipped", evidence.Ablation{}},
	{"no thesaurus", evidence.Ablation{NoThesaurus: true}},
	{"no phrase abbreviations", evidence.Ablation{NoPhrases: true}},
	{"no stem-prefix expansion", evidence.Ablation{NoStemPrefix: true}},
	{"no title bonus", evidence.Ablation{NoTitleBonus: true}},
	{"no in-force tiering", evidence.Ablation{NoTiering: true}},
	{"no other-language stems", evidence.Ablation{NoAlternateStems: true}},
	{"no shorter parts after the best three records", evidence.Ablation{NoShortTail: true}},
	{"none of the four expansions and bonuses", evidence.Ablation{NoThesaurus: true, NoPhrases: true, NoStemPrefix: true, NoTitleBonus: true}},
}

// labelledDay is the day the labelled answers are made on (ADR_DATE,
// unless set): an answer labels a proposal left open by its age in days
// and a passed review date, so without a fixed day the sizes would move
// from one day to the next.
const labelledDay = "2026-12-03"

func labelledMain(out, heldout, compare string) {
	if os.Getenv("ADR_DATE") == "" {
		check(os.Setenv("ADR_DATE", labelledDay))
	}
	fmt.Fprintf(os.Stderr, "bench-context: answering as on %s (ADR_DATE)\n", os.Getenv("ADR_DATE"))
	wd, err := os.Getwd()
	check(err)
	dirs := []string{"adr/evidence/labelled/testdata/corpora"}
	if heldout != "" {
		dirs = append(dirs, heldout)
	}
	if shared, err := labelled.Corpora(wd); err == nil {
		dirs = append(dirs, shared)
	} else {
		fmt.Fprintln(os.Stderr, "bench-context:", err)
	}
	var ab, rel, sizes strings.Builder
	sizes.WriteString("| set | tasks | JSON (`context --json`) | text (`context`) | MCP message (`adr_context`) |\n|---|---:|---:|---:|---:|\n")
	ab.WriteString("| set | use | tasks | configuration | recall | mean code points | no-record tasks not answered with confidence high | units not in force unlabelled |\n|---|---|---:|---|---:|---:|---:|---:|\n")
	rel.WriteString("| set | confidence | tasks | with a relevant record | all relevant records in the units | a relevant record in the units or leads | tasks no record covers |\n|---|---|---:|---:|---:|---:|---:|\n")
	for _, file := range sets {
		if _, err := os.Stat(file); err != nil {
			fmt.Fprintf(os.Stderr, "bench-context: skipping %s: %v\n", file, err)
			continue
		}
		set, err := labelled.Load(file)
		check(err)
		name := strings.TrimSuffix(filepath.Base(file), ".json")
		use := set.Use
		switch {
		case set.Frozen != "" && use == "tuning":
			use += " (held out once, on " + set.Frozen + ")"
		case set.Frozen != "":
			use += " (code frozen at " + set.Frozen + ")"
		}
		if z, err := labelled.MeasureSizes(set, dirs); err == nil {
			fmt.Fprintf(&sizes, "| %s | %d | %.0f | %.0f | %.0f |\n", name, z.Tasks, z.JSON, z.Text, z.MCPWire)
		} else {
			check(err)
		}
		for _, cmp := range strings.Split(compare, ",") {
			if cmp == "" {
				continue
			}
			// Another build, through its command line, for comparison.
			label, bin, _ := strings.Cut(cmp, "=")
			tmp, err := os.MkdirTemp("", "bench-context-compare-")
			check(err)
			res, err := labelled.RunWith(set, dirs, labelled.Command(bin, tmp))
			os.RemoveAll(tmp)
			check(err)
			fmt.Fprintf(&ab, "| %s | %s | %d | %s | %.3f (%d/%d) | %.0f | %d/%d | %d |\n", name, use, res.Tasks, "`git adr` built from "+label,
				res.Recall(), res.Found, res.Relevant, res.MeanCodePoints(), res.NoRecordOK, res.NoRecord, res.Unlabelled)
		}
		for _, c := range ablations {
			res, err := labelled.Run(set, dirs, c.a)
			check(err)
			if len(res.Missing) > 0 && c.name == "as shipped" {
				fmt.Fprintf(os.Stderr, "bench-context: %s: corpora not found, their tasks not counted: %s\n", name, strings.Join(res.Missing, ", "))
			}
			fmt.Fprintf(&ab, "| %s | %s | %d | %s | %.3f (%d/%d) | %.0f | %d/%d | %d |\n", name, use, res.Tasks, c.name,
				res.Recall(), res.Found, res.Relevant, res.MeanCodePoints(), res.NoRecordOK, res.NoRecord, res.Unlabelled)
			if c.name != "as shipped" {
				continue
			}
			levels := make([]string, 0, len(res.Levels))
			for l := range res.Levels {
				levels = append(levels, l)
			}
			order := map[string]int{"high": 0, "low": 1, "none": 2}
			sort.Slice(levels, func(i, j int) bool { return order[levels[i]] < order[levels[j]] })
			for _, l := range levels {
				lv := res.Levels[l]
				fmt.Fprintf(&rel, "| %s | %s | %d | %d | %s | %s | %d |\n", name, l, lv.Tasks, lv.WithRecords,
					share(lv.AllFound, lv.WithRecords), share(lv.AnyNamed, lv.WithRecords), lv.NoRecord)
			}
		}
	}
	fmt.Print(ab.String(), "\n", rel.String(), "\n", sizes.String())
	if out != "" {
		writeBetween(out, "bench-context-sizes", sizes.String())
		writeBetween(out, "bench-context-ablation", ab.String())
		writeBetween(out, "bench-context-reliability", rel.String())
	}
}

func share(n, d int) string {
	if d == 0 {
		return "-"
	}
	return fmt.Sprintf("%d (%.0f%%)", n, 100*float64(n)/float64(d))
}
