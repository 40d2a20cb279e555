package main

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/git-adr/git-adr/adr"
	"github.com/git-adr/git-adr/adr/evidence"
	"github.com/git-adr/git-adr/adr/evidence/labelled"
	"github.com/git-adr/git-adr/workspace"
)

// workspaceMain measures task answers across a workspace: every corpus
// the chosen labelled sets name becomes a repository of one workspace (a
// git repository read from its work tree), and each task is asked of the
// whole workspace, as an agent working across repositories asks it. A
// relevant record counts when the answer carries its text (as for one
// repository: labelled.MinText code points of it, from a unit of the
// right repository). Beside each build: a plain BM25 over every
// repository's records at once, best windows filling the size of that
// build's answer to the same task, and the task's own repository asked
// alone (this build's code, in process), what the merge could at best
// keep.
func workspaceMain(o labelledOptions, bins []string) {
	if os.Getenv("ADR_DATE") == "" {
		check(os.Setenv("ADR_DATE", labelledDay))
	}
	wd, err := os.Getwd()
	check(err)
	dirs := []string{"adr/evidence/labelled/testdata/corpora"}
	if o.heldout != "" {
		dirs = append(dirs, o.heldout)
	}
	if shared, err := labelled.Corpora(wd); err == nil {
		dirs = append(dirs, shared)
	}
	files := sets
	if o.extra != "" {
		files = append(slices.Clone(sets), strings.Split(o.extra, ",")...)
	}
	var chosen []*labelled.Set
	var names []string
	for _, file := range files {
		if o.only != "" && !slices.ContainsFunc(strings.Split(o.only, ","), func(w string) bool { return strings.Contains(filepath.Base(file), w) }) {
			continue
		}
		set, err := labelled.Load(file)
		check(err)
		chosen = append(chosen, set)
		names = append(names, strings.TrimSuffix(filepath.Base(file), ".json"))
	}
	tmp, err := os.MkdirTemp("", "bench-context-workspace-")
	check(err)
	defer os.RemoveAll(tmp)
	// One repository per corpus, named after it.
	logs := map[string]*adr.Log{}
	var order []string
	var ws strings.Builder
	for _, set := range chosen {
		for _, t := range set.Tasks {
			for _, corpus := range taskCorpora(t) {
				if _, ok := logs[corpus]; ok {
					continue
				}
				dir := ""
				for _, d := range dirs {
					if fi, err := os.Stat(filepath.Join(d, corpus)); err == nil && fi.IsDir() {
						dir = filepath.Join(d, corpus)
						break
					}
				}
				if dir == "" {
					logs[corpus] = nil
					fmt.Fprintf(os.Stderr, "bench-context: %s not found, its tasks not counted\n", corpus)
					continue
				}
				l, err := adr.Load(os.DirFS(dir), adr.LoadOptions{})
				check(err)
				logs[corpus] = l
				order = append(order, corpus)
				repo := filepath.Join(tmp, "repos", corpus)
				check(os.CopyFS(repo, os.DirFS(dir)))
				if out, err := exec.Command("git", "-C", repo, "init", "-q").CombinedOutput(); err != nil {
					check(fmt.Errorf("git init: %v: %s", err, out))
				}
				fmt.Fprintf(&ws, "[[repo]]\nname = %q\npath = %q\n\n", corpus, filepath.Join("repos", corpus))
			}
		}
	}
	if o.ask != "" {
		// Every set's corpora are in the workspace; only these sets'
		// tasks are asked.
		var asked []*labelled.Set
		var askedNames []string
		for i, set := range chosen {
			if slices.ContainsFunc(strings.Split(o.ask, ","), func(w string) bool { return strings.Contains(names[i], w) }) {
				asked = append(asked, set)
				askedNames = append(askedNames, names[i])
			}
		}
		chosen, names = asked, askedNames
	}
	// The tasks asked: those whose every labelled repository is here.
	var asked []labelled.Task
	for _, set := range chosen {
		for _, t := range set.Tasks {
			if askable(logs, t) {
				asked = append(asked, t)
			}
		}
	}
	wsFile := filepath.Join(tmp, "workspace.toml")
	check(os.WriteFile(wsFile, []byte(ws.String()), 0o644))
	fmt.Fprintf(os.Stderr, "bench-context: one workspace of %d repositories (%d records)\n", len(order), records(logs))

	var table strings.Builder
	fmt.Fprintf(&table, "| sets | tasks | answer | recall: text in the answer | recall: units | mean code points | share of units from the task's repositories |\n|---|---:|---|---:|---:|---:|---:|\n")
	label := strings.Join(names, ", ")
	// The plain baseline, filling the sizes of an answer of git-adr's to
	// the same tasks.
	baseline := func(sizes []int) {
		var all []*adr.Log
		for _, c := range order {
			all = append(all, logs[c])
		}
		pooled := labelled.NewPooled(all...)
		corpusOf := map[*adr.Record]string{}
		for _, c := range order {
			for _, r := range logs[c].Records {
				corpusOf[r] = c
			}
		}
		var bt wsTotals
		i := 0
		for _, t := range asked {
			var units []unitOf
			n := 0
			for _, p := range labelled.DefaultBaseline.Passages(pooled, t.Task, sizes[i]) {
				units = append(units, unitOf{repo: corpusOf[p.Record], id: p.Record.ID, path: p.Record.Path, text: p.Text})
				n += utf8.RuneCountInString(p.Text)
			}
			i++
			bt.add(logs, t, units, n, o.misses, "baseline")
		}
		bt.row(&table, label, "plain BM25 over every repository's records, best windows at the same size")
	}
	for _, bl := range bins {
		name, bin, _ := strings.Cut(bl, "=")
		var tot wsTotals
		var sizes []int
		for _, t := range asked {
			cmd := exec.Command(bin, "--workspace", wsFile, "context", "--task", t.Task, "--json")
			cmd.Dir = tmp
			cmd.Env = append(os.Environ(), "XDG_CACHE_HOME="+filepath.Join(tmp, "cache-"+name), "GIT_CEILING_DIRECTORIES="+tmp)
			out, err := cmd.Output()
			if err != nil {
				check(fmt.Errorf("%s context --task %q: %w", bin, t.Task, err))
			}
			var ans struct {
				Units []struct {
					Repository, ID, Path, Text string
				}
			}
			check(json.Unmarshal(out, &ans))
			n := utf8.RuneCount(out)
			sizes = append(sizes, n)
			var units []unitOf
			for _, u := range ans.Units {
				units = append(units, unitOf{repo: u.Repository, id: strings.TrimPrefix(u.ID, u.Repository+":"), path: u.Path, text: u.Text})
			}
			tot.add(logs, t, units, n, o.misses, name)
		}
		tot.row(&table, label, "`git adr --workspace` built from "+name)
		if name == strings.Split(bins[0], "=")[0] {
			baseline(sizes)
		}
	}
	// This build in process, as shipped and with each heuristic of the
	// merge switched off, each packed into the same budget by the size
	// of its units' JSON (the command's rendering is the command's).
	w, err := workspace.Load(wsFile, filepath.Join(tmp, "cache-in-process"))
	check(err)
	for _, ab := range []struct {
		name string
		a    workspace.MergeAblation
	}{
		{"this build in process, as shipped", workspace.MergeAblation{}},
		{"in process, merged as before (the surest repository first, then each unit's place)", workspace.MergeAblation{MemberOrder: true}},
		{"in process, the task's words alone (no concept groups, phrases or alternate stems)", workspace.MergeAblation{MergeAblation: evidence.MergeAblation{PlainTerms: true}}},
		{"in process, no title bonus", workspace.MergeAblation{MergeAblation: evidence.MergeAblation{NoTitleBonus: true}}},
		{"in process, no status prior", workspace.MergeAblation{MergeAblation: evidence.MergeAblation{NoStatusPrior: true}}},
		{"in process, each record's length against its own log's mean", workspace.MergeAblation{MergeAblation: evidence.MergeAblation{OwnLengths: true}}},
		{"in process, a record's units kept together (its later units not behind every record's first)", workspace.MergeAblation{RecordsTogether: true}},
	} {
		if o.quick && ab.name != "this build in process, as shipped" {
			continue
		}
		var tot wsTotals
		var sizes []int
		for _, t := range asked {
			ans, err := w.Context(workspace.ContextRequest{Task: t.Task, Ablate: ab.a}, nil)
			check(err)
			measure := func(a *workspace.ContextAnswer) int {
				b, err := json.Marshal(a.Units)
				check(err)
				return utf8.RuneCount(b)
			}
			ans.Pack(0, 0, measure)
			var units []unitOf
			for _, u := range ans.Units {
				units = append(units, unitOf{repo: u.Repository, id: strings.TrimPrefix(u.ID, u.Repository+":"), path: u.Path, text: u.Text})
			}
			sizes = append(sizes, measure(ans))
			tot.add(logs, t, units, measure(ans), o.misses && o.quick, "in process")
		}
		tot.row(&table, label, ab.name)
		if o.quick {
			baseline(sizes)
		}
	}
	if o.quick {
		fmt.Print(table.String())
		return
	}
	// The task's own repository alone, in process (this build's code).
	own, err := labelled.Run(&labelled.Set{Tasks: slices.DeleteFunc(slices.Clone(asked), func(t labelled.Task) bool { return t.Corpus == acrossRepositories })}, dirs, evidence.Ablation{})
	check(err)
	if own.Tasks > 0 { // none for tasks labelled across repositories
		fmt.Fprintf(&table, "| %s | %d | the task's own repository asked alone (this build, in process) | %s | %s | %.0f | 1 |\n", label, own.Tasks,
			ratio(own.FoundText, own.Relevant), ratio(own.Found, own.Relevant), own.MeanCodePoints())
	}
	fmt.Print(table.String())
	if o.out != "" {
		writeBetween(o.out, "bench-context-workspace", table.String())
	}
}

