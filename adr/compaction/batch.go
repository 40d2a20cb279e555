package compaction

import (
	"strings"
	"unicode/utf8"

	"github.com/git-adr/git-adr/adr"
)

// BatchLimits bound one evidence batch.
type BatchLimits struct {
	MaxUnits int // default 60
	MaxChars int // code points of unit text, default 48,000
}

func (b BatchLimits) withDefaults() BatchLimits {
	if b.MaxUnits <= 0 {
		b.MaxUnits = 60
	}
	if b.MaxChars <= 0 {
		b.MaxChars = 48000
	}
	return b
}

// Batch is one bounded piece of the evidence a drafter reads: source units
// (to account for) and evidence units (context only).
type Batch struct {
	Number   int            `json:"number"`
	Of       int            `json:"of"`
	Units    []EvidenceUnit `json:"units"`
	Evidence []EvidenceUnit `json:"evidence"`
}

// EvidenceUnit is a decision unit with its provenance and text.
type EvidenceUnit struct {
	Unit   string `json:"unit"`
	Record string `json:"record"`
	Title  string `json:"title"`
	Path   string `json:"path"`
	Lines  [2]int `json:"lines"`
	Status string `json:"status"`
	Hash   string `json:"hash"`
	Text   string `json:"text"`
}

// Batches splits the plan's source units into batches: a record's units
// stay together when they fit, a unit is never cut, and each batch carries
// the evidence units (system constraints and linked records, decision
// sections only) so that every batch sees the constraints that apply.
func Batches(l *adr.Log, p *Plan, lim BatchLimits) []Batch {
	lim = lim.withDefaults()
	var evidence []EvidenceUnit
	for _, e := range p.Evidence {
		r := l.ByPath(e.Path)
		if r == nil {
			continue
		}
		for _, u := range r.Units() {
			if u.Anchor == "decision" || u.Anchor == "body" || strings.HasPrefix(u.Anchor, "§") {
				evidence = append(evidence, evidenceUnit(r, u))
			}
		}
	}
	var batches []Batch
	cur := Batch{}
	chars := 0
	flush := func() {
		if len(cur.Units) > 0 {
			batches = append(batches, cur)
		}
		cur = Batch{}
		chars = 0
	}
	for _, s := range p.Sources {
		r := l.ByPath(s.Path)
		if r == nil {
			continue
		}
		var units []EvidenceUnit
		size := 0
		for _, u := range r.Units() {
			eu := evidenceUnit(r, u)
			units = append(units, eu)
			size += utf8.RuneCountInString(eu.Text)
		}
		if len(cur.Units) > 0 && (len(cur.Units)+len(units) > lim.MaxUnits || chars+size > lim.MaxChars) {
			flush()
		}
		for _, eu := range units {
			n := utf8.RuneCountInString(eu.Text)
			if len(cur.Units) > 0 && (len(cur.Units) >= lim.MaxUnits || chars+n > lim.MaxChars) {
				flush()
			}
			cur.Units = append(cur.Units, eu)
			chars += n
		}
	}
	flush()
	for i := range batches {
		batches[i].Number, batches[i].Of = i+1, len(batches)
		batches[i].Evidence = evidence
		if batches[i].Evidence == nil {
			batches[i].Evidence = []EvidenceUnit{}
		}
	}
	return batches
}

func evidenceUnit(r *adr.Record, u adr.Unit) EvidenceUnit {
	return EvidenceUnit{Unit: u.ID, Record: r.ID, Title: r.Title, Path: r.Path, Lines: [2]int{u.Start, u.End},
		Status: string(statusOf(r, u)), Hash: u.Hash, Text: r.UnitText(u)}
}

func statusOf(r *adr.Record, u adr.Unit) adr.Status {
	if u.Status != "" {
		return u.Status
	}
	return r.Status
}
