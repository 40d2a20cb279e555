package evidence

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"sync/atomic"
	"unicode/utf8"

	"github.com/git-adr/git-adr/adr"
	"github.com/git-adr/git-adr/internal/jsoncost"
	"github.com/git-adr/git-adr/internal/o200k"
)

// part is a piece of a unit: whole lines (or one piece of an overlong
// line), 1-based inclusive line numbers.
type part struct {
	text       string
	start, end int
}

// splitUnit cuts a unit's text into parts of at most limit code points at
// line boundaries; a single line longer than limit is cut at rune
// boundaries into several parts of that line. A part is also at most
// wireLimit(limit) code points as the costliest transport sends it
// (sentCost), so that one part and its envelope fit any budget partLimit
// makes limit for, however much escaping multiplies the text. Trailing
// blank lines are not part of a unit's evidence. The cut depends only on
// the text and limit, so a part's identity ("[2/3]") is stable across
// pages and formats.
func splitUnit(r *adr.Record, u adr.Unit, limit int) []part {
	t := r.Text()
	first, last := u.Start-1, min(u.End, len(t.Lines))-1
	for last > first && strings.TrimSpace(t.LineText(last)) == "" {
		last--
	}
	wire := wireLimit(limit)
	var parts []part
	var cur strings.Builder
	curStart, curLen, curCost := first+1, 0, 0
	flush := func(end int) {
		if cur.Len() > 0 {
			parts = append(parts, part{text: cur.String(), start: curStart, end: end})
			cur.Reset()
			curLen, curCost = 0, 0
		}
	}
	for i := first; i <= last; i++ {
		line := t.LineText(i) + "\n"
		n, c := utf8.RuneCountInString(line), sentCost(line)
		if n > limit || c > wire {
			flush(i)
			for _, piece := range cutLine(line, limit, wire) {
				parts = append(parts, part{text: piece, start: i + 1, end: i + 1})
			}
			curStart = i + 2
			continue
		}
		if curLen+n > limit || curCost+c > wire {
			flush(i)
			curStart = i + 1
		}
		if cur.Len() == 0 {
			curStart = i + 1
		}
		cur.WriteString(line)
		curLen += n
		curCost += c
	}
	flush(last + 1)
	if len(parts) == 0 {
		parts = append(parts, part{text: "", start: u.Start, end: u.Start})
	}
	return parts
}

// wireLimit bounds a part as sent (sentCost): twice its limit in code
// points. Text escaping doubles at most (prose, JSON examples) is cut
// exactly as before; text made of quotes, backslashes, control
// characters or U+2028, which escaping multiplies up to seven times, is
// cut into more parts, each leaving the page room for its envelope.
func wireLimit(limit int) int { return 2 * limit }

// cutLine cuts one line longer than limit code points, or costing more
// than wire as sent, at rune boundaries into pieces within both.
func cutLine(line string, limit, wire int) []string {
	var pieces []string
	start, n, c := 0, 0, 0
	for i, r := range line {
		rc := runeSentCost(r, line[i:])
		if n > 0 && (n+1 > limit || c+rc > wire) {
			pieces = append(pieces, line[start:i])
			start, n, c = i, 0, 0
		}
		n++
		c += rc
	}
	return append(pieces, line[start:])
}

// sentCost counts text as the costliest transport sends it: escaped twice
// as a JSON string, as in an MCP tool result whose text is JSON
// (jsoncost.String(text, 2), computed rune by rune).
func sentCost(text string) int {
	c := 0
	for i, r := range text {
		c += runeSentCost(r, text[i:])
	}
	return c
}

// runeSentCost is the sentCost of r, the rune rest starts with.
func runeSentCost(r rune, rest string) int {
	switch {
	case r < utf8.RuneSelf:
		return asciiSentCost[r]
	case r == '\u2028' || r == '\u2029':
		return 7 // \\u2028
	case r == utf8.RuneError && !strings.HasPrefix(rest, "\uFFFD"):
		return 7 // an invalid byte, sent as \\ufffd
	}
	return 1
}

// asciiSentCost is the sentCost of each ASCII character, as the JSON
// encoder escapes it (\" \\ \n \t, \u0001 for other control characters).
var asciiSentCost = func() (t [utf8.RuneSelf]int) {
	for i := range t {
		t[i] = jsoncost.String(string(rune(i)), 2)
	}
	return t
}()

