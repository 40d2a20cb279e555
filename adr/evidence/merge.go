package evidence

import (
	"maps"
	"math"
	"slices"
	"strings"
	"sync"

	"github.com/git-adr/git-adr/adr"
	"github.com/git-adr/git-adr/retrieve"
)

// WordStats are what a log's indexes say of a task's terms (MergeTerms),
// so that the answers of several logs (a workspace's repositories) can be
// ordered on one scale (MergedScores): as one index of all their records
// would score each unit's record. Each log's own answer ranks by its own
// statistics, which no other log shares (a word rare in one repository
// is common in another), and its confidence is its own too. The zero
// value is a log that answered nothing: it adds nothing.
type WordStats struct {
	// Docs is the number of live records the indexes hold.
	Docs int
	// DF and TitleDF are each term's document frequency in the record
	// bodies and in the title index (titles, domains, file names).
	DF, TitleDF []int
	// AvgLen and TitleAvgLen are the mean lengths of the records' bodies
	// and titles, K1 and B the BM25 parameters of the indexes.
	AvgLen, TitleAvgLen, K1, B float64
	// TF and TitleTF hold, for each unit asked about, each term's
	// frequency in its record's body and title; Len and TitleLen are
	// their lengths, and Prior its status prior; nil and 0 for a unit
	// that is not a live record's.
	TF, TitleTF   [][]float64
	Len, TitleLen []float64
	Prior         []float64
}

// MergeTerms are a task's terms as the answer's ranking analyses them
// (its concept groups, phrases and alternate stems; not the expansions a
// log's own vocabulary or glossary adds), for WordStats and MergedScores.
func MergeTerms(task string, a MergeAblation) []retrieve.QueryTerm {
	lang := retrieve.DetectLanguage(task)
	q := retrieve.QueryWith(task, lang, retrieve.QueryOptions{NoThesaurus: a.PlainTerms, NoPhrases: a.PlainTerms})
	if !a.PlainTerms {
		q = retrieve.WithAlternateStems(task, lang, q)
	}
	return q
}

// MergeAblation switches the heuristics of MergedScores off, for
// measurements (bench-context -labelled -workspace).
type MergeAblation struct {
	PlainTerms    bool // the task's words alone: no concept groups, phrases or alternate stems
	NoTitleBonus  bool // the body's score alone
	NoStatusPrior bool // every status alike
	OwnLengths    bool // each record's length against its own log's mean, not every log's
}

// keptIndexes are the indexes of a service's last task answer, kept for
// WordStats when the service is asked to (KeepIndexes).
type keptIndexes struct {
	mu      sync.Mutex
	recs    []*adr.Record
	ix, tix *retrieve.Index // nil until an answer kept them
}

func (k *keptIndexes) keep(recs []*adr.Record, ix, tix *retrieve.Index) {
	k.mu.Lock()
	defer k.mu.Unlock()
	k.recs, k.ix, k.tix = recs, ix, tix
}

func (k *keptIndexes) get() ([]*adr.Record, *retrieve.Index, *retrieve.Index, bool) {
	k.mu.Lock()
	defer k.mu.Unlock()
	return k.recs, k.ix, k.tix, k.ix != nil
}

