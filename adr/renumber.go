package adr

import (
	"fmt"
	"path"
	"regexp"
	"strconv"
	"strings"
)

// RenumberResult is what moving a record to a new number changes.
type RenumberResult struct {
	From, To string // IDs
	OldPath  string
	NewPath  string
	Changes  []FileChange
	// Mentions are prose mentions of the old ID that were left alone:
	// text cannot say which record it meant (after a branch collision both
	// records had that number).
	Mentions []string
}

// Renumber moves rec to number n: the file is renamed (slug kept), the
// number in its title rewritten, and every link and ID-valued relation that
// resolves to it, in every record, rewritten to the new name.
func (l *Log) Renumber(rec *Record, n int) (*RenumberResult, error) {
	if !rec.Numbered {
		return nil, fmt.Errorf("%s is identified by its slug, not a number; nothing to renumber", rec.ID)
	}
	if n == rec.Number {
		return nil, ErrNoChange
	}
	root := rec.Root
	for _, r := range root.Records {
		if r.Numbered && r.Number == n && r.Suffix == "" {
			return nil, fmt.Errorf("%s is taken by %s", root.FormatID(n), r.Path)
		}
	}
	fn := nameOf(rec.Path)
	if fn.Ext == "" {
		dir := dirOf(rec.Path)
		return nil, fmt.Errorf("%s is the folder %s; move the folder to renumber it (`git mv %s NEW-NAME`, then `git adr check` lists the links to fix)", rec.ID, dir, ShellWord(dir))
	}
	width := len(fn.Digits)
	if len(fn.Digits) > 0 && fn.Digits[0] != '0' {
		width = root.Digits
	}
	newBase := fn.Lead + padNumber(n, width) + fn.Sep + fn.Slug + fn.Ext
	if n < 0 {
		return nil, &NumberError{Number: n, Reason: "is not a record number (numbers start at 0)"}
	}
	if err := checkNumber(newBase, n); err != nil {
		return nil, err
	}
	// A number wider than the root's numbers breaks their order in a
	// directory listing: allowed only where the root has such numbers.
	if w := len(strconv.Itoa(n)); root.Digits > 0 && w > root.Digits && w > root.widest() {
		return nil, &NumberError{Number: n, Reason: fmt.Sprintf("does not fit the %d-digit numbers of %s (at most %s)", root.Digits, root.Dir(), strings.Repeat("9", root.Digits))}
	}
	newPath := path.Join(dirOf(rec.Path), newBase)
	if dirOf(rec.Path) == "" {
		newPath = newBase
	}
	if l.ByPath(newPath) != nil {
		return nil, fmt.Errorf("%q already exists", newPath)
	}
	res := &RenumberResult{From: rec.ID, To: root.FormatID(n), OldPath: rec.Path, NewPath: newPath}
	oldBase := baseOf(rec.Path)
	oldStem := strings.TrimSuffix(oldBase, fn.Ext)
	newStem := strings.TrimSuffix(newBase, fn.Ext)
	mention := regexp.MustCompile(`(?i)\b` + regexp.QuoteMeta(strings.TrimRight(root.Prefix, "-_ ")) + `[-_ ]?0*` + strconv.Itoa(rec.Number) + `\b`)

	for _, r := range l.Records {
		// Read, not kept by the record: a change holds the text of a
		// record it edits, and the others are let go of (at 10,000
		// records every text was held).
		t := r.PeekText()
		if t == nil {
			continue
		}
		var edits []Edit
		for i := range t.Lines {
			k := t.Lines[i].Kind
			if k == LineCode || k == LineFence || k == LineComment {
				continue
			}
			line := t.LineText(i)
			base := t.Lines[i].Start
			var linkSpans [][2]int
			for _, m := range mdLink.FindAllStringSubmatchIndex(line, -1) {
				target := line[m[4]:m[5]]
				if l.Target(r, target) != rec {
					continue
				}
				linkSpans = append(linkSpans, [2]int{m[0], m[1]})
				// The link text: "5. Help comments" becomes "7. Help comments".
				text := line[m[2]:m[3]]
				if nt, ok := renumberTitle(text, rec.Number, n); ok && (r == rec || strings.TrimSpace(text) == rec.RawTitle) {
					edits = append(edits, Edit{Start: base + m[2], End: base + m[3], New: nt})
				} else if mention.MatchString(text) {
					edits = append(edits, Edit{Start: base + m[2], End: base + m[3], New: mention.ReplaceAllStringFunc(text, func(s string) string { return renumberMention(s, n, root) })})
				}
				nt := strings.Replace(target, oldStem, newStem, 1)
				edits = append(edits, Edit{Start: base + m[4], End: base + m[5], New: nt})
			}
			if r == rec {
				continue
			}
			// ID-valued relations ("| Updates | ADR-8 |", "supersedes:
			// ADR-8") are rewritten; other mentions are prose, reported.
			isRel := false
			for _, rel := range r.Relations {
				if rel.Line == i+1 && isIDText(rel.Target) && l.Target(r, rel.Target) == rec {
					isRel = true
				}
			}
			for _, m := range mention.FindAllStringIndex(line, -1) {
				inLink := false
				for _, sp := range linkSpans {
					inLink = inLink || m[0] >= sp[0] && m[1] <= sp[1]
				}
				switch {
				case inLink:
				case isRel:
					edits = append(edits, Edit{Start: base + m[0], End: base + m[1], New: renumberMention(line[m[0]:m[1]], n, root)})
				default:
					res.Mentions = append(res.Mentions, fmt.Sprintf("%s:%d mentions %s", r.Path, i+1, line[m[0]:m[1]]))
				}
			}
		}
		if r == rec {
			if e, ok := r.titleNumberEdit(n); ok {
				edits = append(edits, e)
			}
		}
		if len(edits) == 0 && r != rec {
			continue
		}
		if len(edits) > 0 {
			if err := editable(r); err != nil {
				return nil, err
			}
		}
		data := t.Apply(edits...)
		if r == rec {
			res.Changes = append(res.Changes, FileChange{Path: newPath, From: rec.Path, Old: t.Src, New: data})
			continue
		}
		res.Changes = append(res.Changes, FileChange{Path: r.Path, Old: t.Src, New: data})
	}
	return res, nil
}

