package evidence

import (
	"fmt"
	"sort"
	"strings"

	"github.com/git-adr/git-adr/adr"
)

// renderText prints a response for people. It carries the same facts as
// the JSON: selector, provenance of every unit, omitted counts, cursor,
// freshness, warnings and size. Record text is escaped (adr.Escape,
// adr.EscapeBody): the budget is measured on what is printed.
func renderText(r *Response) []byte {
	esc := adr.Escape
	var b strings.Builder
	head := "context: " + r.Selector
	if r.Query != "" {
		head += " " + fmt.Sprintf("%q", r.Query)
	}
	head += " (" + string(r.Intent) + ")"
	if r.Confidence != "" {
		head += ", confidence " + r.Confidence
	}
	b.WriteString(head + "\n")
	fmt.Fprintf(&b, "basis: %s; CURRENT view: %s; %d records; fingerprint %s\n",
		r.Freshness.Basis, r.Freshness.View, r.Freshness.Records, shortFP(r.Freshness.Fingerprint))
	if r.Retrieval != "" {
		fmt.Fprintf(&b, "retrieval: %s\n", esc(r.Retrieval))
	}
	if o := r.Overview; o != nil {
		fmt.Fprintf(&b, "records: %d live, %d archived;", o.Records, o.Archived)
		var st []string
		for k := range o.ByStatus {
			st = append(st, k)
		}
		sort.Strings(st)
		for _, k := range st {
			fmt.Fprintf(&b, " %s %d", k, o.ByStatus[k])
		}
		b.WriteString("\n")
		fmt.Fprintf(&b, "roots: %s\n", esc(strings.Join(o.Roots, ", ")))
		if len(o.Domains) > 0 {
			var ds []string
			for _, d := range o.Domains {
				ds = append(ds, fmt.Sprintf("%s (%d)", esc(d.Domain), d.Records))
			}
			fmt.Fprintf(&b, "domains: %s\n", strings.Join(ds, ", "))
		}
		for _, ref := range o.Recent {
			fmt.Fprintf(&b, "recent: %s %s [%s] %s\n", esc(ref.ID), esc(ref.Title), esc(ref.Status), esc(ref.Path))
		}
		for _, n := range o.NextSteps {
			fmt.Fprintf(&b, "ask: %s\n", esc(n))
		}
	}
	for i, u := range r.Units {
		if u.Kind == KindMemory {
			writeMemoryUnit(&b, i, u)
			continue
		}
		status := u.Status
		if status == "" {
			status = "source"
		}
		if u.InForce != nil && !*u.InForce {
			status += " (not in force)"
		}
		fmt.Fprintf(&b, "\n[%d] %s  %s  %s  %s:%d-%d\n", i+1, esc(u.ID), esc(status), esc(u.Role), esc(u.Path), u.Lines[0], u.Lines[1])
		if u.Title != "" {
			fmt.Fprintf(&b, "    %s\n", esc(u.Title))
		}
		if u.Note != "" && u.Note != u.Status && u.Note != "status "+u.Status {
			// What the status column cannot say: the successor, a text
			// that says the record is replaced, a status not stated.
			fmt.Fprintf(&b, "    note: %s\n", esc(u.Note))
		}
		if len(u.Stale) > 0 {
			fmt.Fprintf(&b, "    stale: %s\n", esc(strings.Join(u.Stale, "; ")))
		}
		if u.Kind == "source" {
			// Source lines carry their numbers, as an editor shows them.
			for i, line := range strings.SplitAfter(strings.TrimSuffix(u.Text, "\n"), "\n") {
				fmt.Fprintf(&b, "%5d  %s\n", u.Lines[0]+i, adr.EscapeBody(strings.TrimSuffix(line, "\n")))
			}
			continue
		}
		text := adr.EscapeBody(u.Text)
		b.WriteString(text)
		if !strings.HasSuffix(text, "\n") {
			b.WriteString("\n")
		}
	}
	if len(r.References) > 0 {
		b.WriteString("\n")
		for _, ref := range r.References {
			fmt.Fprintf(&b, "see also: %s %s [%s] %s (%s)\n", esc(ref.ID), esc(ref.Title), esc(ref.Status), esc(ref.Path), esc(ref.Relation))
		}
	}
	b.WriteString("\n")
	if len(r.Omitted) > 0 {
		var ks []string
		for k := range r.Omitted {
			ks = append(ks, k)
		}
		sort.Strings(ks)
		var parts []string
		for _, k := range ks {
			parts = append(parts, fmt.Sprintf("%s %d", k, r.Omitted[k]))
		}
		fmt.Fprintf(&b, "omitted: %s\n", strings.Join(parts, ", "))
	}
	c := r.Coverage
	fmt.Fprintf(&b, "coverage: %d of %d selected units in this response (%d before it); complete: %v\n", c.Included, c.Selected, c.Before, c.Complete)
	writeMemoryUsed(&b, r.Memory)
	for _, w := range r.Warnings {
		fmt.Fprintf(&b, "warning: %s\n", esc(w))
	}
	if r.Cursor != nil {
		fmt.Fprintf(&b, "cursor: %s\n", *r.Cursor)
	}
	for _, n := range r.Next {
		fmt.Fprintf(&b, "next: %s\n", esc(n))
	}
	s := r.Size
	fmt.Fprintf(&b, "size: %d bytes, %d code points, %d o200k tokens (budget %d code points, %d units)\n",
		s.Bytes, s.CodePoints, s.TokensO200k, s.MaxCodePoints, s.MaxUnits)
	return []byte(b.String())
}

func shortFP(fp string) string {
	if len(fp) > 12 {
		return fp[:12]
	}
	return fp
}
