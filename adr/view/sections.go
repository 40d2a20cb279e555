package view

import (
	"path"
	"strings"

	"github.com/git-adr/git-adr/internal/lazyre"
)

// Parts of CURRENT.md, as [Sections] names them.
const (
	PartConstraints = "constraints"
	PartRationale   = "rationale"
	PartProposals   = "proposals"
	PartConflicts   = "conflicts"
	PartCoverage    = "coverage"
	PartSources     = "sources"
	PartViews       = "views"
)

var partOf = map[string]string{
	HeadingConstraints: PartConstraints, HeadingRationale: PartRationale, HeadingProposals: PartProposals,
	HeadingConflicts: PartConflicts, HeadingCoverage: PartCoverage, HeadingSources: PartSources, HeadingViews: PartViews,
}

// Section is an addressable piece of a CURRENT.md: one topic of the
// effective constraints or of the rationale and risks, or one whole other
// part.
type Section struct {
	Part string
	// Topic is the "###" heading of a constraints or rationale topic.
	Topic string
	// Title reads "Effective constraints: Storage".
	Title string
	// Anchor is the GitHub-style anchor of the section's heading.
	Anchor string
	// Start and End are 1-based inclusive lines, heading included,
	// trailing blank lines excluded.
	Start, End int
	// Empty reports a part that says "None.".
	Empty bool
	// Cites are the repository paths of the records the section links.
	Cites []string
}

var mdLink = lazyre.New(`\]\(\s*<?([^)>\s]+)>?\s*\)`)

// Sections splits a CURRENT.md that [Render] wrote (currentPath is its
// repository-relative path, to resolve links) into its sections, in
// document order. Headings count only at the start of a line and outside
// code fences; statement text is indented inside list items, so it never
// adds a section.
func Sections(currentPath string, current []byte) []Section {
	lines := strings.Split(strings.ReplaceAll(string(current), "\r\n", "\n"), "\n")
	if n := len(lines); n > 0 && lines[n-1] == "" {
		lines = lines[:n-1]
	}
	type heading struct {
		line, level int
		text        string
	}
	var hs []heading
	fence := ""
	for i, ln := range lines {
		t := strings.TrimLeft(ln, " ")
		if fence != "" {
			if strings.HasPrefix(t, fence) {
				fence = ""
			}
			continue
		}
		if strings.HasPrefix(t, "```") || strings.HasPrefix(t, "~~~") {
			fence = t[:3]
			continue
		}
		for lvl := 1; lvl <= 3; lvl++ {
			p := strings.Repeat("#", lvl) + " "
			if strings.HasPrefix(ln, p) {
				hs = append(hs, heading{i, lvl, strings.TrimSpace(ln[len(p):])})
				break
			}
		}
	}
	seen := map[string]int{}
	anchors := make([]string, len(hs))
	for i, h := range hs {
		anchors[i] = Anchor(h.text, seen)
	}
	end := func(i int) int { // 0-based exclusive end of heading i's section
		for _, h := range hs[i+1:] {
			if h.level <= hs[i].level {
				return h.line
			}
		}
		return len(lines)
	}
	dir := path.Dir(currentPath)
	mk := func(i int, part, topic, title string) Section {
		e := end(i)
		for e > hs[i].line+1 && strings.TrimSpace(lines[e-1]) == "" {
			e--
		}
		s := Section{Part: part, Topic: topic, Title: title, Anchor: anchors[i], Start: hs[i].line + 1, End: e}
		body := strings.TrimSpace(strings.Join(lines[hs[i].line+1:e], "\n"))
		s.Empty = body == "None."
		seenCite := map[string]bool{}
		for _, ln := range lines[hs[i].line+1 : e] {
			for _, m := range mdLink.FindAllStringSubmatch(ln, -1) {
				dest, _, _ := strings.Cut(m[1], "#")
				if dest == "" || strings.Contains(dest, "://") {
					continue
				}
				p := path.Clean(path.Join(dir, dest))
				if !seenCite[p] {
					seenCite[p] = true
					s.Cites = append(s.Cites, p)
				}
			}
		}
		return s
	}
	var out []Section
	part := ""
	for i, h := range hs {
		switch h.level {
		case 2:
			part = partOf[h.text]
			if part == "" {
				continue
			}
			if part == PartConstraints || part == PartRationale {
				// Topics are the sections; an empty part is one.
				if i+1 < len(hs) && hs[i+1].level == 3 {
					continue
				}
			}
			out = append(out, mk(i, part, "", h.text))
		case 3:
			if part == PartConstraints || part == PartRationale {
				parent := HeadingConstraints
				if part == PartRationale {
					parent = HeadingRationale
				}
				out = append(out, mk(i, part, h.text, parent+": "+h.text))
			}
		}
	}
	return out
}
