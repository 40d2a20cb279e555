package main

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/git-adr/git-adr/adr"
	"github.com/git-adr/git-adr/adr/evidence"
	"github.com/git-adr/git-adr/adr/evidence/labelled"
	"github.com/git-adr/git-adr/navigate/mcpserver"
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
	"adr/evidence/labelled/testdata/outside12-tasks.json",
	"adr/evidence/labelled/testdata/outside13-tasks.json",
	"adr/evidence/labelled/testdata/outside14-tasks.json",
	"adr/evidence/labelled/testdata/outside15-tasks.json",
	"adr/evidence/labelled/testdata/outside16-tasks.json",
	"adr/evidence/labelled/testdata/outside17-tasks.json",
	"adr/evidence/labelled/testdata/outside18-tasks.json",
	"adr/evidence/labelled/testdata/outside19-tasks.json",
	"adr/evidence/labelled/testdata/outside20-tasks.json",
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
	{"no glossary (abbreviations the log defines)", evidence.Ablation{NoGlossary: true}},
	{"no shorter windows after the best record", evidence.Ablation{NoShortTail: true}},
	{"no sentence windows (the shortest window 250, not 180 code points)", evidence.Ablation{NoSentenceTail: true}},
	{"no filling sentence (windows of whole sentences only)", evidence.Ablation{NoSentenceFill: true}},
	{"no fusion with the plain ranking of the request's words", evidence.Ablation{NoFusion: true}},
	{"no windows (each record's decision unit)", evidence.Ablation{NoWindows: true}},
	{"no relevance stop (fill the budget)", evidence.Ablation{NoRelevanceStop: true}},
	{"no predecessor lines (superseded records' windows)", evidence.Ablation{NoPredecessorLines: true}},
	{"none of the five expansions and bonuses", evidence.Ablation{NoThesaurus: true, NoPhrases: true, NoStemPrefix: true, NoTitleBonus: true, NoGlossary: true}},
}

// labelledDay is the day the labelled answers are made on (ADR_DATE,
// unless set): an answer labels a proposal left open by its age in days
// and a passed review date, so without a fixed day the sizes would move
// from one day to the next.
const labelledDay = "2026-12-03"

type labelledOptions struct {
	out, heldout, compare, only, extra string
	// ask, with -workspace: only the tasks of the sets whose names hold
	// one of these comma-separated words are asked (the others' corpora
	// are in the workspace all the same).
	ask                  string
	quick, misses, ranks bool
}

func labelledMain(o labelledOptions) {
	out, heldout, compare := o.out, o.heldout, o.compare
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
	ab.WriteString("| set | use | tasks | configuration | recall: text in the answer | recall: units | recall: units or leads | mean code points (`--json`) | no-record tasks not answered `high` | units not in force unlabelled |\n|---|---|---:|---|---:|---:|---:|---:|---:|---:|\n")
	rel.WriteString("| set | confidence | tasks | with a relevant record | all relevant records in the units | a relevant record in the units or leads | tasks no record covers |\n|---|---|---:|---:|---:|---:|---:|\n")
	rankTotals := map[string]*rankCount{}
	var qt quickTotals
	files := sets
	if o.extra != "" {
		files = append(slices.Clone(sets), strings.Split(o.extra, ",")...)
	}
	for _, file := range files {
		if o.only != "" && !slices.ContainsFunc(strings.Split(o.only, ","), func(w string) bool { return strings.Contains(filepath.Base(file), w) }) {
			continue
		}
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
		if o.ranks {
			rankRows(set, name, dirs, rankTotals)
			continue
		}
		if o.quick {
			quickRows(set, name, dirs, o.misses, &qt)
			continue
		}
		if z, err := labelled.MeasureSizes(set, dirs, mcpWire()); err == nil {
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
			abRow(&ab, name, use, "`git adr` built from "+label, res)
		}
		for _, c := range ablations {
			res, err := labelled.Run(set, dirs, c.a)
			check(err)
			if len(res.Missing) > 0 && c.name == "as shipped" {
				fmt.Fprintf(os.Stderr, "bench-context: %s: corpora not found, their tasks not counted: %s\n", name, strings.Join(res.Missing, ", "))
			}
			abRow(&ab, name, use, c.name, res)
			if c.name != "as shipped" {
				continue
			}
			// The plain baselines, each filling the size of git-adr's
			// answer to the same task.
			for _, b := range []struct {
				name string
				b    labelled.Baseline
			}{{"BM25, best windows at the same size", labelled.DefaultBaseline}, {"BM25 + RM3, best windows at the same size", labelled.RM3Baseline}} {
				br, err := labelled.RunWith(set, dirs, b.b.Answerer(res.Sizes))
				check(err)
				fmt.Fprintf(&ab, "| %s | %s | %d | %s | %s | - | - | %.0f | - | - |\n", name, use, br.Tasks, b.name, ratio(br.FoundText, br.Relevant), br.MeanCodePoints())
			}
			levels := make([]string, 0, len(res.Levels))
			for l := range res.Levels {
				levels = append(levels, l)
			}
			order := map[string]int{"high": 0, "medium": 1, "low": 2, "none": 3}
			sort.Slice(levels, func(i, j int) bool { return order[levels[i]] < order[levels[j]] })
			for _, l := range levels {
				lv := res.Levels[l]
				fmt.Fprintf(&rel, "| %s | %s | %d | %d | %s | %s | %d |\n", name, l, lv.Tasks, lv.WithRecords,
					share(lv.AllFound, lv.WithRecords), share(lv.AnyNamed, lv.WithRecords), lv.NoRecord)
			}
		}
	}
	if o.ranks {
		printRanks("all sets", rankTotals)
		return
	}
	if o.quick {
		qt.print()
		return
	}
	fmt.Print(ab.String(), "\n", rel.String(), "\n", sizes.String())
	if out != "" {
		writeBetween(out, "bench-context-sizes", sizes.String())
		writeBetween(out, "bench-context-ablation", ab.String())
		writeBetween(out, "bench-context-reliability", rel.String())
	}
}

