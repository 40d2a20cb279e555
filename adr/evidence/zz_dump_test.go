package evidence

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"encoding/json"
	"github.com/git-adr/git-adr/adr"
)

func TestDumpFeatures(t *testing.T) {
	root := corpora(t)
	for _, f := range []string{"labelled/testdata/shared-tasks.json", "labelled/testdata/fresh-tasks.json"} {
		data, _ := os.ReadFile(f)
		var set struct {
			Tasks []struct {
				Corpus, Task string
				Relevant     []string
			}
		}
		json.Unmarshal(data, &set)
		logs := map[string]*adr.Log{}
		for _, lt := range set.Tasks {
			l := logs[lt.Corpus]
			if l == nil {
				l, _ = adr.Load(os.DirFS(filepath.Join(root, lt.Corpus)), adr.LoadOptions{})
				logs[lt.Corpus] = l
			}
			s := &Service{Log: l}
			rk, _ := s.rankTask(lt.Task)
			h := rk.hits
			c := func(i int) float64 {
				if i < len(h) {
					return h[i].Coverage
				}
				return 0
			}
			sc := func(i int) float64 {
				if i < len(h) {
					return h[i].Score
				}
				return 0
			}
			rel := ""
			for _, r := range lt.Relevant {
				pos := -1
				for i, x := range h {
					if rk.recs[x.Doc].ID == r {
						pos = i
						break
					}
				}
				if pos >= 0 {
					rel += fmt.Sprintf(" %s@%d(%.2f,cov%.2f)", r, pos, h[pos].Score/sc(0), h[pos].Coverage)
				} else {
					rel += " " + r + "@-"
				}
			}
			fmt.Printf("%-6s c1=%.2f c2=%.2f c3=%.2f r2=%.2f n=%d top=%.1f |%s | %.50s\n", f[9:13], c(0), c(1), c(2), sc(1)/sc(0), len(h), sc(0), rel, lt.Task)
		}
	}
}

func corpora(t testing.TB) string {
	d := os.Getenv("GIT_ADR_CORPORA")
	if d == "" {
		d = "../../../shared/corpora"
	}
	return d
}
