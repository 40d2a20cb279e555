package jsonadr

import (
	"bytes"
	"fmt"
	"path"
	"sort"
	"strconv"
	"strings"

	"github.com/git-adr/git-adr/adr"
	"github.com/git-adr/git-adr/internal/lazyre"
)

// ImportOptions say where imported records go.
type ImportOptions struct {
	// Root receives the records that bring no path of their own, and all
	// of them when Into is set.
	Root *adr.Root
	Into bool
	// Renumber gives every imported record the next free number of its
	// root (Next), in document order, and rewrites the links between the
	// imported records to match.
	Renumber bool
	// Next is the next free number of the directory dir (one past every
	// number in use there); called once per directory, then counted on.
	Next func(dir string) int
	// Exists reads a file of the work tree: its bytes and whether it is
	// there.
	Exists func(p string) ([]byte, bool)
	// Numbers lists the numbers in use in a directory, with the path of
	// the record holding each.
	Numbers func(dir string) map[int]string
}

// ImportFile is one record an import writes.
type ImportFile struct {
	// Index is the ADR's position in the document.
	Index int
	Title string
	// From is the ADR's number in the document; To the number it gets
	// (equal unless renumbered; 0 for records without a number).
	From, To int
	Path     string
	Data     []byte
	// Unchanged: the file already holds exactly Data.
	Unchanged bool
	// Lossless: Data is the exported record's bytes (renumbered, with
	// --renumber); otherwise it was rendered from the ADR's fields.
	Lossless bool
}

// ImportPlan is what an import does.
type ImportPlan struct {
	Files    []ImportFile
	Warnings []string
}

// ConflictError is an import that would overwrite or reuse what the log
// already has.
type ConflictError struct{ Conflicts []string }

func (e *ConflictError) Error() string { return strings.Join(e.Conflicts, "; ") }