// rankCount counts relevant records by the rank a ranking gives them.
type rankCount struct {
	relevant int
	at       map[int]int // cut-off: relevant records ranked within it
}

var rankCuts = []int{1, 3, 5, 8, 10, 15}

type ranker struct {
	name string
	rank func(l *adr.Log, task string) []*adr.Record
}

func rankers() []ranker {
	return []ranker{
		{"git-adr", func(l *adr.Log, task string) []*adr.Record {
			rs, _ := (&evidence.Service{Log: l}).TaskRanking(task)
			return rs
		}},
		{"git-adr no tiering", func(l *adr.Log, task string) []*adr.Record {
			rs, _ := (&evidence.Service{Log: l, Ablate: evidence.Ablation{NoTiering: true}}).TaskRanking(task)
			return rs
		}},

		{"bm25", labelled.DefaultBaseline.Ranking},
		{"bm25+rm3", labelled.RM3Baseline.Ranking},
	}
}

// rankRows prints, for each ranking, the share of relevant records it
// places within each cut-off, and adds them to totals.
func rankRows(set *labelled.Set, name string, dirs []string, totals map[string]*rankCount) {
	counts := map[string]*rankCount{}
	_, err := labelled.ForEachTask(set, dirs, func(l *adr.Log, _ string, lt labelled.Task) error {
		for _, rk := range rankers() {
			order := rk.rank(l, lt.Task)
			for _, c := range []map[string]*rankCount{counts, totals} {
				rc := c[rk.name]
				if rc == nil {
					rc = &rankCount{at: map[int]int{}}
					c[rk.name] = rc
				}
				for _, id := range lt.Relevant {
					rc.relevant++
					pos := slices.IndexFunc(order, func(r *adr.Record) bool { return r.ID == id })
					for _, cut := range rankCuts {
						if pos >= 0 && pos < cut {
							rc.at[cut]++
						}
					}
				}
			}
		}
		return nil
	})
	check(err)
	printRanks(name, counts)
}

func printRanks(name string, counts map[string]*rankCount) {
	for _, rk := range rankers() {
		rc := counts[rk.name]
		if rc == nil || rc.relevant == 0 {
			continue
		}
		fmt.Printf("%-16s %-20s", name, rk.name)
		for _, cut := range rankCuts {
			fmt.Printf("  @%-2d %.3f", cut, float64(rc.at[cut])/float64(rc.relevant))
		}
		fmt.Printf("  (%d)\n", rc.relevant)
	}
}

// quickTotals sum the quick rows over the sets: git-adr, BM25 windows,
// BM25 with RM3.
type quickTotals struct {
	found, relevant, cp, tasks, noRecord, noRecordOK [3]int
}

func (t *quickTotals) add(i int, r *labelled.Result) {
	t.found[i] += r.FoundText
	t.relevant[i] += r.Relevant
	t.cp[i] += r.CodePoints
	t.tasks[i] += r.Tasks
	t.noRecord[i] += r.NoRecord
	t.noRecordOK[i] += r.NoRecordOK
}

