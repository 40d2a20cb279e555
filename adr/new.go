package adr

import (
	"fmt"
	"strings"
)

// Built-in templates, one per style. NUMBER, TITLE, DATE and STATUS are
// replaced as adr-tools does (the first occurrence on each line), so
// adr-tools project templates work unchanged.
var templates = map[Style]string{
	StyleNygard: `# NUMBER. TITLE

Date: DATE

## Status

STATUS

## Context

The issue motivating this decision, and any context that influences or constrains the decision.

## Decision

The change that we're proposing or have agreed to implement.

## Consequences

What becomes easier or more difficult to do and any risks introduced by the change that will need to be mitigated.
`,
	StyleMADR: `---
status: STATUS
date: DATE
---
# TITLE

## Context and Problem Statement

{Describe the context and problem statement in two or three sentences.}

## Considered Options

* {title of option 1}
* {title of option 2}

## Decision Outcome

Chosen option: "{title of option 1}", because {justification}.

### Consequences

* Good, because {positive consequence}
* Bad, because {negative consequence}
`,
	StyleMADR2: `# TITLE

- Status: STATUS
- Date: DATE

## Context and Problem Statement

{Describe the context and problem statement in two or three sentences.}

## Considered Options

- {title of option 1}
- {title of option 2}

## Decision Outcome

Chosen option: "{title of option 1}", because {justification}.
`,
	StyleTable: `# TITLE

| Metadata | Value      |
|----------|------------|
| Date     | DATE |
| Status   | STATUS |

## Context

The issue motivating this decision, and any context that influences or constrains the decision.

## Decision

The change that we're proposing or have agreed to implement.

## Consequences

What becomes easier or more difficult to do and any risks introduced by the change that will need to be mitigated.
`,
	StyleOCP: `# NUMBER. TITLE

Date: DATE
Status: STATUS

## §1 TITLE

Status: STATUS

Context, decision and consequences of the first decision in this container.
Add one "## §N Title" section per decision; each is identified as IDNUMBER§N.
`,
}

// initRecords are the first record `git adr init` writes, per style.
var initBodies = map[Style]string{
	StyleNygard: `# 1. Record architecture decisions

Date: DATE

## Status

Accepted

## Context

We need to record the architectural decisions made on this project.

## Decision

We will use Architecture Decision Records, as [described by Michael Nygard](http://thinkrelevance.com/blog/2011/11/15/documenting-architecture-decisions).

## Consequences

See Michael Nygard's article, linked above. For a lightweight ADR toolset, see Nat Pryce's [adr-tools](https://github.com/npryce/adr-tools).
`,
	StyleMADR: `---
status: accepted
date: DATE
---
# Use Markdown Architectural Decision Records

## Context and Problem Statement

We want to record architectural decisions made in this project independent of whether decisions concern the architecture ("architecture decision record"), the code, or other fields.
Which format and structure should these records follow?

## Considered Options

* [MADR](https://adr.github.io/madr/)
* Michael Nygard's template
* Formless, with no conventions for file format and structure

## Decision Outcome

Chosen option: "MADR", because it is structured, lean, and emphasises the considered options; git-adr reads and maintains it.
`,
	StyleOCP: `# 1. Record architecture decisions

Date: DATE
Status: Accepted

## §1 Record architecture decisions

Status: Accepted

We record architectural decisions as identified sections of container records, so each decision (ADR-0001§1) can be cited, superseded and checked on its own.
`,
}

func init() {
	initBodies[StyleMADR2] = strings.Replace(initBodies[StyleMADR],
		"---\nstatus: accepted\ndate: DATE\n---\n# Use Markdown Architectural Decision Records\n",
		"# Use Markdown Architectural Decision Records\n\n- Status: accepted\n- Date: DATE\n", 1)
	initBodies[StyleTable] = "# Record architecture decisions\n\n| Metadata | Value      |\n|----------|------------|\n| Date     | DATE |\n| Status   | Accepted   |\n\n## Context\n\nWe need to record the architectural decisions made on this project.\n\n## Decision\n\nWe will use Architecture Decision Records.\n\n## Consequences\n\nDecisions and their reasons stay findable next to the code.\n"
}

// InitBody returns the first record `git adr init` writes in a style.
func InitBody(s Style) string { return initBodies[s] }

// NewOptions describes a record to create.
type NewOptions struct {
	Title string
	Root  *Root
	Style Style
	// Status is the normalised status; "" means the style's default
	// (accepted for nygard, as adr-tools does; proposed otherwise).
	Status  Status
	Domains []string
	// Date is YYYY-MM-DD.
	Date string
	// Number is the allocated number (see NextNumber).
	Number int
	// Template is a project template; "" uses the style's built-in one.
	Template string
	// Body, when set, is used instead of any template (init's first record).
	Body       string
	Supersedes []*Record
	Links      []LinkSpec
	// Sections, when set, are the texts of the record's context, decision
	// and consequences, put in place of what the template says there (see
	// [SectionText]); a text that cannot go in is a *SectionTextError.
	Sections []SectionText
}

