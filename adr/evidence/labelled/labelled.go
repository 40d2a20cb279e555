// Package labelled measures task retrieval on hand-labelled sets: tasks
// over real ADR logs, each with the records that answer it (none for a
// task no record covers). It reports relevant-record recall within one
// default response, the size of the evidence, how well the confidence
// predicts correctness, and whether every record not in force is
// labelled, with any retrieval heuristic switched off (an ablation).
//
// A set says whether it was used for tuning. A figure on a tuning set is
// not an estimate of quality on new data; only a set first read after
// the code was frozen gives one (a held-out set).
package labelled

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"strings"
	"unicode/utf8"

	"github.com/git-adr/git-adr/adr"
	"github.com/git-adr/git-adr/adr/evidence"
	"github.com/git-adr/git-adr/internal/corpora"
)

// Task is one labelled question.
type Task struct {
	Corpus   string   `json:"corpus"`
	Task     string   `json:"task"`
	Relevant []string `json:"relevant"`
}

// Set is a file of labelled tasks.
type Set struct {
	About string `json:"about"`
	// Use is "tuning" (looked at while code was changed) or "held-out"
	// (first read after the code was frozen, at the commit in Frozen).
	Use    string `json:"use"`
	Frozen string `json:"frozen,omitempty"`
	Tasks  []Task `json:"tasks"`
}

