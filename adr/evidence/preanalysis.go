package evidence

import (
	"os"
	"path/filepath"
	"sync"

	"github.com/git-adr/git-adr/adr"
	"github.com/git-adr/git-adr/retrieve"
)

// Preanalysis analyses a first task query's records as the log's load
// reads them (adr.LoadOptions.Parsed) and lets go of each text then, so
// that the query never holds every text of a long log at once: a text is
// read, parsed, analysed and dropped by one reading goroutine. The
// service's task index takes these records' terms instead of analysing
// them again (Service.Preanalysis).
//
// It is for a log no task query has indexed: with a term cache or a
// stored index (any earlier task query), most records are known there
// and analysing them on load would be wasted.
type Preanalysis struct {
	mu    sync.Mutex
	vocab *retrieve.Vocabulary
	docs  map[*adr.Record]cachedDoc
}

// NewPreanalysis is a preanalysis for a first task query over the log
// whose caches are in cacheDir, nil when a term cache or a stored index
// is there (or there is no cache directory).
func NewPreanalysis(cacheDir string) *Preanalysis {
	if cacheDir == "" {
		return nil
	}
	for _, name := range []string{"terms.bin", "index.bin"} {
		if _, err := os.Lstat(filepath.Join(cacheDir, name)); err == nil {
			return nil
		}
	}
	return &Preanalysis{vocab: retrieve.NewVocabulary(0), docs: map[*adr.Record]cachedDoc{}}
}

// Parsed analyses r, a record the load has just read and parsed, and
// lets go of its text; it is adr.LoadOptions.Parsed, safe to call from
// every reading goroutine at once.
func (p *Preanalysis) Parsed(r *adr.Record) {
	// The terms are numbered in the vocabulary as they are analysed
	// (retrieve.AnalyzeInto): a term this goroutine met before costs no
	// look-up of its string, which was a fifth of the analysis.
	body, abbrs, title := recordDocs(r)
	d := cachedDoc{
		body:  retrieve.AnalyzeInto(body, abbrs, p.vocab, &p.mu),
		title: retrieve.AnalyzeInto(title, nil, p.vocab, &p.mu),
	}
	r.ReleaseText()
	p.mu.Lock()
	defer p.mu.Unlock()
	p.docs[r] = d
}

// take is what was analysed of r, numbered in p's vocabulary.
func (p *Preanalysis) take(r *adr.Record) (cachedDoc, bool) {
	if p == nil {
		return cachedDoc{}, false
	}
	d, ok := p.docs[r]
	if ok {
		delete(p.docs, r)
	}
	return d, ok
}

// analyseRecord is a record's analysed body and title, as the task index
// holds them: the abbreviations the record defines ride in its body's
// terms (retrieve.Abbreviations).
func analyseRecord(r *adr.Record) (body, title retrieve.DocTerms) {
	b, abbrs, t := recordDocs(r)
	return retrieve.WithGlossary(retrieve.Analyze(b), abbrs), retrieve.Analyze(t)
}

// recordDocs is what analyseRecord analyses of r: its body, the
// abbreviations it defines, and its title (the body's first three
// fields).
func recordDocs(r *adr.Record) (body retrieve.Doc, abbrs []retrieve.Abbreviation, title retrieve.Doc) {
	// One read of the text: a text the record does not hold is read
	// again, and checked against its blob, at every PeekText.
	t := r.PeekText()
	body = recordDoc(r, t)
	return body, retrieve.Abbreviations(r.ContentViewIn(t), body.Lang), retrieve.Doc{Lang: body.Lang, Fields: body.Fields[:3]}
}
