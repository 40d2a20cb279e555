package evidence

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/git-adr/git-adr/adr"
)

// corpora finds ../shared/corpora above the module root, or
// $GIT_ADR_CORPORA.
func corpora(t testing.TB) string {
	if d := os.Getenv("GIT_ADR_CORPORA"); d != "" {
		return d
	}
	dir, _ := os.Getwd()
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			d := filepath.Join(dir, "..", "shared", "corpora")
			if _, err := os.Stat(d); err == nil {
				return d
			}
			t.Skipf("shared corpora not found at %s (set GIT_ADR_CORPORA)", d)
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Skip("module root not found")
		}
		dir = parent
	}
}

type labelledTask struct {
	Corpus   string   `json:"corpus"`
	Task     string   `json:"task"`
	Relevant []string `json:"relevant"`
}

// TestSharedTaskRecall measures relevant-record recall of one default-budget
// response on hand-labelled tasks over the shared corpora, and that tasks
// no record covers get no confident answer. The floor guards regressions;
// the figures are printed with -v.
func TestSharedTaskRecall(t *testing.T) { evalTasks(t, "testdata/shared-tasks.json", 0.9) }

// TestFreshTaskRecall runs a second set, written after the first had been
// used for tuning and never tuned on: the honest estimate.
func TestFreshTaskRecall(t *testing.T) { evalTasks(t, "testdata/fresh-tasks.json", 0.8) }

func evalTasks(t *testing.T, file string, floor float64) {
	root := corpora(t)
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var set struct {
		Tasks []labelledTask `json:"tasks"`
	}
	if err := json.Unmarshal(data, &set); err != nil {
		t.Fatal(err)
	}
	logs := map[string]*adr.Log{}
	found, relevant := 0, 0
	var misses []string
	noneOK, noneTotal := 0, 0
	conf := map[string]int{}
	for _, lt := range set.Tasks {
		l := logs[lt.Corpus]
		if l == nil {
			l, err = adr.Load(os.DirFS(filepath.Join(root, lt.Corpus)), adr.LoadOptions{})
			if err != nil {
				t.Fatal(err)
			}
			logs[lt.Corpus] = l
		}
		svc := &Service{Log: l, CursorKey: testKey(lt.Corpus)}
		resp, out, err := svc.Answer(Request{Task: lt.Task, Format: JSON})
		if err != nil {
			t.Fatalf("%s: %q: %v", lt.Corpus, lt.Task, err)
		}
		if n := len([]rune(string(out))); n > DefaultMaxChars {
			t.Errorf("%s: %q: %d code points", lt.Corpus, lt.Task, n)
		}
		if len(lt.Relevant) > 0 {
			conf[resp.Confidence]++
		}
		got := map[string]bool{}
		for _, u := range resp.Units {
			id, _ := adr.SplitLocator(strings.Split(u.ID, "[")[0])
			got[id] = true
		}
		if len(lt.Relevant) == 0 {
			noneTotal++
			// No confident answer: "none" (no units) or "low" (units labelled
			// as leads with a warning) are both honest.
			if resp.Confidence != "high" {
				noneOK++
			} else {
				misses = append(misses, fmt.Sprintf("%s: %q: confidence %s, want none or low (units %v)", lt.Corpus, lt.Task, resp.Confidence, keys(got)))
			}
			continue
		}
		for _, r := range lt.Relevant {
			relevant++
			if got[r] {
				found++
			} else {
				misses = append(misses, fmt.Sprintf("%s: %q: missing %s (got %v)", lt.Corpus, lt.Task, r, keys(got)))
			}
		}
	}
	recall := float64(found) / float64(relevant)
	t.Logf("recall %.3f (%d/%d); no-record tasks without a confident answer: %d/%d; confidence on relevant tasks: %v", recall, found, relevant, noneOK, noneTotal, conf)
	for _, m := range misses {
		t.Log(m)
	}
	if recall < floor {
		t.Errorf("recall %.3f below %.2f", recall, floor)
	}
	if noneOK < noneTotal {
		t.Errorf("%d of %d no-record tasks got a confident answer", noneTotal-noneOK, noneTotal)
	}
}

func keys(m map[string]bool) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
