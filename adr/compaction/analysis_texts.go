package compaction

import (
	"runtime"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/git-adr/git-adr/adr"
	"github.com/git-adr/git-adr/retrieve"
)

// textFacts is what the analysis reads from a record's text: the lines
// that may supersede it in part (maybePartial), and whether a section
// other than its status holds any text.
type textFacts struct {
	partial      []textLine
	decisionText bool
	// subject is what grouping by subject needs, when the analysis
	// infers groups and the record is in scope.
	subject *subject
}

// textLine is a line of a record, 1-based, and its text.
type textLine struct {
	n int
	s string
}

// readTexts reads the text of every record of recs once, on every CPU,
// and keeps what the analysis needs of it, not the text (Record.PeekText):
// at 10,000 records the analysis otherwise held every text it read and
// read them one after the other. progress is called once per record
// read, from one goroutine at a time.
func (a *analyzer) readTexts(recs []*adr.Record, progress func()) {
	facts := make([]textFacts, len(recs))
	var next atomic.Int64
	var mu sync.Mutex
	// Subjects' terms are numbered in one vocabulary as they are
	// analysed: every record's terms as strings were the largest thing
	// an analysis of a long log held.
	a.vocab = retrieve.NewVocabulary(0)
	var vocabMu sync.Mutex
	number := func(dt retrieve.DocTerms) retrieve.NumberedTerms {
		vocabMu.Lock()
		defer vocabMu.Unlock()
		return a.vocab.Number(dt)
	}
	var wg sync.WaitGroup
	for w := 0; w < min(runtime.GOMAXPROCS(0), 8, len(recs)); w++ {
		wg.Go(func() {
			for {
				i := int(next.Add(1)) - 1
				if i >= len(recs) {
					return
				}
				t := recs[i].PeekText()
				facts[i] = factsOf(recs[i], t)
				if a.infer && a.in[recs[i]] && !retired(recs[i].Status) {
					facts[i].subject = subjectOf(recs[i], t, number)
				}
				if progress != nil {
					mu.Lock()
					progress()
					mu.Unlock()
				}
			}
		})
	}
	wg.Wait()
	a.texts = make(map[*adr.Record]*textFacts, len(recs))
	for i, r := range recs {
		a.texts[r] = &facts[i]
	}
}

// retired reports a status no inferred group takes (see groupable).
func retired(s adr.Status) bool {
	return s == adr.Rejected || s == adr.Deprecated || s == adr.Superseded
}

// subjectOf analyses the words of r's subject (subjectDoc) and title,
// its terms numbered by number.
func subjectOf(r *adr.Record, t *adr.Text, number func(retrieve.DocTerms) retrieve.NumberedTerms) *subject {
	d := subjectDoc(r, t)
	return &subject{r: r, terms: number(retrieve.Analyze(d)), title: titleTerms(r, d.Lang), lang: d.Lang}
}

func factsOf(r *adr.Record, t *adr.Text) textFacts {
	var f textFacts
	if t == nil {
		f.decisionText = true
		return f
	}
	sl := statusLine(r)
	for i, ln := range t.Lines {
		if ln.Kind != adr.LineText || i+1 == sl || !maybePartial(t.Src[ln.Start:ln.End]) {
			continue
		}
		f.partial = append(f.partial, textLine{i + 1, t.LineText(i)})
	}
	f.decisionText = hasDecisionTextIn(r, t)
	return f
}

// hasDecisionText reports whether any section other than the status has a
// line of text.
func (a *analyzer) hasDecisionText(r *adr.Record) bool {
	if f, ok := a.texts[r]; ok {
		return f.decisionText
	}
	return hasDecisionTextIn(r, r.PeekText())
}

func hasDecisionTextIn(r *adr.Record, t *adr.Text) bool {
	// Every record is asked once: its units are read, not kept decoded
	// (4.5 MB at 10,000 records).
	units := r.PeekUnits()
	if t == nil || len(units) == 0 {
		return true
	}
	for _, u := range units {
		if u.Anchor == "status" {
			continue
		}
		from := u.Start
		if r.InLogFile() && from > 0 && from <= len(t.Lines) && t.Lines[from-1].Kind != adr.LineHeading {
			// A labelled bullet of a single-file log's section
			// ("- **Decision:** ..."): its first line is text too.
			from--
		}
		for i := from; i < u.End && i < len(t.Lines); i++ {
			switch t.Lines[i].Kind {
			case adr.LineBlank, adr.LineComment:
				continue
			}
			if strings.TrimSpace(t.LineText(i)) != "" {
				return true
			}
		}
	}
	return false
}
