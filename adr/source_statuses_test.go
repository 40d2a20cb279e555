package adr_test

import (
	"errors"
	"fmt"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/git-adr/git-adr/adr"
)

// The statuses line of SOURCE.txt is informal ("Accepted 10 (+ "Accepted."
// 1); Proposed 5 + "Proposed." 5; no Status section 4 (...)"): this file
// reads it tolerantly and compares it with the parsed records.

// matchKind says how a statuses item selects records.
type matchKind int

const (
	matchRaw      matchKind = iota // cleaned RawStatus equals a label (or starts with its prefix before "...")
	matchNone                      // no status at all: StatusField.Kind == FieldNone
	matchEmpty                     // a status field whose raw text is empty
	matchSentence                  // an unknown status written as a sentence
	matchTemplate                  // an unfilled "{A|B}" template placeholder
)

// statusItem is one ";"-separated item of a SOURCE.txt statuses line.
type statusItem struct {
	Kind matchKind
	// Labels are the spellings the item covers (matchRaw), or the template
	// pattern (matchTemplate).
	Labels []string
	Count  int
}

func (it statusItem) String() string {
	switch it.Kind {
	case matchNone:
		return fmt.Sprintf("no status %d", it.Count)
	case matchEmpty:
		return fmt.Sprintf("empty status %d", it.Count)
	case matchSentence:
		return fmt.Sprintf("sentence %d", it.Count)
	case matchTemplate:
		return fmt.Sprintf("template %q %d", it.Labels, it.Count)
	}
	return fmt.Sprintf("%q %d", it.Labels, it.Count)
}

// splitTop splits s at sep outside double quotes and parentheses.
func splitTop(s string, sep byte) ([]string, error) {
	var out []string
	depth, quoted, start := 0, false, 0
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '"':
			quoted = !quoted
		case quoted:
		case c == '(':
			depth++
		case c == ')':
			if depth > 0 {
				depth--
			}
		case c == sep && depth == 0:
			out = append(out, s[start:i])
			start = i + 1
		}
	}
	if quoted {
		return nil, errors.New("unbalanced quote")
	}
	return append(out, s[start:]), nil
}

// token is a word, a "quoted string" or a (parenthesised group).
type token struct {
	text   string // unquoted text, or the group's inside
	quoted bool
	group  bool
}

func tokenize(s string) ([]token, error) {
	var ts []token
	i := 0
	for i < len(s) {
		switch c := s[i]; {
		case c == ' ' || c == '\t':
			i++
		case c == '"':
			j := strings.IndexByte(s[i+1:], '"')
			if j < 0 {
				return nil, fmt.Errorf("unbalanced quote in %q", s)
			}
			ts = append(ts, token{text: s[i+1 : i+1+j], quoted: true})
			i += j + 2
		case c == '(':
			depth, quoted, j := 0, false, i
			for ; j < len(s); j++ {
				if s[j] == '"' {
					quoted = !quoted
				} else if !quoted && s[j] == '(' {
					depth++
				} else if !quoted && s[j] == ')' {
					depth--
					if depth == 0 {
						break
					}
				}
			}
			if j == len(s) {
				// An unclosed group is commentary running to the end.
				ts = append(ts, token{text: s[i+1:], group: true})
				return ts, nil
			}
			ts = append(ts, token{text: s[i+1 : j], group: true})
			i = j + 1
		default:
			j := i
			for j < len(s) && s[j] != ' ' && s[j] != '\t' {
				j++
			}
			ts = append(ts, token{text: s[i:j]})
			i = j
		}
	}
	return ts, nil
}

func isCount(tk token) bool {
	if tk.quoted || tk.group || tk.text == "" {
		return false
	}
	for i := 0; i < len(tk.text); i++ {
		if tk.text[i] < '0' || tk.text[i] > '9' {
			return false
		}
	}
	return true
}

// parseStatusesLine reads the informal statuses line of SOURCE.txt; see
// TestParseStatusesLine for the grammar by example.
func parseStatusesLine(line string) ([]statusItem, error) {
	parts, err := splitTop(line, ';')
	if err != nil {
		return nil, err
	}
	var items []statusItem
	for _, p := range parts {
		if strings.TrimSpace(p) == "" {
			continue
		}
		ts, err := tokenize(p)
		if err != nil {
			return nil, err
		}
		it, _, err := parseItem(ts, true)
		if err != nil {
			return nil, fmt.Errorf("item %q: %w", strings.TrimSpace(p), err)
		}
		items = append(items, it)
	}
	if len(items) == 0 {
		return nil, errors.New("no items")
	}
	return items, nil
}

