package adr

import (
	"fmt"
	"strconv"
	"strings"
)

// What one record says about itself: problems reading it, a title number
// that is not its file's, two statuses that disagree, a missing or unknown
// status, a status its supersession links contradict, each with its fix.

// record reports what one record says about itself: status, title number,
// problems.
func (c *checker) record(r *Record) {
	statusLine := 0
	if r.StatusField.Kind != FieldNone {
		statusLine = r.StatusField.Line + 1
	}
	for _, p := range r.Unparseable() {
		c.add(problemFinding(r, p))
	}
	if r.Numbered && r.TitleNumber >= 0 && r.TitleNumber != r.Number {
		line := titleLine(r)
		fix := fmt.Sprintf("change the number in the title to %d", r.Number)
		if line > 0 {
			fix = fmt.Sprintf("change line %d to %q", line, renumberTitleLine(r.Text().LineText(line-1), r.TitleNumber, r.Number))
		}
		c.add(Finding{
			Kind: KindIDMismatch, Path: r.Path, Line: line, IDs: []string{r.ID},
			Message: fmt.Sprintf("the title says %d but the file name says %d (%s)", r.TitleNumber, r.Number, r.ID),
			Fix:     fix,
		})
	}
	for _, o := range r.otherStatuses {
		if o.Status == r.Status {
			continue
		}
		c.add(Finding{
			Kind: KindStatusConflict, Path: r.Path, Line: o.Line, IDs: []string{r.ID},
			Message: fmt.Sprintf("line %d says %q but the status on line %d is %q; git-adr reads the first (%s)", o.Line, shorten(o.Raw, 40), statusLine, shorten(r.RawStatus, 40), r.Status),
			Fix:     fmt.Sprintf("keep one status: correct or remove line %d or line %d", o.Line, statusLine),
		})
	}
	if require, _ := c.requireStatus(); r.StatusNotRecorded() && !require {
		return // the log records no statuses; see statusesOptional
	}
	switch r.Status {
	case Unknown:
		msg := "no status"
		fix := fmt.Sprintf("write one of Proposed, Accepted, Rejected, Deprecated, Superseded under the status heading on line %d", statusLine)
		if r.RawStatus != "" {
			msg = fmt.Sprintf("unknown status %q", shorten(r.RawStatus, 60))
			fix = fmt.Sprintf("change the status on line %d to one of: proposed, accepted, rejected, deprecated, superseded", statusLine)
		} else if statusLine == 0 || r.StatusField.Kind != FieldSection {
			style := r.Style
			if r.StatusField.Kind == FieldNone && !hasFrontMatter(r) && r.Root != nil && r.Root.Style != "" && r.Root.Style != StylePlain && r.Root.Style != StyleLog {
				// A record with no status field and no front matter shows
				// no way of writing one: its log's way is the one to
				// follow (MADR 2's "- Status:" bullets, not MADR 3's
				// front matter, in a log of bullets).
				style = r.Root.Style
			}
			fix = addStatusFix(style)
		}
		c.add(Finding{Kind: KindUnknownStatus, Path: r.Path, Line: statusLine, IDs: []string{r.ID}, Message: msg, Fix: fix})
	case Superseded:
		if hasRelation(r, SupersededBy) {
			break
		}
		f := Finding{
			Kind: KindStatusMismatch, Path: r.Path, Line: statusLine, IDs: []string{r.ID},
			Message: "the status is superseded but no \"Superseded by\" link names the successor",
			Fix:     fmt.Sprintf("add a line \"Superseded by [N. Title](NNNN-title.md)\" naming the successor to %s, or correct the status", r.Path),
		}
		if by := c.supersededBy[r]; len(by) > 0 {
			s := firstRecord(by)
			f.IDs = append(f.IDs, s.ID)
			f.Message = fmt.Sprintf("the status is superseded and %s supersedes it, but it has no \"Superseded by\" link back", s.ID)
			f.Fix = linkCommand(c.ref(s), Supersedes, c.ref(r))
			if r.InLogFile() || s.InLogFile() {
				f.Fix = sectionLinkFix(r, SupersededBy, s)
			}
		} else if s, line, _ := c.proseSuccessor(r); s != nil {
			// "Superseded by ADR-0019" in prose: the successor is named.
			f.IDs = append(f.IDs, s.ID)
			f.Message = fmt.Sprintf("the status is superseded and line %d names %s as the successor, but no \"Superseded by\" link records it", line, s.ID)
			f.Fix = linkCommand(c.ref(s), Supersedes, c.ref(r))
			if r.InLogFile() || s.InLogFile() {
				f.Fix = sectionLinkFix(r, SupersededBy, s)
			}
		}
		c.add(f)
	case Accepted, Proposed:
		if !hasRelation(r, SupersededBy) {
			break
		}
		// The successor says so too, or only the record itself does
		// ("- Superseded by [X](x.md)" under an accepted status).
		var s *Record
		msg := ""
		if by := c.supersededBy[r]; len(by) > 0 {
			s = firstRecord(by)
			msg = fmt.Sprintf("the status is %s but %s supersedes it", r.Status, s.ID)
		} else if s = c.ownSuccessor(r); s != nil {
			msg = fmt.Sprintf("the status is %s but its \"Superseded by\" link names %s", r.Status, s.ID)
		} else {
			break // a link to no record: broken-reference says so
		}
		fix := fmt.Sprintf("change the status of %s to \"Superseded\"", r.Path)
		if statusLine > 0 {
			fix = fmt.Sprintf("change the status on line %d from %q to \"Superseded\"", statusLine, r.RawStatus)
		}
		c.add(Finding{
			Kind: KindStatusMismatch, Path: r.Path, Line: statusLine, IDs: []string{r.ID, s.ID},
			Message: msg,
			Fix:     fix,
		})
	}
}