func (t *quickTotals) print() {
	for i, name := range []string{"git-adr", "bm25 windows", "bm25+rm3"} {
		if t.relevant[i] == 0 {
			continue
		}
		fmt.Printf("%-16s %-14s text %.3f (%d/%d)  mean %5.0f  no-record ok %d/%d\n", "all sets", name,
			float64(t.found[i])/float64(t.relevant[i]), t.found[i], t.relevant[i], float64(t.cp[i])/float64(t.tasks[i]), t.noRecordOK[i], t.noRecord[i])
	}
}

// quickRows prints the shipped answers' figures and the baselines' at
// the same sizes, task by task.
func quickRows(set *labelled.Set, name string, dirs []string, misses bool, tot *quickTotals) {
	res, err := labelled.Run(set, dirs, evidence.Ablation{})
	check(err)
	tot.add(0, res)
	if len(res.Missing) > 0 {
		fmt.Fprintf(os.Stderr, "bench-context: %s: corpora not found, their tasks not counted: %s\n", name, strings.Join(res.Missing, ", "))
	}
	fmt.Printf("%-16s git-adr        units %.3f  text %.3f (%d/%d)  named %.3f  mean %5.0f  no-record ok %d/%d\n", name,
		res.Recall(), res.RecallText(), res.FoundText, res.Relevant, res.RecallNamed(), res.MeanCodePoints(), res.NoRecordOK, res.NoRecord)
	if misses {
		for _, m := range res.Misses {
			fmt.Println("    ", m)
		}
		// Where the ranking puts each relevant record the answer does
		// not carry the text of.
		_, err := labelled.ForEachTask(set, dirs, func(l *adr.Log, _ string, lt labelled.Task) error {
			svc := &evidence.Service{Log: l}
			resp, _, err := svc.Answer(evidence.Request{Task: lt.Task, Format: evidence.JSON})
			if err != nil {
				return err
			}
			carried := map[*adr.Record]int{}
			for _, u := range resp.Units {
				id, _ := adr.SplitLocator(strings.Split(u.ID, "[")[0])
				if r := labelled.UnitRecord(l, id, u.Path); r != nil {
					carried[r] += len([]rune(u.Text))
				}
			}
			order, _ := svc.TaskRanking(lt.Task)
			for _, id := range lt.Relevant {
				rec := labelled.LabelRecord(l, id)
				if rec != nil && carried[rec] >= labelled.MinText {
					continue
				}
				pos := slices.Index(order, rec)
				fmt.Printf("      text missing: %s rank %d carried %d units %d conf %s: %q\n", id, pos+1, carried[rec], len(resp.Units), resp.Confidence, lt.Task)
			}
			return nil
		})
		check(err)
	}
	for _, b := range []struct {
		name string
		b    labelled.Baseline
	}{{"bm25 windows", labelled.DefaultBaseline}, {"bm25+rm3", labelled.RM3Baseline}} {
		br, err := labelled.RunWith(set, dirs, b.b.Answerer(res.Sizes))
		check(err)
		if b.name == "bm25 windows" {
			tot.add(1, br)
		} else {
			tot.add(2, br)
		}
		fmt.Printf("%-16s %-14s            text %.3f (%d/%d)               mean %5.0f\n", name, b.name, br.RecallText(), br.FoundText, br.Relevant, br.MeanCodePoints())
	}
}

// abRow prints one configuration's row of the ablation table.
func abRow(b *strings.Builder, set, use, config string, r *labelled.Result) {
	fmt.Fprintf(b, "| %s | %s | %d | %s | %s | %s | %s | %.0f | %d/%d | %d |\n", set, use, r.Tasks, config,
		ratio(r.FoundText, r.Relevant), ratio(r.Found, r.Relevant), ratio(r.FoundNamed, r.Relevant), r.MeanCodePoints(), r.NoRecordOK, r.NoRecord, r.Unlabelled)
}

func ratio(n, d int) string {
	if d == 0 {
		return "-"
	}
	return fmt.Sprintf("%.3f (%d/%d)", float64(n)/float64(d), n, d)
}

func share(n, d int) string {
	if d == 0 {
		return "-"
	}
	return fmt.Sprintf("%d (%.0f%%)", n, 100*float64(n)/float64(d))
}

// mcpWire counts a compact JSON answer as `git adr mcp` sends it: the MCP
// server's own measure of a tool result holding that text.
func mcpWire() func(rendered []byte) int {
	srv := mcpserver.New(mcpserver.Options{Version: "labelled"})
	return func(b []byte) int { return srv.TextCost(strings.TrimSuffix(string(b), "\n")) }
}