// unitsOf renders an item as the units it contributes: the whole unit, or
// its parts when it is longer than limit, or the one part a task chose.
func unitsOf(it item, limit int) []Unit {
	if it.limit > 0 {
		limit = it.limit
	}
	if it.mem != nil {
		return []Unit{memoryUnit(it)}
	}
	if it.src != nil {
		x := it.src
		return []Unit{{
			ID: fmt.Sprintf("%s#L%d-L%d", x.Path, x.Start, x.End), Path: x.Path, Lines: [2]int{x.Start, x.End},
			Kind: "source", Role: it.role, Text: x.Text,
		}}
	}
	r, u := it.rec, it.unit
	status := string(r.Status)
	if u.Status != "" {
		status = string(u.Status)
	}
	whole, partKind, title := "decision", "excerpt", r.Title
	if it.view != nil {
		whole, partKind, status, title = KindCurrent, KindCurrent, StatusDerived, it.view.Title
	}
	if w := it.win; w != nil {
		kind := partKind
		if w.whole {
			kind = whole
		}
		return []Unit{{ID: u.ID, Path: r.Path, Lines: [2]int{w.start, w.end}, Status: status, Kind: kind,
			Title: shortTitle(title), Role: shortRole(it.role), Text: w.text}}
	}
	parts := splitUnit(r, u, limit)
	mk := func(id, kind string, p part) Unit {
		return Unit{ID: id, Path: r.Path, Lines: [2]int{p.start, p.end}, Status: status, Kind: kind,
			Title: shortTitle(title), Role: shortRole(it.role), Text: p.text}
	}
	if len(parts) == 1 {
		return []Unit{mk(u.ID, whole, parts[0])}
	}
	label := func(i int) string { return fmt.Sprintf("%s[%d/%d]", u.ID, i+1, len(parts)) }
	if it.part > 0 && it.part <= len(parts) {
		return []Unit{mk(label(it.part-1), partKind, parts[it.part-1])}
	}
	out := make([]Unit, len(parts))
	for i, p := range parts {
		out[i] = mk(label(i), partKind, p)
	}
	return out
}

// shortRole bounds a unit's role as titles are bounded (maxTitle): a
// dependency's role quotes the label of the link it came by ("dependency
// (amends ADR-0007)"), which a record may make of any length. The middle
// is cut, so that the record the role names stays at its end.
func shortRole(role string) string {
	rs := []rune(role)
	if len(rs) <= maxTitle {
		return role
	}
	const tail = 40
	return string(rs[:maxTitle-tail-1]) + "…" + string(rs[len(rs)-tail:])
}

// partLimit is the largest part of a unit: a task response wants many
// records in one page, an ID response the record whole. A part may cost
// twice its limit as sent (wireLimit), so a task response of one unit
// takes parts as one of two does: the part then still fits the page.
func partLimit(req Request) int {
	overhead := 1500
	if req.Selector() == "task" {
		return max(300, (req.MaxChars-overhead)/max(req.MaxUnits, 2)-250)
	}
	return max(300, (req.MaxChars-overhead)/3)
}

// render prints a response in a format.
func render(resp *Response, f Format) []byte {
	if f == Text {
		return renderText(resp)
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	if f == PrettyJSON {
		enc.SetIndent("", "  ")
	}
	enc.SetEscapeHTML(false)
	if err := enc.Encode(resp); err != nil {
		panic(err) // a Response always encodes
	}
	return b.Bytes()
}

// encBuilt reports whether this process read the tokenizer's
// vocabulary (tests).
var encBuilt atomic.Bool

// PrepareTokens starts reading the o200k_base vocabulary (internal/o200k)
// in the background, for a caller that will count tokens once it has done
// other work.
func PrepareTokens() {
	encBuilt.Store(true)
	o200k.Prepare()
}

// tokensO200k counts o200k_base tokens; -1 when the encoder is unavailable.
func tokensO200k(b []byte) int {
	encBuilt.Store(true)
	n, err := o200k.Count(string(b))
	if err != nil {
		return -1
	}
	return n
}

// measure fills Size for the response as rendered, iterating until the
// figures describe the output that contains them; count counts tokens.
func measure(resp *Response, f Format, count func([]byte) int) []byte {
	var out []byte
	for i := 0; i < 4; i++ {
		out = render(resp, f)
		s := Size{Bytes: len(out), CodePoints: utf8.RuneCount(out), TokensO200k: count(out),
			MaxCodePoints: resp.Size.MaxCodePoints, MaxUnits: resp.Size.MaxUnits}
		if s == resp.Size {
			return out
		}
		resp.Size = s
	}
	return render(resp, f)
}

// placeholderSize reserves room for the final figures while packing.
func placeholderSize(resp *Response) {
	resp.Size.Bytes, resp.Size.CodePoints, resp.Size.TokensO200k = 9999999, 9999999, 9999999
}

func codePoints(b []byte) int { return utf8.RuneCount(b) }

// TokensO200k counts the OpenAI o200k_base tokens of a text (-1 when the
// encoder is unavailable), for other commands that report volumes.
func TokensO200k(s string) int { return tokensO200k([]byte(s)) }
