package evidence

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/git-adr/git-adr/adr"
	"github.com/tiktoken-go/tokenizer"
)

// part is a piece of a unit: whole lines (or one piece of an overlong
// line), 1-based inclusive line numbers.
type part struct {
	text       string
	start, end int
}

// splitUnit cuts a unit's text into parts of at most limit code points at
// line boundaries; a single line longer than limit is cut at rune
// boundaries into several parts of that line. Trailing blank lines are not
// part of a unit's evidence. The cut depends only on the text and limit,
// so a part's identity ("[2/3]") is stable across pages.
func splitUnit(r *adr.Record, u adr.Unit, limit int) []part {
	t := r.Text()
	first, last := u.Start-1, min(u.End, len(t.Lines))-1
	for last > first && strings.TrimSpace(t.LineText(last)) == "" {
		last--
	}
	var parts []part
	var cur strings.Builder
	curStart, curLen := first+1, 0
	flush := func(end int) {
		if cur.Len() > 0 {
			parts = append(parts, part{text: cur.String(), start: curStart, end: end})
			cur.Reset()
			curLen = 0
		}
	}
	for i := first; i <= last; i++ {
		line := t.LineText(i) + "\n"
		n := utf8.RuneCountInString(line)
		if n > limit {
			flush(i)
			rs := []rune(line)
			for off := 0; off < len(rs); off += limit {
				parts = append(parts, part{text: string(rs[off:min(off+limit, len(rs))]), start: i + 1, end: i + 1})
			}
			curStart = i + 2
			continue
		}
		if curLen+n > limit {
			flush(i)
			curStart = i + 1
		}
		if cur.Len() == 0 {
			curStart = i + 1
		}
		cur.WriteString(line)
		curLen += n
	}
	flush(last + 1)
	if len(parts) == 0 {
		parts = append(parts, part{text: "", start: u.Start, end: u.Start})
	}
	return parts
}

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
	parts := splitUnit(r, u, limit)
	mk := func(id, kind string, p part) Unit {
		return Unit{ID: id, Path: r.Path, Lines: [2]int{p.start, p.end}, Status: status, Kind: kind,
			Title: shortTitle(title), Role: it.role, Text: p.text}
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

// partLimit is the largest part of a unit: a task response wants many
// records in one page, an ID response the record whole.
func partLimit(req Request) int {
	overhead := 1500
	if req.Selector() == "task" {
		return max(300, (req.MaxChars-overhead)/max(req.MaxUnits, 1)-250)
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
	if f != CompactJSON {
		enc.SetIndent("", "  ")
	}
	enc.SetEscapeHTML(false)
	if err := enc.Encode(resp); err != nil {
		panic(err) // a Response always encodes
	}
	return b.Bytes()
}

var (
	encOnce sync.Once
	enc     tokenizer.Codec
	encErr  error
)

func loadEncoder() { enc, encErr = tokenizer.Get(tokenizer.O200kBase) }

// PrepareTokens starts building the o200k_base vocabulary (some 30 ms of
// one core, a map of 200,000 tokens) in the background, for a caller
// that will count tokens once it has done other work.
func PrepareTokens() { go encOnce.Do(loadEncoder) }

// tokensO200k counts o200k_base tokens; -1 when the encoder is unavailable.
func tokensO200k(b []byte) int {
	encOnce.Do(loadEncoder)
	if encErr != nil {
		return -1
	}
	n, err := enc.Count(string(b))
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
