package main

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/git-adr/git-adr/adr"
)

// The generated log imitates one kept with adr-tools for years: record 1 is
// adr-tools' own "Record architecture decisions", later records are mostly
// accepted, some proposed, rejected or deprecated, and about one in six is
// superseded by a later record. Link lines are written exactly as adr-tools
// writes them (`adr new -s`, `adr new -l`), in the order it would have
// written them, so both tools read a log they could have produced.

// Shares of each outcome, in percent of records after the first.
const (
	pctProposed   = 14
	pctRejected   = 3
	pctDeprecated = 4
	pctSupersede  = 22 // of accepted records: supersede an earlier accepted one
	pctAmend      = 10 // link "Amends" to an earlier record
	pctProseRef   = 6  // mention an earlier record in the Context prose
	pctLong       = 4  // a long record of several KB
	logStart      = "2017-01-02"
	logSpanDays   = 8 * 365
)

// Record is one generated record.
type Record struct {
	Number int
	Title  string
	Date   string
	// Word is the status word written under "## Status"; a superseded
	// record has none left (adr-tools removes "Accepted" when it adds
	// "Superseded by").
	Word string
	// Status is what the record is meant to parse to.
	Status adr.Status
	// Links are the link lines of the status section in writing order.
	Links []Link
	// Context, Decision and Consequences are Markdown blocks.
	Context, Decision, Consequences []string
	Long                            bool
	init                            bool
}

// Link is one adr-tools link line: "Label [N. Title](file)".
type Link struct {
	Label  string
	Target *Record
}

// FileName is adr-tools' file name: the zero-padded number and the slug.
func (r *Record) FileName() string {
	return fmt.Sprintf("%04d-%s.md", r.Number, Slug(r.Title))
}

// Slug is adr-tools' slug: runs of non-alphanumerics become one "-", lower
// case, no leading or trailing "-".
func Slug(title string) string {
	var b strings.Builder
	dash := false
	for _, c := range title {
		if c < 0x80 && (c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') {
			if dash && b.Len() > 0 {
				b.WriteByte('-')
			}
			dash = false
			b.WriteRune(c)
			continue
		}
		dash = true
	}
	return strings.ToLower(b.String())
}

// Render returns the record's bytes as adr-tools would have left them.
func (r *Record) Render() []byte {
	var b strings.Builder
	fmt.Fprintf(&b, "# %d. %s\n\nDate: %s\n\n## Status\n\n", r.Number, r.Title, r.Date)
	if r.Word != "" {
		b.WriteString(r.Word + "\n\n")
	}
	for _, l := range r.Links {
		fmt.Fprintf(&b, "%s [%d. %s](%s)\n\n", l.Label, l.Target.Number, l.Target.Title, l.Target.FileName())
	}
	section := func(name string, blocks []string) {
		fmt.Fprintf(&b, "## %s\n\n", name)
		b.WriteString(strings.Join(blocks, "\n\n"))
		b.WriteString("\n")
	}
	section("Context", r.Context)
	b.WriteString("\n")
	section("Decision", r.Decision)
	b.WriteString("\n")
	section("Consequences", r.Consequences)
	return []byte(b.String())
}

// Generate returns a log of n records (n >= 1) made from seed. The same n
// and seed always give the same records, byte for byte.
func Generate(n int, seed uint64) []*Record {
	g := &generator{rnd: rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))}
	start, _ := time.Parse("2006-01-02", logStart)
	recs := make([]*Record, 0, n)
	first := &Record{
		Number: 1, Title: "Record architecture decisions", Date: logStart,
		Word: "Accepted", Status: adr.Accepted, init: true,
		Context:  []string{"We need to record the architectural decisions made on this project."},
		Decision: []string{"We will use Architecture Decision Records, as [described by Michael Nygard](http://thinkrelevance.com/blog/2011/11/15/documenting-architecture-decisions)."},
		Consequences: []string{"See Michael Nygard's article, linked above. For a lightweight ADR toolset, " +
			"see Nat Pryce's [adr-tools](https://github.com/npryce/adr-tools)."},
	}
	recs = append(recs, first)
	// open holds accepted records that nothing supersedes yet.
	open := []*Record{first}
	days := 0.0
	for num := 2; num <= n; num++ {
		days += g.rnd.Float64() * 2 * logSpanDays / float64(n)
		r := &Record{
			Number: num,
			Title:  g.title(),
			Date:   start.AddDate(0, 0, int(days)).Format("2006-01-02"),
			Word:   "Accepted",
			Status: adr.Accepted,
			Long:   g.pct(pctLong),
		}
		switch p := g.rnd.IntN(100); {
		case p < pctProposed:
			r.Word, r.Status = "Proposed", adr.Proposed
		case p < pctProposed+pctRejected:
			r.Word, r.Status = "Rejected", adr.Rejected
		case p < pctProposed+pctRejected+pctDeprecated:
			r.Word, r.Status = "Deprecated", adr.Deprecated
		}
		// adr new -s OLD: "Superseded by" on OLD, its "Accepted" removed,
		// then "Supersedes" on the new record.
		if r.Status == adr.Accepted && len(open) > 1 && g.pct(pctSupersede) {
			k := 1 + g.rnd.IntN(len(open)-1) // record 1 stays in force
			old := open[k]
			open[k] = open[len(open)-1]
			open = open[:len(open)-1]
			old.Links = append(old.Links, Link{Label: "Superseded by", Target: r})
			old.Word, old.Status = "", adr.Superseded
			r.Links = append(r.Links, Link{Label: "Supersedes", Target: old})
		}
		// adr new -l "OLD:Amends:Amended by".
		if num > 2 && g.pct(pctAmend) {
			old := recs[1+g.rnd.IntN(len(recs)-1)]
			r.Links = append(r.Links, Link{Label: "Amends", Target: old})
			old.Links = append(old.Links, Link{Label: "Amended by", Target: r})
		}
		var ref *Record
		if num > 2 && g.pct(pctProseRef) {
			ref = recs[1+g.rnd.IntN(len(recs)-1)]
		}
		g.body(r, ref)
		recs = append(recs, r)
		if r.Status == adr.Accepted {
			open = append(open, r)
		}
	}
	return recs
}

