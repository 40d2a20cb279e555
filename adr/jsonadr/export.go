package jsonadr

import (
	"encoding/base64"
	"encoding/json"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/git-adr/git-adr/adr"
)

// ExportOptions are what an export needs beside the records.
type ExportOptions struct {
	Tool Tool
	// Dates are stand-in dates (YYYY-MM-DD) by record path for records
	// whose own date is not one (the schema requires a date): the day git
	// first recorded the file. Today is used where there is none.
	Dates map[string]string
	Today string
}

// Export turns records of l into a bulk export, in the order given. Each
// record's exported number is its own when it is at least 1 and not
// taken by an earlier record of the export; other records get stand-in
// numbers past the largest, and their own number (or "" for records
// without one) goes in [KeyNumber].
func Export(l *adr.Log, recs []*adr.Record, o ExportOptions) *Document {
	e := NewExporter(l, recs, o)
	d := e.Envelope()
	for i := range recs {
		d.ADRs = append(d.ADRs, e.ADR(i))
	}
	return d
}

// Exporter makes a bulk export one record at a time (see [Export] and
// [EncodeEach]): a long log's export is never whole in memory.
type Exporter struct {
	l       *adr.Log
	recs    []*adr.Record
	numbers []int
	byPath  map[string]int
	o       ExportOptions
}

// NewExporter prepares the export of recs, in that order.
func NewExporter(l *adr.Log, recs []*adr.Record, o ExportOptions) *Exporter {
	e := &Exporter{l: l, recs: recs, numbers: assignNumbers(recs), byPath: map[string]int{}, o: o}
	for i, r := range recs {
		e.byPath[r.Path] = e.numbers[i]
	}
	return e
}

// Envelope is the export without its records (ADRs is empty).
func (e *Exporter) Envelope() *Document {
	d := &Document{Schema: SchemaURL, Version: Version, Tool: &e.o.Tool, ADRs: []ADR{}}
	dirs := map[string]bool{}
	var first string
	for _, r := range e.recs {
		if r.Root != nil && !dirs[r.Root.Dir()] {
			dirs[r.Root.Dir()] = true
			if first == "" {
				first = r.Root.Dir()
			}
		}
	}
	if len(dirs) == 1 {
		d.Repository = &Repository{ADRDirectory: first}
	}
	return d
}

// ADR is the export of the i-th record. Its text is read once and not
// kept by the record (adr.Record.PeekText).
func (e *Exporter) ADR(i int) ADR {
	return exportRecord(e.l, e.recs[i], e.numbers[i], e.byPath, e.o)
}

func assignNumbers(recs []*adr.Record) []int {
	out := make([]int, len(recs))
	taken := map[int]bool{}
	next := 0
	for _, r := range recs {
		if r.Numbered {
			next = max(next, r.Number)
		}
	}
	for i, r := range recs {
		if r.Numbered && r.Number >= 1 && r.Suffix == "" && !taken[r.Number] {
			out[i] = r.Number
			taken[r.Number] = true
		}
	}
	for i := range recs {
		if out[i] == 0 {
			next++
			out[i] = next
		}
	}
	return out
}

func exportRecord(l *adr.Log, r *adr.Record, number int, byPath map[string]int, o ExportOptions) ADR {
	a := ADR{Number: number, Title: r.Title, Path: r.Path, CustomSections: map[string]string{}}
	if a.Title == "" {
		a.Title = baseName(r.Path)
	}
	a.Status = string(r.Status)
	if r.Status == adr.Unknown && strings.TrimSpace(r.RawStatus) != "" {
		a.Status = r.RawStatus
	}
	if r.RawStatus != a.Status {
		a.CustomSections[KeyRawStatus] = r.RawStatus
	}
	a.Date = r.Date
	if !isDate(r.Date) {
		a.CustomSections[KeyDate] = r.Date
		a.Date = o.Dates[r.Path]
		if !isDate(a.Date) {
			a.Date = o.Today
		}
	}
	if !r.Numbered || r.Number != number || r.Suffix != "" {
		own := ""
		if r.Numbered {
			own = strconv.Itoa(r.Number) + r.Suffix
		}
		a.CustomSections[KeyNumber] = own
	}
	a.Tags = r.Domains
	// Peeked, not kept: an export of every record decodes each one's
	// units and reads its text once.
	t, us := r.PeekText(), r.PeekUnits()
	a.Context = section(r, t, us, "context")
	a.Decision = section(r, t, us, "decision")
	if c := section(r, t, us, "consequences"); c != "" {
		a.Consequences = &Consequences{List: []string{c}}
	}
	var loose []map[string]string
	for _, rel := range r.Relations {
		var target *adr.Record
		if l != nil && rel.TargetID != "" {
			target = l.Target(r, rel.Target)
		}
		n, ok := 0, false
		if target != nil {
			if n, ok = byPath[target.Path]; !ok && target.Numbered && target.Number >= 1 {
				n, ok = target.Number, true
			}
		}
		if !ok {
			loose = append(loose, map[string]string{"label": rel.Label, "target": rel.Target})
			continue
		}
		link := Link{Type: string(rel.Type), Target: n}
		if !rel.Type.Known() {
			link.Type = rel.Label
		} else if rel.Label != rel.Type.Label() {
			link.Description = rel.Label
		}
		a.Links = append(a.Links, link)
	}
	if len(loose) > 0 {
		b, _ := json.Marshal(loose)
		a.CustomSections[KeyRelations] = string(b)
	}
	a.CustomSections[KeyID] = r.ID
	if r.Root != nil {
		a.CustomSections[KeyRoot] = r.Root.Dir()
	}
	a.CustomSections[KeyStyle] = string(r.Style)
	if r.Archived {
		a.CustomSections[KeyArchived] = "true"
	}
	src := r.ContentIn(t)
	if utf8.Valid(src) {
		a.CustomSections[KeyBody] = string(src)
	} else {
		a.CustomSections[KeyBodyBase64] = base64.StdEncoding.EncodeToString(src)
	}
	return a
}

// section is a section's text in t, the record's text, without its
// heading and surrounding blank lines, "" when the record has none.
func section(r *adr.Record, t *adr.Text, us []adr.Unit, anchor string) string {
	u, ok := adr.FindUnit(us, anchor)
	if !ok || t == nil {
		return ""
	}
	text := r.UnitTextIn(t, u)
	if strings.HasPrefix(strings.TrimLeft(text, " "), "#") {
		_, text, _ = strings.Cut(text, "\n")
	}
	return strings.Trim(text, "\n")
}

func isDate(s string) bool {
	_, err := time.Parse("2006-01-02", s)
	return err == nil
}

func baseName(p string) string {
	if i := strings.LastIndexByte(p, '/'); i >= 0 {
		p = p[i+1:]
	}
	return strings.TrimSuffix(p, ".md")
}

// Body is the record's exact bytes carried in the extension, and whether
// there were any.
func (a *ADR) Body() ([]byte, bool, error) {
	if s, ok := a.CustomSections[KeyBody]; ok {
		return []byte(s), true, nil
	}
	if s, ok := a.CustomSections[KeyBodyBase64]; ok {
		b, err := base64.StdEncoding.DecodeString(s)
		if err != nil {
			return nil, false, &Error{Path: "custom_sections." + KeyBodyBase64, Msg: "is not base64"}
		}
		return b, true, nil
	}
	return nil, false, nil
}