// shorten cuts s to n runes, marking the cut with "...".
func shorten(s string, n int) string {
	rs := []rune(s)
	if len(rs) <= n {
		return s
	}
	return strings.TrimSpace(string(rs[:n])) + "..."
}

// titleProblemLine is the line ProblemUnspacedTitle names in p.
func titleProblemLine(p string) int {
	var n int
	if _, err := fmt.Sscanf(p, ProblemUnspacedTitle, &n); err != nil {
		return 0
	}
	return n
}

func problemFinding(r *Record, p string) Finding {
	f := Finding{Kind: KindUnparseable, Path: r.Path, IDs: []string{r.ID}, Message: p,
		Fix: fmt.Sprintf("edit %s so that it has a title heading, a status and valid UTF-8", r.Path)}
	switch {
	case p == ProblemNUL:
		f.Fix = fmt.Sprintf("replace %s with UTF-8 text; if it is UTF-16, convert it with iconv -f UTF-16 -t UTF-8", r.Path)
	case strings.Contains(p, "UTF-8") && r.Text() != nil && hasUTF16BOM(r.Text().Src):
		f.Fix = fmt.Sprintf("re-encode %s as UTF-8, for example with iconv -f UTF-16 -t UTF-8", r.Path)
	case strings.Contains(p, "only its title"):
		f.Line = titleLine(r)
		f.Fix = fmt.Sprintf("write the status, context and decision below the title of %s, or remove the file", r.Path)
	case strings.Contains(p, "UTF-8"):
		f.Fix = fmt.Sprintf("re-encode %s as UTF-8, for example with iconv -f ISO-8859-1 -t UTF-8", r.Path)
	case strings.Contains(p, "no space after"):
		f.Line = titleProblemLine(p)
		if t := r.Text(); t != nil && f.Line > 0 && f.Line <= len(t.Lines) {
			if marks, text, ok := unspacedHeading(t.LineText(f.Line - 1)); ok {
				f.Fix = fmt.Sprintf("put a space after %q on line %d of %s: %q", marks, f.Line, r.Path, marks+" "+text)
			}
		}
	case strings.Contains(p, "no-break space"):
		if _, err := fmt.Sscanf(p, ProblemNoBreakHeading, &f.Line); err == nil {
			if t := r.Text(); t != nil && f.Line > 0 && f.Line <= len(t.Lines) {
				line := t.LineText(f.Line - 1)
				if marks, ok := noBreakHeading(line); ok {
					fixed := marks + " " + strings.TrimLeft(strings.TrimPrefix(strings.TrimLeft(line, " "), marks), "\u00a0 \t")
					f.Fix = fmt.Sprintf("replace the no-break space after %q on line %d of %s by a space: %q", marks, f.Line, r.Path, fixed)
				}
			}
		}
	case strings.Contains(p, "template's placeholder"):
		f.Line = titleLine(r)
		f.Fix = fmt.Sprintf("write the record's title in place of the placeholder on line %d of %s", f.Line, r.Path)
	case strings.Contains(p, "title"):
		f.Fix = fmt.Sprintf("add a title heading such as \"# %d. Title\" at the top of %s", max(r.Number, 1), r.Path)
		if !r.Numbered {
			f.Fix = fmt.Sprintf("add a title heading such as \"# Title\" at the top of %s", r.Path)
		}
	case strings.Contains(p, "front matter"):
		f.Line = 1
		// The YAML parser counts from the first line inside the "---".
		if m := yamlLine.FindStringSubmatch(p); m != nil {
			if n, err := strconv.Atoi(m[1]); err == nil {
				f.Line = n + 1
			}
		}
		f.Fix = fmt.Sprintf("fix the YAML between the --- lines at the top of %s", r.Path)
	}
	return f
}

// hasFrontMatter reports whether r's file starts with front matter.
func hasFrontMatter(r *Record) bool { return r.facts().frontMatter }

func addStatusFix(s Style) string {
	switch s {
	case StyleMADR:
		return "add \"status: accepted\" (or proposed, rejected, deprecated, superseded) to the front matter"
	case StyleMADR2:
		return "add a line \"- Status: accepted\" (or proposed, rejected, deprecated, superseded) under the title"
	case StyleTable:
		return "add a row \"| Status | Accepted |\" (or Proposed, Rejected, Deprecated, Superseded) to the metadata table"
	}
	return "add a \"## Status\" section whose first line is Accepted (or Proposed, Rejected, Deprecated, Superseded)"
}

// ownSuccessor is the first record r's own "Superseded by" links name.
func (c *checker) ownSuccessor(r *Record) *Record {
	for _, rel := range r.Relations {
		if rel.Type == SupersededBy {
			if s := c.l.Target(r, rel.Target); s != nil && s != r {
				return s
			}
		}
	}
	return nil
}

func hasRelation(r *Record, t RelationType) bool {
	for _, rel := range r.Relations {
		if rel.Type == t {
			return true
		}
	}
	return false
}

func firstRecord(rs []*Record) *Record {
	best := rs[0]
	for _, r := range rs[1:] {
		if recordLess(r, best) {
			best = r
		}
	}
	return best
}