// parseItem reads LABEL COUNT and any "+ LABEL COUNT" or "(+ LABEL COUNT,
// ...)" continuation; anything else after the count is commentary. It
// returns the tokens it did not use.
func parseItem(ts []token, more bool) (statusItem, []token, error) {
	var it statusItem
	c := -1
	for i, tk := range ts {
		if isCount(tk) {
			c = i
			break
		}
	}
	if c < 0 {
		return it, nil, errors.New("no count")
	}
	if c == 0 {
		return it, nil, errors.New("no label before the count")
	}
	it.Count, _ = strconv.Atoi(ts[c].text)
	if err := it.setLabel(ts[:c]); err != nil {
		return it, nil, err
	}
	rest := ts[c+1:]
	for more && len(rest) > 0 {
		switch {
		case !rest[0].quoted && !rest[0].group && rest[0].text == "+":
			add, r, err := parseItem(rest[1:], false)
			if err != nil {
				return it, nil, fmt.Errorf("after +: %w", err)
			}
			if err := it.merge(add); err != nil {
				return it, nil, err
			}
			rest = r
		case rest[0].group && strings.HasPrefix(strings.TrimSpace(rest[0].text), "+"):
			inner := strings.TrimPrefix(strings.TrimSpace(rest[0].text), "+")
			subs, err := splitTop(inner, ',')
			if err != nil {
				return it, nil, err
			}
			for _, s := range subs {
				sts, err := tokenize(s)
				if err != nil {
					return it, nil, err
				}
				add, _, err := parseItem(sts, false)
				if err != nil {
					return it, nil, fmt.Errorf("in (+ ...): %w", err)
				}
				if err := it.merge(add); err != nil {
					return it, nil, err
				}
			}
			rest = rest[1:]
		default:
			return it, rest, nil // commentary
		}
	}
	return it, rest, nil
}

func (it *statusItem) merge(add statusItem) error {
	if add.Kind != it.Kind {
		return fmt.Errorf("cannot add %v to %v", add, *it)
	}
	it.Labels = append(it.Labels, add.Labels...)
	it.Count += add.Count
	return nil
}

func (it *statusItem) setLabel(ts []token) error {
	if len(ts) == 1 && ts[0].quoted {
		it.Kind, it.Labels = matchRaw, []string{ts[0].text}
		return nil
	}
	var words []string
	var quoted []string
	for _, tk := range ts {
		switch {
		case tk.quoted:
			quoted = append(quoted, tk.text)
		case tk.group:
			return fmt.Errorf("unexpected (%s) in a label", tk.text)
		default:
			words = append(words, tk.text)
		}
	}
	label := strings.Join(words, " ")
	lower := strings.ToLower(label)
	switch {
	case strings.Contains(lower, "template") && len(quoted) > 0:
		if len(quoted) != 1 {
			return fmt.Errorf("template item %q needs one quoted pattern", label)
		}
		it.Kind, it.Labels = matchTemplate, quoted
		return nil
	case len(quoted) > 0:
		return fmt.Errorf("label mixes words %q and quotes %q", label, quoted)
	case strings.HasPrefix(lower, "no status") || strings.HasPrefix(lower, "missing status") || strings.HasPrefix(lower, "without status"):
		it.Kind = matchNone
	case strings.HasPrefix(lower, "empty status"):
		it.Kind = matchEmpty
	case strings.Contains(lower, "sentence") || strings.HasPrefix(lower, "free-text") || strings.HasPrefix(lower, "free text"):
		it.Kind = matchSentence
	default:
		// "In Review./In review" names two spellings; "N/A" is one.
		// "Accepted: 5" is "Accepted 5".
		label = strings.TrimSuffix(label, ":")
		it.Kind, it.Labels = matchRaw, []string{label}
		if strings.Contains(label, "/") {
			it.Labels = append(it.Labels, strings.Split(label, "/")...)
		}
	}
	return nil
}

// cleanRaw is a raw status as SOURCE.txt labels compare to it: without
// "*"/"_" decoration and trailing full stops, lower case.
func cleanRaw(s string) string {
	s = strings.NewReplacer("*", "", "_", "").Replace(s)
	s = strings.TrimRight(strings.TrimSpace(s), ". ")
	return strings.ToLower(strings.Join(strings.Fields(s), " "))
}