// LinkSpec is adr-tools' -l "TARGET:LINK:REVERSE-LINK".
type LinkSpec struct {
	Target         *Record
	Label, Reverse string
}

// FileName returns the file name a new record gets in root, following the
// root's own convention ("0007-use-x.md", "adr-007-use-x.md", "ADR-7.md",
// "20261130-use-x.md").
func (root *Root) FileName(number int, title, date string) string {
	slug := slugify(title)
	if slug == "" {
		slug = "record"
	}
	name := ""
	switch {
	case root.DashedDates:
		name = date + "-" + slug
	case root.DateSlugs:
		name = strings.ReplaceAll(date, "-", "") + "-" + slug
	case root.NoSlug && !root.Folders:
		name = root.Lead + padNumber(number, root.Digits)
	default:
		sep := root.Sep
		if sep == "" {
			sep = "-"
		}
		// A lead that is a date ("2022-03-28_", as in
		// "2022-03-28_017-udp.md") is the new record's date.
		name = leadOn(root.Lead, date) + padNumber(number, root.Digits) + sep + slug
	}
	if root.Folders {
		// One folder per record: "2023-01-05-some-slug/README.md".
		return name + "/" + root.RecordFile
	}
	return name + ".md"
}

// NewRecord renders a record and the edits that link it: superseded
// records are retired (only when the new record is accepted: a proposal
// cannot retire an accepted decision) and -l links get their reverse.
func (l *Log) NewRecord(o NewOptions) (*Record, []FileChange, []string, error) {
	if o.Root.Refused != nil {
		return nil, nil, nil, &RefusedRootError{Root: o.Root}
	}
	style := o.Style
	if style == "" {
		style = o.Root.Style
	}
	if _, ok := templates[style]; !ok {
		return nil, nil, nil, fmt.Errorf("style %q cannot be written", style)
	}
	// A project template's status line is its vocabulary: "{proposed |
	// accepted | ...}", "What is the status, such as proposed, ...?".
	tmplStatus := ""
	if o.Template != "" {
		tmplStatus = Parse([]byte(o.Template)).statusWords()
	}
	status := o.Status
	if status == "" {
		status = Proposed
		if style == StyleNygard && statusOption(tmplStatus, Proposed) == "" {
			// adr-tools accepts; a template that offers a proposal
			// proposes.
			status = Accepted
		}
	}
	word := ""
	if o.Template != "" {
		word = o.Root.templateStatusWord(tmplStatus, status)
	} else if o.Body == "" {
		// The word the log's records agree on for it ("Draft" for a
		// proposal).
		word = o.Root.agreedStatusWord(status)
	}
	if word == "" {
		word = StatusWord(status)
		if lowerStatus(style) {
			word = strings.ToLower(word)
		}
	}
	// "✅ Accepted" in a log that decorates its statuses so.
	word = o.Root.statusDecoration(status) + word
	tmpl := o.Template
	if tmpl == "" {
		tmpl = templates[style]
	}
	id := o.Root.FormatID(o.Number)
	content := o.Body
	if content == "" {
		content = Fill(tmpl, fmt.Sprint(o.Number), id, o.Title, o.Date, word)
	} else {
		content = Fill(content, fmt.Sprint(o.Number), id, o.Title, o.Date, word)
	}
	if o.Template != "" {
		content = completeTemplateAs(content, o.Number, o.Title, o.Date, word, status, o.Status != "")
	}
	if o.Template == "" && o.Body == "" {
		// A built-in template takes the front matter the log's records
		// write: their title key and no heading, lines they all share.
		content = o.Root.followFrontMatter(content, o.Title)
	}
	// The number as the log's records write it in their titles and
	// front matter.
	content = o.Root.followConventions(content, o.Number, o.Title)
	if len(o.Domains) > 0 {
		content = addDomains(content, style, o.Domains)
	}
	if style == StyleTable {
		content = alignTables(content)
	}
	if content != "" && !strings.HasSuffix(content, "\n") {
		// A template saved without its last line's end.
		content += NewText([]byte(content)).EOL
	}
	content, err := fillSections(content, style, o.Sections)
	if err != nil {
		return nil, nil, nil, err
	}
	name := o.Root.FileName(o.Number, o.Title, o.Date)
	if !o.Root.DateSlugs {
		if err := checkNumber(name, o.Number); err != nil {
			return nil, nil, nil, err
		}
	}
	rec := Parse([]byte(content))
	rec.Path, rec.Root = o.Root.Join(name), o.Root
	rec.Numbered, rec.Number = !o.Root.DateSlugs, o.Number
	rec.ID = id
	if o.Root.DateSlugs {
		rec.ID = nameOf(rec.Path).Stem
		if o.Root.Name != "" {
			rec.ID = o.Root.Name + "/" + rec.ID
		}
	}
	if l.ByPath(rec.Path) != nil {
		return nil, nil, nil, fmt.Errorf("%q already exists", rec.Path)
	}
	w := newWorkspace(l)
	w.create(rec)
	var notes []string
	if n := o.Root.UnreadNote(o.Number); n != "" {
		notes = append(notes, n)
	}
	for _, old := range o.Supersedes {
		cur := w.set(rec, w.rec(rec).WithRelation(Supersedes.Label(), w.rec(old)))
		if rec.Status == Accepted || cur.Status == Accepted {
			if old.Status == Superseded {
				notes = append(notes, fmt.Sprintf("%s was already superseded; only linked", old.ID))
				w.set(old, w.rec(old).WithRelation(SupersededBy.Label(), cur))
				continue
			}
			w.set(old, supersededEdits(w.rec(old), cur))
		} else {
			notes = append(notes, fmt.Sprintf("%s stays %s until %s is accepted (`git adr decide %s accept`)", old.ID, old.Status, rec.ID, rec.ID))
		}
	}
	for _, ln := range o.Links {
		cur := w.set(rec, w.rec(rec).WithRelation(ln.Label, w.rec(ln.Target)))
		w.set(ln.Target, w.rec(ln.Target).WithRelation(ln.Reverse, cur))
	}
	changes, err := w.changes()
	if err != nil {
		return nil, nil, nil, err
	}
	return w.rec(rec), changes, notes, nil
}