// safePath reports whether p is a clean, relative, slash-separated path
// that stays inside the repository and names a Markdown file.
func safePath(p string) bool {
	if p == "" || strings.HasPrefix(p, "/") || strings.Contains(p, `\`) || path.Clean(p) != p ||
		p == ".." || strings.HasPrefix(p, "../") || strings.HasPrefix(p, ".git/") || p == ".git" {
		return false
	}
	for _, part := range strings.Split(p, "/") {
		if part == ".git" {
			return false
		}
	}
	return strings.HasSuffix(strings.ToLower(p), ".md")
}

var leadingDigits = lazyre.New(`^(\D*?)(\d+)`)

// PlanImport decides where each ADR of d goes and what it holds. Nothing
// is written. Without Renumber, a path that exists with other content or
// a number already taken in its directory is a conflict, and the whole
// import is refused.
func PlanImport(d *Document, o ImportOptions) (*ImportPlan, error) {
	plan := &ImportPlan{}
	type placed struct {
		dir, base string
		own       int // the number in the file name, 0 when none
	}
	places := make([]placed, len(d.ADRs))
	for i := range d.ADRs {
		a := &d.ADRs[i]
		_, lossless, err := a.Body()
		if err != nil {
			return nil, err
		}
		own := a.Number
		if v, ok := a.CustomSections[KeyNumber]; ok {
			own, _ = strconv.Atoi(strings.TrimRight(v, "abcdefghijklmnopqrstuvwxyz"))
		}
		switch {
		case !o.Into && safePath(a.Path):
			places[i] = placed{dir: path.Dir(a.Path), base: path.Base(a.Path), own: own}
		case lossless && safePath(a.Path):
			places[i] = placed{dir: o.Root.Path, base: path.Base(a.Path), own: own}
		default:
			if a.Path != "" && !safePath(a.Path) {
				plan.Warnings = append(plan.Warnings, fmt.Sprintf("ADR %d: path %q is not a relative path to a Markdown file inside the repository; written into %s instead", a.Number, a.Path, o.Root.Dir()))
			}
			places[i] = placed{dir: o.Root.Path, base: o.Root.FileName(a.Number, a.Title, a.Date), own: a.Number}
		}
		if places[i].dir == "." {
			places[i].dir = ""
		}
	}
	// New numbers, per directory, in document order.
	to := make([]int, len(d.ADRs))
	renames := []adr.FileRename{}
	next := map[string]int{}
	for i, p := range places {
		to[i] = p.own
		if !o.Renumber || p.own == 0 {
			continue
		}
		if _, ok := next[p.dir]; !ok {
			next[p.dir] = o.Next(p.dir)
		}
		to[i] = next[p.dir]
		next[p.dir]++
		nb := renumberBase(p.base, p.own, to[i])
		renames = append(renames, adr.FileRename{OldBase: p.base, NewBase: nb, From: p.own, To: to[i]})
		places[i].base = nb
	}
	// Numbers of the document, for links of rendered records.
	byNumber := map[int]int{}
	for i, a := range d.ADRs {
		byNumber[a.Number] = i
	}
	var conflicts []string
	seen := map[string]int{}
	for i := range d.ADRs {
		a := &d.ADRs[i]
		p := places[i]
		full := p.base
		if p.dir != "" {
			full = p.dir + "/" + p.base
		}
		body, lossless, _ := a.Body()
		var data []byte
		if lossless {
			data = body
			if o.Renumber {
				data = adr.RenumberText(body, places[i].own, to[i], renames)
			}
		} else {
			data = render(a, to[i], full, o.Root, func(n int) (string, string, int, bool) {
				j, ok := byNumber[n]
				if !ok {
					return "", "", 0, false
				}
				tp := places[j].base
				if places[j].dir != "" {
					tp = places[j].dir + "/" + tp
				}
				return tp, d.ADRs[j].Title, to[j], true
			})
		}
		if j, dup := seen[full]; dup {
			conflicts = append(conflicts, fmt.Sprintf("ADR %d and ADR %d both go to %s", d.ADRs[j].Number, a.Number, full))
			continue
		}
		seen[full] = i
		f := ImportFile{Index: i, Title: a.Title, From: a.Number, To: to[i], Path: full, Data: data, Lossless: lossless}
		if cur, ok := o.Exists(full); ok {
			if bytes.Equal(cur, data) {
				f.Unchanged = true
			} else {
				conflicts = append(conflicts, fmt.Sprintf("%s exists with other content", full))
			}
		} else if !o.Renumber && p.own > 0 && o.Numbers != nil {
			if other, taken := o.Numbers(p.dir)[p.own]; taken && other != full {
				conflicts = append(conflicts, fmt.Sprintf("number %d of %s is taken by %s", p.own, full, other))
			}
		}
		plan.Files = append(plan.Files, f)
	}
	if len(conflicts) > 0 {
		return nil, &ConflictError{Conflicts: conflicts}
	}
	if o.Renumber {
		for _, a := range d.ADRs {
			for _, l := range a.Links {
				if _, ok := byNumber[l.Target]; !ok {
					plan.Warnings = append(plan.Warnings, fmt.Sprintf("ADR %d links to ADR %d, which is not in the import: that link is left as it was", a.Number, l.Target))
				}
			}
		}
	}
	return plan, nil
}

// renumberBase is a file name with its leading number replaced, keeping
// the padding ("0003-use-x.md" to "0012-use-x.md").
func renumberBase(base string, from, to int) string {
	m := leadingDigits.FindStringSubmatchIndex(base)
	if m == nil {
		return base
	}
	digits := base[m[4]:m[5]]
	if n, err := strconv.Atoi(digits); err != nil || n != from {
		return base
	}
	s := strconv.Itoa(to)
	if len(s) < len(digits) {
		s = strings.Repeat("0", len(digits)-len(s)) + s
	}
	return base[:m[4]] + s + base[m[5]:]
}

// render writes an ADR that carries no record bytes in adr-tools'
// (Nygard's) layout, as adrs writes its records: title, date, status with
// its links, then context, decision, consequences and the other fields as
// sections.
func render(a *ADR, number int, self string, root *adr.Root, target func(int) (p, title string, n int, ok bool)) []byte {
	var b strings.Builder
	title := oneLine(a.Title)
	fmt.Fprintf(&b, "# %d. %s\n\nDate: %s\n", number, title, oneLine(a.Date))
	if len(a.Tags) > 0 {
		fmt.Fprintf(&b, "Domains: %s\n", oneLine(strings.Join(a.Tags, ", ")))
	}
	for _, p := range []struct {
		label string
		names []string
	}{{"Deciders", a.Deciders}, {"Consulted", a.Consulted}, {"Informed", a.Informed}} {
		if len(p.names) > 0 {
			fmt.Fprintf(&b, "%s: %s\n", p.label, oneLine(strings.Join(p.names, ", ")))
		}
	}
	status := a.Status
	if st, ok := adr.ParseStatus(status); ok && st != adr.Unknown {
		status = adr.StatusWord(st)
	}
	fmt.Fprintf(&b, "\n## Status\n\n%s\n", oneLine(status))
	for _, l := range a.Links {
		label := l.Type
		if t := adr.ParseRelationType(l.Type); t.Known() {
			label = t.Label()
		}
		if strings.TrimSpace(label) == "" {
			label = l.Description
		}
		if p, t, n, ok := target(l.Target); ok {
			fmt.Fprintf(&b, "\n%s [%d. %s](%s)\n", oneLine(label), n, oneLine(t), adr.LinkDest(adr.RelLink(self, p)))
		} else {
			fmt.Fprintf(&b, "\n%s %s\n", oneLine(label), root.FormatID(l.Target))
		}
	}
	sectionText := func(name, text string) {
		if strings.TrimSpace(text) == "" {
			return
		}
		fmt.Fprintf(&b, "\n## %s\n\n%s\n", name, strings.Trim(text, "\n"))
	}
	sectionText("Context", a.Context)
	if len(a.DecisionDrivers) > 0 {
		sectionText("Decision Drivers", bullets(a.DecisionDrivers))
	}
	if len(a.ConsideredOptions) > 0 {
		var ob strings.Builder
		for i, opt := range a.ConsideredOptions {
			if i > 0 {
				ob.WriteString("\n")
			}
			fmt.Fprintf(&ob, "### %s\n", oneLine(opt.Name))
			if opt.Description != "" {
				fmt.Fprintf(&ob, "\n%s\n", strings.Trim(opt.Description, "\n"))
			}
			for _, p := range opt.Pros {
				fmt.Fprintf(&ob, "\n* Good, because %s", oneLine(p))
			}
			for _, c := range opt.Cons {
				fmt.Fprintf(&ob, "\n* Bad, because %s", oneLine(c))
			}
			if len(opt.Pros)+len(opt.Cons) > 0 {
				ob.WriteString("\n")
			}
		}
		sectionText("Considered Options", ob.String())
	}
	sectionText("Decision", a.Decision)
	if c := a.Consequences; c != nil {
		if !c.Structured {
			if len(c.List) == 1 {
				sectionText("Consequences", c.List[0])
			} else {
				sectionText("Consequences", bullets(c.List))
			}
		} else {
			var cb strings.Builder
			for _, part := range []struct {
				name  string
				items []string
			}{{"Positive", c.Positive}, {"Negative", c.Negative}, {"Risks", c.Risks}} {
				if len(part.items) > 0 {
					if cb.Len() > 0 {
						cb.WriteString("\n")
					}
					fmt.Fprintf(&cb, "### %s\n\n%s", part.name, bullets(part.items))
				}
			}
			sectionText("Consequences", cb.String())
		}
	}
	sectionText("Confirmation", a.Confirmation)
	var keys []string
	for k := range a.CustomSections {
		if !strings.HasPrefix(k, KeyPrefix) {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	for _, k := range keys {
		sectionText(oneLine(k), a.CustomSections[k])
	}
	return []byte(b.String())
}

func bullets(items []string) string {
	var b strings.Builder
	for _, it := range items {
		fmt.Fprintf(&b, "* %s\n", oneLine(it))
	}
	return b.String()
}

// oneLine keeps a value that belongs on one line there.
func oneLine(s string) string {
	return strings.Join(strings.Fields(s), " ")
}

// InLog is opt with Next, Exists and Numbers read from log l: the next
// free number of a root counts the records on branches and the numbers
// reserved (by root path) as well as the root's own; files are read from
// the work tree at top. A directory that is no root of l starts at 1 and
// has no numbers in use.
func InLog(opt ImportOptions, l *adr.Log, top string, branches []adr.BranchTree, reserved map[string][]int) ImportOptions {
	rootAt := func(dir string) *adr.Root {
		for _, r := range l.Roots {
			if r.Path == dir || dir == "" && (r.Path == "" || r.Path == ".") {
				return r
			}
		}
		return nil
	}
	opt.Next = func(dir string) int {
		if r := rootAt(dir); r != nil {
			return adr.NextNumber(r, adr.ScanBranches(branches, l.Roots), reserved[r.Path])
		}
		return 1
	}
	opt.Exists = func(p string) ([]byte, bool) {
		b, exists, err := adr.ReadWorkFile(top, p)
		return b, err == nil && exists
	}
	opt.Numbers = func(dir string) map[int]string {
		out := map[int]string{}
		if r := rootAt(dir); r != nil {
			for _, rec := range r.Records {
				if rec.Numbered && rec.Suffix == "" {
					out[rec.Number] = rec.Path
				}
			}
		}
		return out
	}
	return opt
}
