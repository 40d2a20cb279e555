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

// WordStats are what a log's indexes say of a task's terms, so that the
// answers of several logs (a workspace's repositories) can be ordered on
// one scale (MergedScores): as one index of all their records would
// score each unit's record. Each log's own answer ranks by its own
// statistics, which no other log shares (a word rare in one repository
// is common in another), and its confidence is its own too.
type WordStats struct {
	// Docs is the number of live records the indexes hold.
	Docs int
	// Terms are the task's terms as the answer's ranking analyses them
	// (its concept groups, phrases and alternate stems; not the
	// expansions a log's own vocabulary or glossary adds). DF and TitleDF
	// are each term's document frequency in the record bodies and in the
	// title index (titles, domains, file names).
	Terms       []retrieve.QueryTerm
	DF, TitleDF []int
	// Norms and TitleNorms hold, for each unit asked about, its record's
	// BM25 term factor for each term (by this log's mean lengths: see
	// retrieve.Index.TermNorms), and Prior its status prior; nil and 0
	// for a unit that is not a live record's.
	Norms, TitleNorms [][]float64
	Prior             []float64
}

// MergeAblation switches the heuristics of MergedScores off, for
// measurements (bench-context -labelled -workspace).
type MergeAblation struct {
	PlainTerms    bool // the task's words alone: no concept groups, phrases or alternate stems
	NoTitleBonus  bool // the body's score alone
	NoStatusPrior bool // every status alike
}

// keptIndexes are the indexes of a service's last task answer, kept for
// WordStats when the service is asked to (KeepIndexes).
type keptIndexes struct {
	mu      sync.Mutex
	recs    []*adr.Record
	ix, tix *retrieve.Index
	held    bool
}

func (k *keptIndexes) keep(recs []*adr.Record, ix, tix *retrieve.Index) {
	k.mu.Lock()
	defer k.mu.Unlock()
	k.recs, k.ix, k.tix, k.held = recs, ix, tix, true
}

func (k *keptIndexes) get() ([]*adr.Record, *retrieve.Index, *retrieve.Index, bool) {
	k.mu.Lock()
	defer k.mu.Unlock()
	return k.recs, k.ix, k.tix, k.held
}

// WordStats returns the log's statistics for task's terms and the term
// factors of the records units come from (units of this service's
// answer to task), from the indexes that answer used when the service
// keeps them (KeepIndexes), else from those stored or made again.
func (s *Service) WordStats(task string, units []Unit, a MergeAblation) WordStats {
	lang := retrieve.DetectLanguage(task)
	q := retrieve.QueryWith(task, lang, retrieve.QueryOptions{NoThesaurus: a.PlainTerms, NoPhrases: a.PlainTerms})
	if !a.PlainTerms {
		q = retrieve.WithAlternateStems(task, lang, q)
	}
	recs, ix, tix, ok := s.kept.get()
	if !ok {
		recs, ix, tix = s.taskIndexes()
		s.saving.Wait()
	}
	st := WordStats{Docs: ix.Len(), Norms: make([][]float64, len(units)), TitleNorms: make([][]float64, len(units)), Prior: make([]float64, len(units))}
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
	for _, t := range q {
		df, norms := ix.TermNorms(t.Text, docs)
		tdf, tnorms := tix.TermNorms(t.Text, docs)
		st.Terms = append(st.Terms, t)
		st.DF, st.TitleDF = append(st.DF, df), append(st.TitleDF, tdf)
		for i, d := range docOf {
			if d >= 0 {
				st.Norms[i] = append(st.Norms[i], norms[at[d]])
				st.TitleNorms[i] = append(st.TitleNorms[i], tnorms[at[d]])
			}
		}
	}
	return st
}

// MergedScores scores the units of several answers to one task on one
// scale, stats[i] describing answer i's: each unit's record as the
// answer's ranking scores a record (BM25 of its body, plus TitleBonus
// times that of its title, domains and file name, times its status
// prior), with the document frequencies and numbers of records of every
// answer's log summed (each record's term factors stay those of its own
// log's mean length). Logs that answered nothing (no terms) add nothing.
func MergedScores(stats []WordStats, a MergeAblation) [][]float64 {
	docs := 0
	var terms []retrieve.QueryTerm
	var df, tdf []float64
	for _, st := range stats {
		if len(st.Terms) == 0 {
			continue
		}
		docs += st.Docs
		if terms == nil {
			terms, df, tdf = st.Terms, make([]float64, len(st.Terms)), make([]float64, len(st.Terms))
		}
		for k := range min(len(terms), len(st.Terms)) {
			df[k] += float64(st.DF[k])
			tdf[k] += float64(st.TitleDF[k])
		}
	}
	idf := func(d float64) float64 {
		d = math.Max(d, 1)
		return math.Log(1 + (float64(docs)-d+0.5)/(d+0.5))
	}
	bodyIDF, titleIDF := make([]float64, len(terms)), make([]float64, len(terms))
	for k := range terms {
		bodyIDF[k], titleIDF[k] = idf(df[k]), idf(tdf[k])
	}
	out := make([][]float64, len(stats))
	for i, st := range stats {
		out[i] = make([]float64, len(st.Norms))
		for u := range st.Norms {
			sc := groupScore(terms, bodyIDF, st.Norms[u])
			if !a.NoTitleBonus {
				sc += titleBonus * groupScore(terms, titleIDF, st.TitleNorms[u])
			}
			if !a.NoStatusPrior {
				sc *= st.Prior[u]
			}
			out[i][u] = sc
		}
	}
	return out
}

// groupScore sums a record's BM25 score as the index does: a term
// outside any group adds its score, each group its best term's.
func groupScore(terms []retrieve.QueryTerm, idf, norms []float64) float64 {
	s := 0.0
	best := map[int]float64{}
	for k, n := range norms {
		if k >= len(terms) {
			break
		}
		v := terms[k].Weight * idf[k] * n
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