// addDomains writes domains in the style's metadata form.
func addDomains(content string, style Style, domains []string) string {
	list := strings.Join(domains, ", ")
	switch style {
	case StyleMADR:
		return strings.Replace(content, "\n---\n", "\ntags: ["+list+"]\n---\n", 1)
	case StyleMADR2:
		if i := strings.Index(content, "- Date: "); i >= 0 {
			j := strings.IndexByte(content[i:], '\n') + i + 1
			return content[:j] + "- Tags: " + list + "\n" + content[j:]
		}
	case StyleTable:
		if i := strings.Index(content, "| Status "); i >= 0 {
			j := strings.IndexByte(content[i:], '\n') + i + 1
			return content[:j] + tableRowLike(strings.TrimSuffix(content[i:j], "\n"), "Tags", list) + "\n" + content[j:]
		}
	}
	if i := strings.Index(content, "Date: "); i >= 0 {
		j := strings.IndexByte(content[i:], '\n') + i + 1
		return content[:j] + "Domains: " + list + "\n" + content[j:]
	}
	return content
}

// alignTables pads the cells of every pipe table in a freshly rendered
// record so that columns line up (only new content is ever re-aligned).
func alignTables(content string) string {
	lines := strings.Split(content, "\n")
	for i := 0; i < len(lines); {
		if !strings.HasPrefix(strings.TrimSpace(lines[i]), "|") {
			i++
			continue
		}
		j := i
		for j < len(lines) && strings.HasPrefix(strings.TrimSpace(lines[j]), "|") {
			j++
		}
		var rows [][]string
		var widths []int
		for _, l := range lines[i:j] {
			var cells []string
			for _, c := range splitRow(l) {
				cells = append(cells, l[c[0]:c[1]])
			}
			for k, c := range cells {
				if k >= len(widths) {
					widths = append(widths, 0)
				}
				if strings.Trim(c, "-: ") != "" || c == "" {
					widths[k] = max(widths[k], len([]rune(c)))
				}
			}
			rows = append(rows, cells)
		}
		for r, cells := range rows {
			var b strings.Builder
			b.WriteString("|")
			for k, c := range cells {
				w := max(widths[k], 3)
				if c != "" && strings.Trim(c, "-:") == "" {
					b.WriteString(strings.Repeat("-", w+2) + "|")
					continue
				}
				b.WriteString(" " + c + strings.Repeat(" ", w-len([]rune(c))) + " |")
			}
			lines[i+r] = b.String()
		}
		i = j
	}
	return strings.Join(lines, "\n")
}

// AdrToolsTemplate is adr-tools' template.md, the nygard template.
func AdrToolsTemplate() string { return templates[StyleNygard] }

// AdrToolsInitRecord is adr-tools' init.md, the first record `adr init`
// writes (a literal "1." and no TITLE placeholder).
func AdrToolsInitRecord() string { return initBodies[StyleNygard] }