// widest is the number of digits of the widest record number in the root.
func (root *Root) widest() int {
	w := 0
	for _, r := range root.Records {
		if r.Numbered {
			w = max(w, len(strconv.Itoa(r.Number)))
		}
	}
	return w
}

// renumberTitle rewrites a leading "5." / "ADR 005:" number in a title.
func renumberTitle(s string, from, to int) (string, bool) {
	re := regexp.MustCompile(`^(\s*(?:(?i:adr|rfc)[-_ #]?)?)0*` + strconv.Itoa(from) + `\b`)
	loc := re.FindStringSubmatchIndex(s)
	if loc == nil {
		return s, false
	}
	digits := s[loc[3]:loc[1]]
	return s[:loc[3]] + padNumber(to, len(digits)*boolInt(strings.HasPrefix(digits, "0") && len(digits) > 1)) + s[loc[1]:], true
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// renumberMention rewrites "ADR-0005" to the new number, keeping the
// written prefix and padding.
func renumberMention(s string, to int, root *Root) string {
	i := len(s)
	for i > 0 && s[i-1] >= '0' && s[i-1] <= '9' {
		i--
	}
	digits := s[i:]
	width := 0
	if len(digits) > 1 && digits[0] == '0' {
		width = len(digits)
	}
	return s[:i] + padNumber(to, width)
}

// titleNumberEdit rewrites the number in the title heading, if it has one.
func (r *Record) titleNumberEdit(n int) (Edit, bool) {
	if r.TitleNumber != r.Number {
		return Edit{}, false
	}
	t := r.Text()
	for i := range t.Lines {
		if t.Lines[i].Kind != LineHeading {
			continue
		}
		line := t.LineText(i)
		lvl := atxLevel(strings.TrimLeft(line, " "))
		if lvl != 1 {
			continue
		}
		off := strings.Index(line, "#") + lvl
		text := line[off:]
		nt, ok := renumberTitle(text, r.Number, n)
		if !ok {
			return Edit{}, false
		}
		return Edit{Start: t.Lines[i].Start + off, End: t.Lines[i].End, New: nt}, true
	}
	return Edit{}, false
}