type generator struct {
	rnd *rand.Rand
}

func (g *generator) pct(p int) bool { return g.rnd.IntN(100) < p }

func pick[T any](g *generator, xs []T) T { return xs[g.rnd.IntN(len(xs))] }

func (g *generator) title() string {
	switch g.rnd.IntN(4) {
	case 0:
		return pick(g, titleVerbs) + " " + pick(g, techs)
	case 1:
		return "Record " + pick(g, qualities) + " budgets for " + pick(g, areas)
	default:
		return pick(g, titleVerbs) + " " + pick(g, techs) + " for " + pick(g, areas)
	}
}

// fill replaces the slots of a template.
func (g *generator) fill(tmpl string) string {
	var b strings.Builder
	for {
		i := strings.IndexByte(tmpl, '{')
		if i < 0 {
			b.WriteString(tmpl)
			return b.String()
		}
		j := strings.IndexByte(tmpl[i:], '}')
		b.WriteString(tmpl[:i])
		slot := tmpl[i+1 : i+j]
		tmpl = tmpl[i+j+1:]
		switch slot {
		case "comp", "comp2":
			b.WriteString(pick(g, components))
		case "tech", "tech2":
			b.WriteString(pick(g, techs))
		case "area":
			b.WriteString(pick(g, areas))
		case "team", "team2":
			t := pick(g, teams)
			if slot == "team2" {
				t = strings.ToLower(t[:1]) + t[1:]
			}
			b.WriteString(t)
		case "qual", "qual2":
			b.WriteString(pick(g, qualities))
		case "num":
			b.WriteString(strconv.Itoa(5 + g.rnd.IntN(2000)))
		case "pct":
			b.WriteString(strconv.Itoa(5 + g.rnd.IntN(60)))
		case "fill":
			b.WriteString(pick(g, fillers))
		default:
			panic("unknown slot " + slot)
		}
	}
}

func (g *generator) paragraph(minS, maxS int) string {
	n := minS + g.rnd.IntN(maxS-minS+1)
	s := make([]string, n)
	for i := range s {
		s[i] = capitalize(g.fill(pick(g, sentences)))
	}
	return strings.Join(s, " ")
}

func (g *generator) paragraphs(minP, maxP int) []string {
	n := minP + g.rnd.IntN(maxP-minP+1)
	out := make([]string, n)
	for i := range out {
		out[i] = g.paragraph(1, 5)
	}
	return out
}

func (g *generator) list(numbered bool) string {
	n := 3 + g.rnd.IntN(4)
	items := make([]string, n)
	for i := range items {
		mark := "* "
		if numbered {
			mark = strconv.Itoa(i+1) + ". "
		}
		items[i] = mark + g.fill(pick(g, listItems))
	}
	return strings.Join(items, "\n")
}

func (g *generator) table() string {
	rows := []string{"| Option | Strengths | Weaknesses |", "|---|---|---|"}
	for range 3 + g.rnd.IntN(4) {
		rows = append(rows, fmt.Sprintf("| %s | %s | %s |", pick(g, techs), pick(g, qualities), pick(g, qualities)))
	}
	return strings.Join(rows, "\n")
}

func (g *generator) code() string {
	lines := []string{"```toml", "[" + Slug(pick(g, components)) + "]"}
	for range 4 + g.rnd.IntN(8) {
		lines = append(lines, fmt.Sprintf("%s = %d", strings.ReplaceAll(pick(g, qualities), " ", "_"), g.rnd.IntN(10000)))
	}
	return strings.Join(append(lines, "```"), "\n")
}

// body writes Context, Decision and Consequences: a few short paragraphs
// usually, and for long records many paragraphs with a comparison table,
// a configuration example and numbered rules (several KB).
func (g *generator) body(r *Record, ref *Record) {
	if r.Long {
		r.Context = append(g.paragraphs(8, 18), g.table())
		r.Context = append(r.Context, g.paragraphs(2, 6)...)
		r.Decision = append(g.paragraphs(2, 5), g.list(true), g.code())
		r.Consequences = append(g.paragraphs(4, 10), g.list(false))
	} else {
		r.Context = g.paragraphs(1, 4)
		r.Decision = g.paragraphs(1, 3)
		if g.pct(40) {
			r.Decision = append(r.Decision, g.list(false))
		}
		r.Consequences = g.paragraphs(1, 3)
		if g.pct(25) {
			r.Consequences = append(r.Consequences, g.list(false))
		}
	}
	if ref != nil {
		r.Context = append(r.Context, fmt.Sprintf("This builds on [%d. %s](%s).", ref.Number, ref.Title, ref.FileName()))
	}
}

// capitalize upper-cases the first letter of a sentence that starts with
// a lower-case name ("a monorepo is ...").
func capitalize(s string) string {
	if s != "" && s[0] >= 'a' && s[0] <= 'z' {
		return string(s[0]-'a'+'A') + s[1:]
	}
	return s
}

// WriteLog writes the records into dir (created when missing).
func WriteLog(dir string, recs []*Record) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	for _, r := range recs {
		if err := os.WriteFile(filepath.Join(dir, r.FileName()), r.Render(), 0o644); err != nil {
			return err
		}
	}
	return nil
}