func (it statusItem) matches(r *adr.Record) bool {
	raw := r.RawStatus
	switch it.Kind {
	case matchNone:
		return r.StatusField.Kind == adr.FieldNone
	case matchEmpty:
		return r.StatusField.Kind != adr.FieldNone && strings.TrimSpace(raw) == ""
	case matchSentence:
		return r.Status == adr.Unknown && !isTemplate(raw) && len(strings.Fields(raw)) >= 4
	case matchTemplate:
		got := squeeze(raw)
		for _, v := range templateVariants(it.Labels[0]) {
			if got == squeeze(v) {
				return true
			}
		}
		return false
	}
	if strings.TrimSpace(raw) == "" {
		return false
	}
	c := cleanRaw(raw)
	// "superseded 1" counts "superseded by [X](x.md)": the label names the
	// status word and the link is the relation.
	word := cleanRaw(byLink.ReplaceAllString(raw, ""))
	for _, l := range it.Labels {
		if pre, _, elided := strings.Cut(l, "..."); elided {
			p := strings.ToLower(strings.NewReplacer("*", "", "_", "").Replace(strings.TrimSpace(pre)))
			if p != "" && strings.HasPrefix(c, p) {
				return true
			}
			continue
		}
		if c == cleanRaw(l) || word == cleanRaw(l) {
			return true
		}
	}
	return false
}

var byLink = regexp.MustCompile(`(?i)\s+by\s+\[[^\]]*\]\([^)]*\)\s*$`)

func isTemplate(raw string) bool {
	s := strings.TrimSpace(raw)
	return strings.HasPrefix(s, "{") && strings.HasSuffix(s, "}") && strings.Contains(s, "|")
}

func squeeze(s string) string {
	return strings.ToLower(strings.Join(strings.Fields(s), ""))
}

// templateVariants expands optional "[...]" groups: "{A|B[|C]}" is "{A|B|C}"
// or "{A|B}".
func templateVariants(p string) []string {
	i := strings.IndexByte(p, '[')
	if i < 0 {
		return []string{p}
	}
	j := strings.IndexByte(p[i:], ']')
	if j < 0 {
		return []string{p}
	}
	j += i
	var out []string
	for _, rest := range templateVariants(p[j+1:]) {
		out = append(out, p[:i]+p[i+1:j]+rest, p[:i]+rest)
	}
	return out
}

// checkStatuses compares each item's count with the records it matches.
// Items that match the same records ("PROPOSED 12; Proposed 4" once case is
// ignored) are compared as one group, against the sum of their counts.
func checkStatuses(t *testing.T, recs []*adr.Record, items []statusItem) {
	t.Helper()
	total := 0
	for _, it := range items {
		total += it.Count
	}
	if total != len(recs) {
		t.Errorf("statuses line counts %d records, Load found %d", total, len(recs))
	}
	group := make([]int, len(items))
	for i := range group {
		group[i] = i
	}
	find := func(i int) int {
		for group[i] != i {
			i = group[i]
		}
		return i
	}
	matched := make([][]int, len(recs))
	for ri, r := range recs {
		for ii, it := range items {
			if it.matches(r) {
				matched[ri] = append(matched[ri], ii)
			}
		}
		for _, ii := range matched[ri][min(1, len(matched[ri])):] {
			group[find(ii)] = find(matched[ri][0])
		}
		if len(matched[ri]) == 0 {
			t.Errorf("%s: raw status %q (field %q, status %s) matches no item of the statuses line", r.Path, r.RawStatus, r.StatusField.Kind, r.Status)
		}
	}
	want := map[int]int{}
	names := map[int][]string{}
	for ii, it := range items {
		g := find(ii)
		want[g] += it.Count
		names[g] = append(names[g], it.String())
	}
	got := map[int]int{}
	examples := map[int][]string{}
	for ri, r := range recs {
		if len(matched[ri]) > 0 {
			g := find(matched[ri][0])
			got[g]++
			examples[g] = append(examples[g], fmt.Sprintf("%s=%q", r.ID, r.RawStatus))
		}
	}
	keys := make([]int, 0, len(want))
	for g := range want {
		keys = append(keys, g)
	}
	sort.Ints(keys)
	for _, g := range keys {
		if got[g] != want[g] {
			t.Errorf("statuses %s: %d records match, want %d: %s", strings.Join(names[g], " + "), got[g], want[g], strings.Join(examples[g], ", "))
		}
	}
}

