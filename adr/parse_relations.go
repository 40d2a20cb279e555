package adr

import (
	"strings"

	"github.com/git-adr/git-adr/internal/lazyre"
)

// Relation lines: "Supersedes [5. X](0005-x.md)", "Superseded by
// ADR-0009", "Amends: 3, 4", adr-tools' custom link labels, and the IDs a
// relation's value names. The status section, the link sections and
// metadata fields all read their relations here.

// linkIndex is mdLink.FindStringIndex for a line that may hold no link.
func linkIndex(s string) []int {
	if !strings.Contains(s, "](") {
		return nil
	}
	return mdLink.FindStringIndex(s)
}

// customLabels says which unknown link labels parseRelationLine accepts.
type customLabels uint8

const (
	// noCustom accepts known relation labels only.
	noCustom customLabels = iota
	// customInStatus accepts any label linking a Markdown file by a
	// relative path: adr-tools writes its -l links ("Clarifies [3.
	// X](0003-x.md)") in the Status section.
	customInStatus
	// customRecordLinks accepts a label only when it links a record by
	// its file name ("NNNN-slug.md", a date slug) or ID, and is not
	// written as a key ("Background: [the design](../design.md)" is a
	// reference): the bullets of "## Links" or "## More Information".
	customRecordLinks
)

// parseRelationLine reads "Supersedes [5. X](0005-x.md)", "- Amended by
// [X](x.md), [Y](y.md)" or "Superseded by ADR-0009". Custom labels
// ("Clarifies [3. X](0003-x.md)", as adr-tools writes them) are accepted
// as custom says; a URL is never the target of a custom label.
func parseRelationLine(s string, custom customLabels) (label string, targets []string, ok bool) {
	s = strings.TrimSpace(s)
	s = strings.TrimLeft(s, "-*+ \t")
	// "⌛️ Superseded by [7. X](0007-x.md)": the emoji decorates the label;
	// "2021-05-06 Superseded by [9. Y](0009-y.md)": the date is when.
	s = s[decorationLen(s):]
	s = s[leadingDateLen(s):]
	if s == "" {
		return "", nil, false
	}
	// Most lines hold no link: skip the (backtracking) link pattern then.
	if loc := linkIndex(s); loc != nil {
		label = strings.Trim(trimDecoration(strings.TrimSpace(s[:loc[0]])), "*_: \t")
		if label == "" || len(strings.Fields(label)) > 5 || strings.ContainsAny(label, ".,;!?()[]`") {
			return "", nil, false
		}
		for _, m := range mdLink.FindAllStringSubmatch(s, -1) {
			targets = append(targets, linkTarget(m[1], m[2]))
		}
		// Anything after the links must be separators only.
		rest := mdLink.ReplaceAllString(s[loc[0]:], "")
		if strings.Trim(rest, " ,;and&*_.") != "" && !strings.EqualFold(strings.TrimSpace(rest), "and") {
			return "", nil, false
		}
		t := ParseRelationType(label)
		if !t.Known() {
			if _, rel, isKey := metaKeyOf(label); isKey && rel != "" {
				return label, targets, true
			}
			if custom == noCustom {
				return "", nil, false
			}
			keyed := strings.HasSuffix(strings.TrimRight(strings.TrimSpace(s[:loc[0]]), "*_ \t"), ":")
			if custom == customRecordLinks && keyed {
				return "", nil, false
			}
			for _, tg := range targets {
				p := linkPath(tg)
				switch {
				case urlScheme.MatchString(tg) || strings.HasPrefix(tg, "//"):
					return "", nil, false
				case isIDText(tg):
				case strings.HasSuffix(p, "/"):
					// A record folder: "../2023-01-05-some-slug/".
					if _, ok := folderRecordName(baseOf(strings.TrimSuffix(p, "/"))); !ok {
						return "", nil, false
					}
				case recordExt(p) == "":
					return "", nil, false
				case custom == customRecordLinks:
					if fn := nameOf(p); !fn.Numbered && !isDateSlug(fn.Stem) {
						return "", nil, false
					}
				}
			}
		}
		return label, targets, true
	}
	// "Superseded by ADR-0009" / "Amends: 3, 4".
	fields := strings.Fields(s)
	for n := min(3, len(fields)-1); n >= 1; n-- {
		label = strings.TrimRight(strings.Join(fields[:n], " "), ":")
		t := ParseRelationType(label)
		if !t.Known() {
			if _, rel, isKey := metaKeyOf(label); !isKey || rel == "" {
				continue
			}
		}
		ts := relationTargets(strings.Join(fields[n:], " "))
		if len(ts) > 0 {
			return label, ts, true
		}
	}
	return "", nil, false
}