func records(logs map[string]*adr.Log) int {
	n := 0
	for _, l := range logs {
		if l != nil {
			n += len(l.Records)
		}
	}
	return n
}

// unitOf is a unit of an answer across the workspace: its repository,
// its ID there, its path and its text.
type unitOf struct{ repo, id, path, text string }

type wsTotals struct {
	tasks, relevant, text, units, cp, ownUnits, allUnits int
}

// add scores one answer: a relevant record counts when a unit of its
// repository shows it, and its text when they carry enough of it.
func (w *wsTotals) add(logs map[string]*adr.Log, t labelled.Task, units []unitOf, size int, misses bool, who string) {
	w.tasks++
	w.cp += size
	repos := map[string]bool{}
	for _, c := range taskCorpora(t) {
		repos[c] = true
	}
	got := map[*adr.Record]bool{}
	carried := map[*adr.Record]int{}
	for _, u := range units {
		w.allUnits++
		if !repos[u.repo] {
			continue
		}
		w.ownUnits++
		id, _ := adr.SplitLocator(strings.Split(u.id, "[")[0])
		if r := labelled.UnitRecord(logs[u.repo], id, u.path); r != nil {
			got[r] = true
			carried[r] += utf8.RuneCountInString(u.text)
		}
	}
	for _, lab := range t.Relevant {
		w.relevant++
		corpus, label := t.Corpus, lab
		if t.Corpus == acrossRepositories {
			corpus, label, _ = strings.Cut(lab, ":")
		}
		r := labelled.LabelRecord(logs[corpus], label)
		if r == nil {
			continue
		}
		if got[r] {
			w.units++
		}
		if carried[r] >= min(labelled.MinText, utf8.RuneCount(r.Content())) {
			w.text++
		} else if misses {
			fmt.Fprintf(os.Stderr, "%s: %s: %q: missing %s\n", who, t.Corpus, t.Task, lab)
		}
	}
}

// acrossRepositories is the corpus of a task labelled across the
// workspace: its labels are REPOSITORY:RECORD.
const acrossRepositories = "workspace"

// taskCorpora are the repositories a task's labels are in.
func taskCorpora(t labelled.Task) []string {
	if t.Corpus != acrossRepositories {
		return []string{t.Corpus}
	}
	var out []string
	for _, lab := range t.Relevant {
		c, _, _ := strings.Cut(lab, ":")
		if !slices.Contains(out, c) {
			out = append(out, c)
		}
	}
	return out
}

// askable says whether every repository a task's labels are in is in
// the workspace.
func askable(logs map[string]*adr.Log, t labelled.Task) bool {
	for _, c := range taskCorpora(t) {
		if logs[c] == nil {
			return false
		}
	}
	return true
}

func (w *wsTotals) row(b *strings.Builder, sets, what string) {
	fmt.Fprintf(b, "| %s | %d | %s | %s | %s | %.0f | %s |\n", sets, w.tasks, what, ratio(w.text, w.relevant), ratio(w.units, w.relevant),
		float64(w.cp)/float64(max(w.tasks, 1)), ratio(w.ownUnits, w.allUnits))
}