// Load reads a set.
func Load(file string) (*Set, error) {
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	var s Set
	if err := json.Unmarshal(data, &s); err != nil {
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	return &s, nil
}

// Level is the outcome of the tasks answered with one confidence.
type Level struct {
	Tasks int
	// WithRecords counts tasks that have relevant records; AllFound those
	// whose relevant records are all in the units; AnyNamed those with a
	// relevant record in the units or the leads.
	WithRecords, AllFound, AnyNamed int
	// NoRecord counts tasks no record covers.
	NoRecord int
}

// Result is a set's figures.
type Result struct {
	Tasks, Relevant, Found int
	// FoundText counts relevant records the answer carries at least
	// MinText code points of (or the whole text of a shorter record):
	// their decision text, not a title or a lead line. FoundNamed counts
	// those in the units or named as leads.
	FoundText, FoundNamed int
	// Sizes are the responses' sizes in code points, task by task.
	Sizes []int
	// CodePoints sums the responses' sizes.
	CodePoints int
	// NoRecord tasks, and those of them not answered with confidence
	// "high".
	NoRecord, NoRecordOK int
	Levels               map[string]*Level
	// Unlabelled counts units of records not in force that do not say
	// so (in_force false).
	Unlabelled int
	// Over counts responses over the budget.
	Over   int
	Misses []string
	// Missing names corpora found in none of the folders; their tasks
	// are not counted.
	Missing []string
}

// Recall is the share of relevant records whose units were in the answer.
func (r *Result) Recall() float64 {
	if r.Relevant == 0 {
		return 0
	}
	return float64(r.Found) / float64(r.Relevant)
}

// RecallText is the share of relevant records whose text the answer
// carries (FoundText).
func (r *Result) RecallText() float64 {
	if r.Relevant == 0 {
		return 0
	}
	return float64(r.FoundText) / float64(r.Relevant)
}

// RecallNamed is the share of relevant records in the units or named as
// leads (FoundNamed).
func (r *Result) RecallNamed() float64 {
	if r.Relevant == 0 {
		return 0
	}
	return float64(r.FoundNamed) / float64(r.Relevant)
}

// MinText is how many code points of a record's text an answer must
// carry for the record to count as answered by its text.
const MinText = 120

// textCarried reports whether carried code points of r's text are enough
// to count as its text: MinText, or all of a record shorter than that.
func textCarried(r *adr.Record, carried int) bool {
	return carried >= min(MinText, utf8.RuneCount(r.Content()))
}

// MeanCodePoints is the mean size of a response.
func (r *Result) MeanCodePoints() float64 {
	if r.Tasks == 0 {
		return 0
	}
	return float64(r.CodePoints) / float64(r.Tasks)
}

// An Answerer answers a task over a corpus: the log loaded from dir.
type Answerer func(l *adr.Log, dir, task string) (*evidence.Response, []byte, error)

// InProcess answers with this package's service and an ablation.
func InProcess(ablate evidence.Ablation) Answerer {
	return func(l *adr.Log, _, task string) (*evidence.Response, []byte, error) {
		svc := &evidence.Service{Log: l, Ablate: ablate}
		return svc.Answer(evidence.Request{Task: task, Format: evidence.JSON})
	}
}

// Command answers with `BIN context --task TASK --json` run in a git
// repository holding a copy of the corpus (made once per corpus under
// tmp), so that another build of git-adr (main, say) is measured the same
// way.
func Command(bin, tmp string) Answerer {
	repos := map[string]string{}
	return func(_ *adr.Log, dir, task string) (*evidence.Response, []byte, error) {
		repo, ok := repos[dir]
		if !ok {
			repo = filepath.Join(tmp, fmt.Sprintf("corpus-%d", len(repos)))
			if err := os.CopyFS(repo, os.DirFS(dir)); err != nil {
				return nil, nil, err
			}
			if out, err := exec.Command("git", "-C", repo, "init", "-q").CombinedOutput(); err != nil {
				return nil, nil, fmt.Errorf("git init: %v: %s", err, out)
			}
			repos[dir] = repo
		}
		cmd := exec.Command(bin, "context", "--task", task, "--json")
		cmd.Dir = repo
		cmd.Env = append(os.Environ(), "GIT_CEILING_DIRECTORIES="+filepath.Dir(repo))
		out, err := cmd.Output()
		if err != nil {
			return nil, nil, fmt.Errorf("%s context --task %q: %w", bin, task, err)
		}
		var resp evidence.Response
		if err := json.Unmarshal(out, &resp); err != nil {
			return nil, nil, err
		}
		return &resp, out, nil
	}
}

// Sizes are a set's mean response sizes, in code points, in each form
// an agent receives an answer: JSON as `git adr context --json` prints it
// (indented, what Result.CodePoints counts), text as `git adr context`
// prints it, and the JSON-RPC message `adr_context` sends over MCP
// (compact JSON as a tool result's text, counted on the wire with the
// measure MeasureSizes is given, which also packs the answer).
type Sizes struct {
	Tasks               int
	JSON, Text, MCPWire float64
}

// MeasureSizes answers every task of s once per form, as shipped. wire
// counts a compact JSON answer as the MCP message that carries it: the
// MCP server's own measure (navigate/mcpserver), given by the caller so
// that the decision log does not depend on the server.
func MeasureSizes(s *Set, dirs []string, wire func(rendered []byte) int) (*Sizes, error) {
	var sum [3]int
	res, err := RunWith(s, dirs, func(l *adr.Log, _, task string) (*evidence.Response, []byte, error) {
		svc := &evidence.Service{Log: l}
		resp, js, err := svc.Answer(evidence.Request{Task: task, Format: evidence.JSON})
		if err != nil {
			return nil, nil, err
		}
		_, txt, err := svc.Answer(evidence.Request{Task: task, Format: evidence.Text})
		if err != nil {
			return nil, nil, err
		}
		mcpSvc := &evidence.Service{Log: l, MCP: true, Measure: wire}
		_, c, err := mcpSvc.Answer(evidence.Request{Task: task, Format: evidence.CompactJSON})
		if err != nil {
			return nil, nil, err
		}
		sum[0] += utf8.RuneCount(js)
		sum[1] += utf8.RuneCount(txt)
		sum[2] += wire(c)
		return resp, js, nil
	})
	if err != nil {
		return nil, err
	}
	z := &Sizes{Tasks: res.Tasks}
	if res.Tasks > 0 {
		n := float64(res.Tasks)
		z.JSON, z.Text, z.MCPWire = float64(sum[0])/n, float64(sum[1])/n, float64(sum[2])/n
	}
	return z, nil
}

// Run answers every task of s with the given ablation; each corpus is
// the folder of its name in the first of dirs that has one.
func Run(s *Set, dirs []string, ablate evidence.Ablation) (*Result, error) {
	return RunWith(s, dirs, InProcess(ablate))
}

// ForEachTask loads each corpus of s once (from the first of dirs that
// has its folder) and calls f with every task whose corpus was found;
// it returns the corpora found in none of dirs.
func ForEachTask(s *Set, dirs []string, f func(l *adr.Log, dir string, lt Task) error) ([]string, error) {
	paths := map[string]string{}
	logs := map[string]*adr.Log{}
	missing := map[string]bool{}
	var missed []string
	for _, lt := range s.Tasks {
		if missing[lt.Corpus] {
			continue
		}
		l := logs[lt.Corpus]
		if l == nil {
			dir := ""
			for _, d := range dirs {
				if fi, err := os.Stat(filepath.Join(d, lt.Corpus)); err == nil && fi.IsDir() {
					dir = filepath.Join(d, lt.Corpus)
					break
				}
			}
			if dir == "" {
				missing[lt.Corpus] = true
				missed = append(missed, lt.Corpus)
				continue
			}
			paths[lt.Corpus] = dir
			var err error
			l, err = adr.Load(os.DirFS(dir), adr.LoadOptions{})
			if err != nil {
				return missed, fmt.Errorf("%s: %w", lt.Corpus, err)
			}
			logs[lt.Corpus] = l
		}
		if err := checkLabels(l, paths[lt.Corpus], lt); err != nil {
			return missed, err
		}
		if err := f(l, paths[lt.Corpus], lt); err != nil {
			return missed, err
		}
	}
	return missed, nil
}

// RunWith is Run with any answerer.
func RunWith(s *Set, dirs []string, answer Answerer) (*Result, error) {
	res := &Result{Levels: map[string]*Level{}}
	missing, err := ForEachTask(s, dirs, func(l *adr.Log, dir string, lt Task) error {
		return res.score(l, dir, lt, answer)
	})
	res.Missing = missing
	if err != nil {
		return nil, err
	}
	return res, nil
}

// score answers one task and adds its figures.
func (res *Result) score(l *adr.Log, dir string, lt Task, answer Answerer) error {
	resp, out, err := answer(l, dir, lt.Task)
	if err != nil {
		return fmt.Errorf("%s: %q: %w", lt.Corpus, lt.Task, err)
	}
	res.Tasks++
	n := len([]rune(string(out)))
	res.CodePoints += n
	res.Sizes = append(res.Sizes, n)
	if n > evidence.DefaultMaxChars {
		res.Over++
	}
	lv := res.Levels[resp.Confidence]
	if lv == nil {
		lv = &Level{}
		res.Levels[resp.Confidence] = lv
	}
	lv.Tasks++
	got := map[*adr.Record]bool{}
	carried := map[*adr.Record]int{}
	for _, u := range resp.Units {
		if u.Kind == "source" || u.Kind == evidence.KindCurrent || u.Kind == "memory" {
			continue
		}
		id, _ := adr.SplitLocator(strings.Split(u.ID, "[")[0])
		if rec := unitRecord(l, id, u.Path); rec != nil {
			got[rec] = true
			carried[rec] += utf8.RuneCountInString(u.Text)
		}
		// A record that states no status is in force by design
		// ("status not stated"); every other status but accepted
		// must be labelled.
		if r := recordOf(l, u.Path); r != nil && r.Status != adr.Accepted && r.RawStatus != "" && (u.InForce == nil || *u.InForce) {
			res.Unlabelled++
		}
	}
	named := map[*adr.Record]bool{}
	for _, ref := range resp.References {
		if rec := unitRecord(l, ref.ID, ref.Path); rec != nil {
			named[rec] = true
		}
	}
	if len(lt.Relevant) == 0 {
		res.NoRecord++
		lv.NoRecord++
		if resp.Confidence != "high" {
			res.NoRecordOK++
		} else {
			res.Misses = append(res.Misses, fmt.Sprintf("%s: %q: confidence high, want none or low", lt.Corpus, lt.Task))
		}
		return nil
	}
	lv.WithRecords++
	all, any := true, false
	for _, r := range lt.Relevant {
		res.Relevant++
		rec := labelRecord(l, r) // nil: a file git-adr does not read as a record
		if rec == nil {
			all = false
			res.Misses = append(res.Misses, fmt.Sprintf("%s: %q: missing %s (a file git-adr does not read as a record)", lt.Corpus, lt.Task, r))
			continue
		}
		if got[rec] || named[rec] {
			res.FoundNamed++
		}
		if textCarried(rec, carried[rec]) {
			res.FoundText++
		}
		if got[rec] {
			res.Found++
			any = true
		} else {
			all = false
			any = any || named[rec]
			res.Misses = append(res.Misses, fmt.Sprintf("%s: %q: missing %s (confidence %s)", lt.Corpus, lt.Task, r, resp.Confidence))
		}
	}
	if all {
		lv.AllFound++
	}
	if any {
		lv.AnyNamed++
	}
	return nil
}

func recordOf(l *adr.Log, p string) *adr.Record { return l.ByPath(p) }

// UnitRecord is unitRecord, for tools that explain a run (bench-context
// -misses).
func UnitRecord(l *adr.Log, id, path string) *adr.Record { return unitRecord(l, id, path) }

// LabelRecord is labelRecord, for tools that explain a run.
func LabelRecord(l *adr.Log, label string) *adr.Record { return labelRecord(l, label) }

// unitRecord is the record a unit (or a reference) of an answer shows:
// the one record of its path, else (a single-file log holds several) the
// one of its path with its ID, else the record of that ID.
func unitRecord(l *adr.Log, id, path string) *adr.Record {
	var byPath []*adr.Record
	for _, r := range l.Records {
		if r.Path == path {
			byPath = append(byPath, r)
		}
	}
	if len(byPath) == 1 {
		return byPath[0]
	}
	for _, r := range byPath {
		if r.ID == id {
			return r
		}
	}
	return byID(l, id)
}

// labelRecord is the record a label names: by its ID (when one record
// has it), else by its file: the file name without its extension, or the
// folder of a record kept as README.md or index.md ("2023-02-27_testing"
// for 2023-02-27_testing/README.md). Labels name files when a log's IDs
// are not unique (two files numbered 2503) or when git-adr does not read
// the file as a record; nil then.
func labelRecord(l *adr.Log, label string) *adr.Record {
	var withID []*adr.Record
	for _, r := range l.Records {
		if r.ID == label {
			withID = append(withID, r)
		}
	}
	if len(withID) == 1 {
		return withID[0]
	}
	for _, r := range l.Records {
		if fileLabel(r.Path) == label {
			return r
		}
	}
	return nil
}

// fileLabel is how a label names a record by its file.
func fileLabel(p string) string {
	base := path.Base(p)
	name := strings.TrimSuffix(base, path.Ext(base))
	if strings.EqualFold(name, "README") || strings.EqualFold(name, "index") {
		return path.Base(path.Dir(p))
	}
	return name
}

// byID is the record of l whose ID is id.
func byID(l *adr.Log, id string) *adr.Record {
	for _, r := range l.Records {
		if r.ID == id {
			return r
		}
	}
	return nil
}

// checkLabels fails when a task names a record its log does not have
// under that ID: a label written "ADR-0018" for a log whose IDs are
// written "ADR-018" would otherwise count as a miss on every run.
func checkLabels(l *adr.Log, dir string, lt Task) error {
	for _, id := range lt.Relevant {
		if labelRecord(l, id) != nil {
			continue
		}
		hint := ""
		if r, err := l.Resolve(id); err == nil && r != nil {
			hint = fmt.Sprintf(" (did you mean %s, %s?)", r.ID, r.Path)
		} else if onDisk(dir, id) {
			continue // a file of the log that git-adr does not read: a miss
		}
		return fmt.Errorf("%s: %q: label %s names no record of the log%s", lt.Corpus, lt.Task, id, hint)
	}
	return nil
}

// onDisk reports whether a Markdown file under dir is named by label as
// labelRecord names files.
func onDisk(dir, label string) bool {
	found := false
	_ = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(strings.ToLower(p), ".md") && fileLabel(filepath.ToSlash(p)) == label {
			found = true
			return fs.SkipAll
		}
		return nil
	})
	return found
}

// Corpora finds the folder of the shared corpora: $GIT_ADR_CORPORA, or
// ../shared/corpora beside the module root above dir (corpora.Dir).
func Corpora(dir string) (string, error) { return corpora.Dir(dir) }
