package workspace

import (
	"bytes"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/git-adr/git-adr/retrieve"
)

// referenceScore is scoreTerms' prediction as first written, with maps
// keyed by record: the slices that replaced them must predict the same.
func referenceScore(body []byte, docs, records int, q []retrieve.QueryTerm) (memberScore, bool) {
	ms := memberScore{records: records}
	type word struct {
		weight float64
		best   map[int]float64
	}
	words := map[int]*word{}
	for _, qt := range q {
		if qt.Group < 0 {
			continue
		}
		wd := words[qt.Group]
		if wd == nil {
			wd = &word{best: map[int]float64{}}
			words[qt.Group] = wd
		}
		line := lookup(body, qt.Text)
		n := 0
		for len(line) > 0 {
			var entry []byte
			entry, line, _ = bytes.Cut(line, []byte{','})
			d, s, found := bytes.Cut(entry, []byte{':'})
			doc, err1 := strconv.Atoi(string(d))
			score, err2 := strconv.ParseFloat(string(s), 32)
			if !found || err1 != nil || err2 != nil {
				return ms, false
			}
			wd.best[doc] = max(wd.best[doc], score*qt.Weight)
			n++
		}
		if qt.Weight >= 1 {
			wd.weight = max(wd.weight, idf(docs, n))
		}
	}
	total := 0.0
	share, score := map[int]float64{}, map[int]float64{}
	for _, wd := range words {
		total += wd.weight
		for doc, s := range wd.best {
			share[doc] += wd.weight
			score[doc] += s
		}
	}
	for doc, s := range score {
		p := memberScore{share: share[doc] / max(total, 1e-9), score: s, records: ms.records}
		switch {
		case p.share >= highShare:
			p.tier = 2
		case p.share >= lowShare:
			p.tier = 1
		}
		if p.better(ms) {
			ms = p
		}
	}
	return ms, true
}

// On random summaries and queries (several terms a word, weights below
// and above 1), scoreTerms predicts the tier and score the map-based
// prediction did.
func TestScoreTermsAsReference(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	dir := t.TempDir()
	vocab := make([]string, 40)
	for i := range vocab {
		vocab[i] = fmt.Sprintf("t%02d", i)
	}
	for round := range 300 {
		docs := 1 + rng.IntN(60)
		terms := &Terms{Commit: "c0ffee", Records: docs + rng.IntN(3), Docs: docs, Postings: map[string][]posting{}}
		for _, term := range vocab {
			if rng.IntN(3) == 0 {
				continue
			}
			var ps []posting
			for d := range docs {
				if rng.IntN(4) == 0 {
					ps = append(ps, posting{d, float32(rng.Float64() * 5)})
				}
			}
			if len(ps) > 0 {
				terms.Postings[term] = ps
			}
		}
		p := filepath.Join(dir, fmt.Sprintf("s%d.txt", round))
		if err := os.WriteFile(p, terms.encode(), 0o644); err != nil {
			t.Fatal(err)
		}
		var q []retrieve.QueryTerm
		for g := range 1 + rng.IntN(6) {
			for range 1 + rng.IntN(3) {
				w := 1.0
				if rng.IntN(3) == 0 {
					w = 0.5
				}
				q = append(q, retrieve.QueryTerm{Text: vocab[rng.IntN(len(vocab))], Weight: w, Group: g - rng.IntN(2)*(g+1)})
			}
		}
		var buf []byte
		got, ok := scoreTerms(summaryAt{"c0ffee", p}, q, &buf)
		enc := terms.encode()
		header := fmt.Sprintf("%s\ncommit c0ffee\nrecords %d %d\n", termsFormat, terms.Records, docs)
		want, wantOK := referenceScore(enc[len(header):], docs, terms.Records, q)
		if ok != wantOK || got.tier != want.tier || got.records != want.records || math.Abs(got.score-want.score) > 1e-9*max(1, want.score) {
			t.Fatalf("round %d: got %+v %v, want %+v %v", round, got, ok, want, wantOK)
		}
	}
}

// lookup finds every term of a sorted summary, lines short and long,
// with or without a last newline, and none that is not there.
func TestLookupEveryLine(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for round := range 200 {
		n := rng.IntN(30)
		var body []byte
		present := map[string]string{}
		for i := range n {
			term := fmt.Sprintf("t%03d", 2*i+rng.IntN(2))
			post := "0:1"
			for range rng.IntN(200) {
				post += fmt.Sprintf(",%d:%.3g", rng.IntN(1000), rng.Float64())
			}
			present[term] = post
			body = append(body, term+"\t"+post+"\n"...)
		}
		if round%2 == 1 && len(body) > 0 {
			body = body[:len(body)-1]
		}
		for i := range 2*n + 2 {
			term := fmt.Sprintf("t%03d", i)
			if got := string(lookup(body, term)); got != present[term] {
				t.Fatalf("round %d: lookup(%q) = %.40q, want %.40q", round, term, got, present[term])
			}
		}
	}
}