// WordStats returns the log's statistics for terms (MergeTerms of the
// task) and the term frequencies of the records units come from (units
// of this service's answer to the task), from the indexes that answer
// used when the service keeps them (KeepIndexes), else from those stored
// or made again.
func (s *Service) WordStats(terms []retrieve.QueryTerm, units []Unit) WordStats {
	recs, ix, tix, ok := s.kept.get()
	if !ok {
		recs, ix, tix = s.taskIndexes()
		s.saving.Wait()
	}
	n := len(units)
	st := WordStats{Docs: ix.Len(), AvgLen: ix.AvgLen(), TitleAvgLen: tix.AvgLen(), K1: ix.K1, B: ix.B,
		TF: make([][]float64, n), TitleTF: make([][]float64, n), Len: make([]float64, n), TitleLen: make([]float64, n), Prior: make([]float64, n)}
	// Each unit's record: by its path, and the record ID its own ID
	// starts with where one path holds several records (a single-file
	// log).
	byPath := map[string][]int{}
	for d, r := range recs {
		byPath[r.Path] = append(byPath[r.Path], d)
	}
	docOf := make([]int, len(units))
	var docs []int
	seen := map[int]bool{}
	for i, u := range units {
		docOf[i] = -1
		id, _, _ := strings.Cut(u.ID, "#")
		for _, d := range byPath[u.Path] {
			if docOf[i] < 0 || recs[d].ID == id {
				docOf[i] = d
			}
		}
		if d := docOf[i]; d >= 0 {
			st.Prior[i] = statusPrior[recs[d].Status]
			st.Len[i], st.TitleLen[i] = ix.DocLen(d), tix.DocLen(d)
			if !seen[d] {
				seen[d] = true
				docs = append(docs, d)
			}
		}
	}
	at := make(map[int]int, len(docs))
	for k, d := range docs {
		at[d] = k
	}
	for _, t := range terms {
		df, tfs := ix.TermFreqs(t.Text, docs)
		tdf, ttfs := tix.TermFreqs(t.Text, docs)
		st.DF, st.TitleDF = append(st.DF, df), append(st.TitleDF, tdf)
		for i, d := range docOf {
			if d >= 0 {
				st.TF[i] = append(st.TF[i], tfs[at[d]])
				st.TitleTF[i] = append(st.TitleTF[i], ttfs[at[d]])
			}
		}
	}
	return st
}

// MergedScores scores the units of several answers to one task on one
// scale, stats[i] describing answer i's for terms (MergeTerms): each
// unit's record as the answer's ranking scores a record (BM25 of its
// body, plus TitleBonus times that of its title, domains and file name,
// times its status prior), with the statistics of every answer's log
// together: the numbers of records, the document frequencies and the
// lengths summed, so that a record is as long as the records of every
// log make it.
func MergedScores(terms []retrieve.QueryTerm, stats []WordStats, a MergeAblation) [][]float64 {
	var docs, length, titleLength float64
	df, tdf := make([]float64, len(terms)), make([]float64, len(terms))
	for _, st := range stats {
		docs += float64(st.Docs)
		length += st.AvgLen * float64(st.Docs)
		titleLength += st.TitleAvgLen * float64(st.Docs)
		for k := range st.DF {
			df[k] += float64(st.DF[k])
			tdf[k] += float64(st.TitleDF[k])
		}
	}
	bodyIDF, titleIDF := make([]float64, len(terms)), make([]float64, len(terms))
	for k := range terms {
		bodyIDF[k], titleIDF[k] = retrieve.IDF(docs, df[k]), retrieve.IDF(docs, tdf[k])
	}
	avg, titleAvg := math.Max(length/math.Max(docs, 1), 1), math.Max(titleLength/math.Max(docs, 1), 1)
	out := make([][]float64, len(stats))
	for i, st := range stats {
		out[i] = make([]float64, len(st.TF))
		bodyAvg, headAvg := avg, titleAvg
		if a.OwnLengths {
			bodyAvg, headAvg = math.Max(st.AvgLen, 1), math.Max(st.TitleAvgLen, 1)
		}
		for u := range st.TF {
			sc := groupScore(terms, bodyIDF, st.TF[u], st.Len[u], bodyAvg, st.K1, st.B)
			if !a.NoTitleBonus {
				sc += titleBonus * groupScore(terms, titleIDF, st.TitleTF[u], st.TitleLen[u], headAvg, st.K1, st.B)
			}
			if !a.NoStatusPrior {
				sc *= st.Prior[u]
			}
			out[i][u] = sc
		}
	}
	return out
}

// groupScore is a record's BM25 score as the index sums it: a term
// outside any group adds its score, each group its best term's. tfs are
// the record's frequencies of terms, n its length, avg the mean length.
func groupScore(terms []retrieve.QueryTerm, idf, tfs []float64, n, avg, k1, b float64) float64 {
	s := 0.0
	best := map[int]float64{}
	for k, tf := range tfs {
		v := terms[k].Weight * idf[k] * retrieve.TermFactor(tf, n, avg, k1, b)
		if terms[k].Group < 0 {
			s += v
		} else if v > best[terms[k].Group] {
			best[terms[k].Group] = v
		}
	}
	for _, g := range slices.Sorted(maps.Keys(best)) {
		s += best[g] // in order: a float sum in map order varies by a rounding error
	}
	return s
}