// relationTargets reads the targets of a relation value: Markdown links,
// IDs ("ADR-8", "ADR-0042§3", "12") or file names, comma separated.
func relationTargets(v string) []string {
	v = strings.TrimSpace(v)
	if links := mdLink.FindAllStringSubmatch(v, -1); len(links) > 0 {
		var out []string
		for _, m := range links {
			out = append(out, linkTarget(m[1], m[2]))
		}
		return out
	}
	var out []string
	for _, item := range splitList(v) {
		item = strings.TrimRight(strings.Trim(item, "*_` "), ".")
		if isIDText(item) || recordExt(item) != "" {
			out = append(out, item)
		} else if m := idWithTitle.FindStringSubmatch(item); m != nil {
			out = append(out, m[1]) // "ADR 018: Errors Management"
		} else if m := idWithDate.FindStringSubmatch(item); m != nil {
			out = append(out, m[1]) // "ADR-9 on 2024-05-01"
		} else if m := bracketedID.FindStringSubmatch(item); m != nil {
			out = append(out, m[1]) // "[ADR 9] - with the addition of read models"
		} else if maybePrefixedID(item) && prefixedID.MatchString(item) {
			out = append(out, item) // "DR008", a log's own prefix
		}
	}
	return out
}

// The parts of an ID as records write it: "ADR-", "adr ", "RFC_" (any
// case; optional where the patterns say), then the number, "#" allowed
// before it, a letter after it ("ADR-0004a").
const (
	idPrefix = `(?i:(?:adr|rfc)[-_ ]?)`
	idNumber = `#?\d{1,9}[a-z]?`
)

// idWithTitle is an ID followed by its record's title: "ADR 018: Errors
// Management", "ADR-7 - Use Go".
var idWithTitle = lazyre.New(`^(` + idPrefix + idNumber + `)\s*(?::|\s[-–—])\s+\S`)

// bracketedID is an ID in brackets, a reference-style link, that may be
// followed by prose: "[ADR 9] - with the addition of read models" (a
// list's split may have taken its opening bracket).
var bracketedID = lazyre.New(`^\[?(` + idPrefix + `?` + idNumber + `)\](?:\s|$)`)

// prefixedID is an ID with a prefix other than ADR, as a log numbers its
// records ("DR008", "DDR-12", "ODH-ADR-0003"): a relation's value only,
// where nothing else is expected; Log.Target resolves it by the log's
// own IDs.
var prefixedID = lazyre.New(`^[A-Za-z]{1,8}(?:-[A-Za-z]{1,8})*[-_ ]?\d{1,6}$`)

// maybePrefixedID is the cheap test before prefixedID: an ID ends in a
// digit and holds no path or extension. Every relation of a log is
// resolved on every load, and nearly all are file names.
func maybePrefixedID(s string) bool {
	return s != "" && s[len(s)-1] >= '0' && s[len(s)-1] <= '9' && !strings.ContainsAny(s, "/.")
}

// linkTarget is what a relation's link names: its destination, or, when
// that is no record file, ID or record folder (a documentation site's
// path, Docusaurus's "/adr/7"), the ID its text gives ("ADR 7", "ADR-0007:
// Use X"). A URL is kept as it is.
func linkTarget(text, dest string) string {
	p := linkPath(dest)
	// The cheap tests first: nearly every link names a record file.
	if recordExt(p) != "" || strings.HasSuffix(p, "/") || strings.Contains(dest, "://") || isIDText(dest) {
		return dest
	}
	t := strings.TrimSpace(text)
	if isIDText(t) {
		return t
	}
	if m := idWithTitle.FindStringSubmatch(t); m != nil {
		return m[1]
	}
	return dest
}

// idWithDate is an ID followed by when it took effect: "ADR-9 on
// 2024-05-01", "ADR-9 since March".
var idWithDate = lazyre.New(`^(` + idPrefix + idNumber + `)\s+(?i:on|in|since|as of|from|dated|effective)\s+\S`)

var idText = lazyre.New(`^` + idPrefix + `?` + idNumber + `(?:§\d+|#[\p{L}\p{N}._-]+)?$`)

func isIDText(s string) bool { return idText.MatchString(strings.TrimSpace(s)) }

func stripFragment(s string) string {
	if i := strings.IndexAny(s, "#?"); i >= 0 {
		return s[:i]
	}
	return s
}