func TestParseStatusesLine(t *testing.T) {
	raw := func(count int, labels ...string) statusItem {
		return statusItem{Kind: matchRaw, Labels: labels, Count: count}
	}
	tests := []struct {
		line string
		want []statusItem
	}{
		{`Accepté 4; Proposé 1; Obsolète 1 (= deprecated/obsolete)`,
			[]statusItem{raw(4, "Accepté"), raw(1, "Proposé"), raw(1, "Obsolète")}},
		{"no status field 18; \"on hold\" 1 (front matter, 0003). Note: 0008 and 0013 contain \"status: ...\" only inside fenced ```markdown example blocks, which are not the record's status.",
			[]statusItem{{Kind: matchNone, Count: 18}, raw(1, "on hold")}},
		{`Accepted 28; Pending 6; Proposed 1; Approved 1; "Superseded by [DNS Infrastructure](0015-dns-infrastructure.md)" 1; "Partly superseded" 1`,
			[]statusItem{raw(28, "Accepted"), raw(6, "Pending"), raw(1, "Proposed"), raw(1, "Approved"),
				raw(1, "Superseded by [DNS Infrastructure](0015-dns-infrastructure.md)"), raw(1, "Partly superseded")}},
		{`PROPOSED 12; Proposed 4; Accepted 1 (case varies)`,
			[]statusItem{raw(12, "PROPOSED"), raw(4, "Proposed"), raw(1, "Accepted")}},
		{`Implemented 24; Approved 14; Partially Implemented 7; Proposed 4; Deprecated 3`,
			[]statusItem{raw(24, "Implemented"), raw(14, "Approved"), raw(7, "Partially Implemented"), raw(4, "Proposed"), raw(3, "Deprecated")}},
		{`Accepted 9`, []statusItem{raw(9, "Accepted")}},
		{`Implemented 32; Accepted 10 (+ "Accepted." 1, "**Accepted**" 1); Proposed 5 + "Proposed." 5; Draft. 2; In Review./In review 2; Approved. 1; Pending 1; Partially Accepted 1; "Partially implemented ([#5670](...))" 1; "Implemented (moved to cosmos-sdk)" 1; Rejected 1; Declined 1; unfilled template "{Deprecated|Proposed|Accepted[|Declined]}" 3; empty Status section 1; free-text sentence 1 (adr-035); no Status section 4 (adr-008, 016, 017, 022)`,
			[]statusItem{raw(32, "Implemented"), raw(12, "Accepted", "Accepted.", "**Accepted**"), raw(10, "Proposed", "Proposed."),
				raw(2, "Draft."), raw(2, "In Review./In review", "In Review.", "In review"), raw(1, "Approved."), raw(1, "Pending"),
				raw(1, "Partially Accepted"), raw(1, "Partially implemented ([#5670](...))"), raw(1, "Implemented (moved to cosmos-sdk)"),
				raw(1, "Rejected"), raw(1, "Declined"),
				{Kind: matchTemplate, Labels: []string{"{Deprecated|Proposed|Accepted[|Declined]}"}, Count: 3},
				{Kind: matchEmpty, Count: 1}, {Kind: matchSentence, Count: 1}, {Kind: matchNone, Count: 4}}},
		{`accepted 11; superseded 1`, []statusItem{raw(11, "accepted"), raw(1, "superseded")}},
		{`N/A 2; "Accepted" 1`, []statusItem{raw(2, "N/A", "N", "A"), raw(1, "Accepted")}},
		{`Accepted: 3; missing status 1; template placeholder "{A|B}" 2`,
			[]statusItem{raw(3, "Accepted"), {Kind: matchNone, Count: 1}, {Kind: matchTemplate, Labels: []string{"{A|B}"}, Count: 2}}},
	}
	for _, tt := range tests {
		got, err := parseStatusesLine(tt.line)
		if err != nil {
			t.Errorf("parseStatusesLine(%q): %v", tt.line, err)
			continue
		}
		if fmt.Sprint(got) != fmt.Sprint(tt.want) {
			t.Errorf("parseStatusesLine(%q)\n got %v\nwant %v", tt.line, got, tt.want)
		}
	}
	for _, bad := range []string{``, `Accepted`, `"Accepted 3`, `12`, `"a" "b" 3`} {
		if got, err := parseStatusesLine(bad); err == nil {
			t.Errorf("parseStatusesLine(%q) = %v, want an error", bad, got)
		}
	}
}

// TestParseStatusesLineCorpora parses the statuses line of every corpus
// present, so a new SOURCE.txt with an unreadable line fails here first.
func TestParseStatusesLineCorpora(t *testing.T) {
	_, dirs := corpusDirs(t)
	for _, d := range dirs {
		f := filepath.Join(d, "SOURCE.txt")
		src, err := readSource(f)
		if err != nil {
			t.Error(err)
			continue
		}
		if _, err := parseStatusesLine(src.statuses); err != nil {
			t.Errorf("%s: cannot parse statuses line %q: %v", f, src.statuses, err)
		}
		if _, err := parseLinkClaims(src.links); err != nil {
			t.Errorf("%s: cannot parse supersession/links line %q: %v", f, src.links, err)
		}
	}
}

func TestTemplateVariants(t *testing.T) {
	got := templateVariants("{A|B[|C]}")
	want := []string{"{A|B|C}", "{A|B}"}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("templateVariants = %q, want %q", got, want)
	}
	if got := templateVariants("{A[|B]|C[|D]}"); len(got) != 4 {
		t.Errorf("two optional groups give %q, want 4 variants", got)
	}
}
