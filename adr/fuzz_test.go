package adr

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"
)

// Fuzz targets for every parser. Seed inputs live in
// testdata/fuzz/<FuzzName>/, so plain `go test` runs them; the real ADR
// corpora, when present, seed FuzzParse too (they are never copied here).

func FuzzNewText(f *testing.F) {
	f.Add([]byte("# 1. T\r\n\r\nbody"))
	f.Fuzz(func(t *testing.T, data []byte) {
		x := NewText(data)
		if got := rebuild(x); !bytes.Equal(got, data) {
			t.Fatalf("lines rebuild %q, want %q", got, data)
		}
		if got := x.Apply(); !bytes.Equal(got, data) {
			t.Fatalf("Apply() = %q", got)
		}
		pos := 0
		if x.BOM {
			pos = 3
		}
		for i, l := range x.Lines {
			if l.Start != pos || l.Start > l.End || l.End > l.Next || l.Next > len(data) {
				t.Fatalf("line %d: %+v after %d in %d bytes", i, l, pos, len(data))
			}
			if bytes.IndexByte(data[l.Start:l.End], '\n') >= 0 {
				t.Fatalf("line %d holds a newline", i)
			}
			if e := string(data[l.End:l.Next]); e != "\n" && e != "\r\n" && !(e == "" && i == len(x.Lines)-1) {
				t.Fatalf("line %d ends with %q", i, e)
			}
			if l.Kind > LineFrontMatter {
				t.Fatalf("line %d kind %d", i, l.Kind)
			}
			_ = x.LineEOL(i)
			pos = l.Next
		}
		if x.EOL != "\n" && x.EOL != "\r\n" {
			t.Fatalf("EOL %q", x.EOL)
		}
		for _, h := range x.Headings() {
			if h.Line < 0 || h.Line >= len(x.Lines) || h.Level < 1 || h.Level > 6 {
				t.Fatalf("heading %+v", h)
			}
		}
		_ = x.ValidUTF8()
	})
}

func FuzzParse(f *testing.F) {
	f.Add([]byte(lines("# 1. T", "", "## Status", "", "Accepted", "", "## Decision", "", "x")))
	// Forms seen in public logs (issue 9).
	for _, seed := range []string{
		lines("# 4. Old", "", "## Status", "", "⌛️ Superseded by [7. New](0007-new.md)", "", "## Context"),
		lines("# 4. Old", "", "## Status", "", "⌛ Superseded [0019](0019-x.md)"),
		lines("# E", "## Change Log", "- [approved](https://x/pull/1) (2022-07-12)", "- [revised](https://x/2) - pending (2023-04-17)", "  - more", "", "## Context"),
		lines("# E", "## History", "<!--", "- [approved](URL) (2022-04-01)", "-->", "- superseded by [5. X](0005-x.md) (2026-12-01): why"),
		lines("# 1. A", "", "## Status", "", "> Accepted", "", "## Context"),
		lines("---", "status: accepted; supersedes ADR-0012", "---", "# New"),
		lines("# N", "", "- Status: Proposed (amends ADR-3; relates to [4. D, E](0004-d.md))"),
		lines("# 8. T", "", "## 8.1 Statut", "", "Accepté", "", "## Metadata", "", "### Status", "", "Rejected"),
		lines("# 29 Use Kafka", "", "## Status", "", "## Status", "", "Accepted"),
		lines("# ADR-29: T", "", "## Metadata", "", "- Status: Accepted", "", "## More Information", "", "* Source: [https://x/y.md](https://x/y.md)"),
		lines("---", "status: active", "---", "# T", "", "## Status", "", "Rejected"),
		"# 5. Only a title",
	} {
		f.Add([]byte(seed))
	}
	if dir := findCorpora(); dir != "" {
		filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
			if err == nil && !d.IsDir() && strings.HasSuffix(p, ".md") {
				if data, err := os.ReadFile(p); err == nil {
					f.Add(data)
				}
			}
			return nil
		})
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		r := Parse(data)
		checkRecord(t, r, data)
		// Line endings and a byte order mark change nothing but offsets.
		if !bytes.ContainsRune(data, '\r') {
			crlf := bytes.ReplaceAll(data, []byte("\n"), []byte("\r\n"))
			if a, b := summary(r), summary(Parse(crlf)); a != b {
				t.Fatalf("CRLF changed the record:\n LF  %s\nCRLF %s", a, b)
			}
		}
		if !bytes.HasPrefix(data, []byte("\xef\xbb\xbf")) {
			if a, b := summary(r), summary(Parse(append([]byte("\xef\xbb\xbf"), data...))); a != b {
				t.Fatalf("a BOM changed the record:\n    %s\nBOM %s", a, b)
			}
		}
	})
}

// summary is what a record says, without byte offsets.
func summary(r *Record) string {
	var b strings.Builder
	fmt.Fprintf(&b, "title=%q/%q/%d status=%q/%q field=%s@%d date=%q domains=%q style=%s rels=[%s] problems=%q units=",
		r.RawTitle, r.Title, r.TitleNumber, r.RawStatus, r.Status, r.StatusField.Kind, r.StatusField.Line, r.Date, r.Domains, r.Style, relString(r.Relations), r.Problems)
	for _, u := range r.Units() {
		fmt.Fprintf(&b, "[%s %q %d-%d %s %q %s]", u.Anchor, u.Heading, u.Start, u.End, u.Hash[:8], u.RawStatus, u.Status)
	}
	return b.String()
}

// checkRecord asserts what holds for any parsed record.
func checkRecord(t *testing.T, r *Record, data []byte) {
	t.Helper()
	if !bytes.Equal(r.Text().Src, data) || !bytes.Equal(r.Text().Apply(), data) {
		t.Fatalf("no-edit round trip changed the input")
	}
	n := len(r.Text().Lines)
	f := r.StatusField
	if f.Start < 0 || f.Start > f.End || f.End > len(data) {
		t.Fatalf("status field [%d, %d) in %d bytes", f.Start, f.End, len(data))
	}
	if f.WordEnd > f.WordStart && (f.WordStart < f.Start || f.WordEnd > f.End) {
		t.Fatalf("status words [%d, %d) outside the field [%d, %d)", f.WordStart, f.WordEnd, f.Start, f.End)
	}
	if f.Kind == FieldLine || f.Kind == FieldTable || f.Kind == FieldSection {
		// The range is what an edit replaces: it must hold the raw status.
		span := string(data[f.Start:f.End])
		if strings.Join(strings.Fields(span), " ") != strings.Join(strings.Fields(r.RawStatus), " ") {
			t.Fatalf("%s status field spans %q, raw status is %q", f.Kind, span, r.RawStatus)
		}
	}
	if f.Kind != FieldNone {
		if f.Line < 0 || f.Line >= n {
			t.Fatalf("status field line %d of %d", f.Line, n)
		}
		if r.Status != NormalizeStatus(r.RawStatus) {
			t.Fatalf("status %q for raw %q", r.Status, r.RawStatus)
		}
	} else if r.Status != Unknown || r.RawStatus != "" {
		t.Fatalf("no status field but status %q raw %q", r.Status, r.RawStatus)
	}
	if !slices.Contains(Statuses, r.Status) {
		t.Fatalf("status %q", r.Status)
	}
	for _, rel := range r.Relations {
		if rel.Line < 1 || rel.Line > n || rel.Target == "" || rel.Type == "" {
			t.Fatalf("relation %+v in %d lines", rel, n)
		}
	}
	seen := map[string]bool{}
	for i, u := range r.Units() {
		if u.Start < 1 || u.Start > u.End || u.End > n {
			t.Fatalf("unit %q lines %d-%d of %d", u.Anchor, u.Start, u.End, n)
		}
		if u.Anchor == "" || seen[strings.ToLower(u.Anchor)] {
			t.Fatalf("unit anchor %q empty or repeated: %+v", u.Anchor, r.Units())
		}
		seen[strings.ToLower(u.Anchor)] = true
		// Excerpt looks units up one by one: check a sample of a huge
		// record, or the check itself goes quadratic.
		if len(r.Units()) > 64 && i%(len(r.Units())/32) != 0 && i != len(r.Units())-1 {
			continue
		}
		got, text, ok := r.Excerpt(u.Anchor)
		if !ok || got.Start != u.Start || got.End != u.End || got.Hash != u.Hash {
			t.Fatalf("Excerpt(%q) = %+v, %v; want unit %+v", u.Anchor, got, ok, u)
		}
		if strings.Count(text, "\n") != u.End-u.Start+1 {
			t.Fatalf("Excerpt(%q) text has %d lines, want %d", u.Anchor, strings.Count(text, "\n"), u.End-u.Start+1)
		}
		for k := 1; k <= 64; k++ {
			b, _, ok := r.Excerpt(u.Anchor + "." + strconv.Itoa(k))
			if !ok {
				break
			}
			if b.Start < u.Start || b.Start > b.End || b.End > u.End {
				t.Fatalf("Excerpt(%s.%d) lines %d-%d outside unit %d-%d", u.Anchor, k, b.Start, b.End, u.Start, u.End)
			}
		}
	}
}

func FuzzParseConfig(f *testing.F) {
	f.Add([]byte("[[roots]]\npath = \"docs/adr\"\n"))
	f.Add([]byte("index_file = \"ADR-INDEX.md\"\n[check]\nrequire_status = true\n[[roots]]\npath = \"a\"\nindex_file = \"x/y.md\"\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		c, err := ParseConfig(data)
		if err != nil {
			var ce *ConfigError
			if !errors.As(err, &ce) || !strings.HasPrefix(err.Error(), ConfigFile) {
				t.Fatalf("error %v is not a *ConfigError naming the file", err)
			}
			return
		}
		if _, ok := ParseStyle(c.Style); c.Style != "" && !ok {
			t.Fatalf("style %q accepted", c.Style)
		}
		for _, name := range append([]string{c.IndexFile}, func() (ns []string) {
			for _, r := range c.Roots {
				ns = append(ns, r.IndexFile)
			}
			return ns
		}()...) {
			if name != "" && (strings.ContainsAny(name, "/\\") || recordExt(name) == "") {
				t.Fatalf("index_file %q accepted", name)
			}
		}
		for _, r := range c.Roots {
			p := cleanRel(r.Path)
			if r.Path == "" || p == ".." || strings.HasPrefix(p, "../") || strings.HasPrefix(r.Path, "/") || r.Digits < 0 || r.Digits > 9 {
				t.Fatalf("root %+v accepted", r)
			}
		}
	})
}

func FuzzParseFileName(f *testing.F) {
	for _, seed := range []string{"0001-x.md", "0004a-inserted.md", "2026-01-partial-date.md", "ADRXXX-title.md", "ADR019-IO.md"} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, name string) {
		fn := parseFileName(name)
		if fn.Stem+fn.Ext != name {
			t.Fatalf("stem %q + ext %q != %q", fn.Stem, fn.Ext, name)
		}
		if fn.Suffix != "" && (!fn.Numbered || len(fn.Suffix) != 1) {
			t.Fatalf("suffix %q on %+v", fn.Suffix, fn)
		}
		if fn.Numbered {
			if fn.Lead+fn.Digits+fn.Suffix+fn.Sep+fn.Slug+fn.Ext != name {
				t.Fatalf("%+v does not rebuild %q", fn, name)
			}
			if n, err := strconv.Atoi(fn.Digits); err != nil || n != fn.Number || fn.Ext == "" {
				t.Fatalf("%+v", fn)
			}
			if isDatePrefix(fn.Digits) {
				t.Fatalf("a date prefix taken as a number: %+v", fn)
			}
		}
		if isRecordFileName(name) && fn.Ext == "" {
			t.Fatalf("%q is a record name without a record extension", name)
		}
	})
}

func FuzzNormalizeStatus(f *testing.F) {
	f.Add("Accepted")
	f.Add("⌛️ Superseded by [7. X](0007-x.md)")
	f.Add("✅ **Accepted**")
	f.Fuzz(func(t *testing.T, raw string) {
		s := NormalizeStatus(raw)
		if !slices.Contains(Statuses, s) {
			t.Fatalf("NormalizeStatus(%q) = %q", raw, s)
		}
		for range 3 {
			if again := NormalizeStatus(raw); again != s {
				t.Fatalf("NormalizeStatus(%q) is not deterministic: %q then %q", raw, s, again)
			}
		}
		if got := NormalizeStatus(raw + "."); got != s {
			t.Fatalf("a trailing full stop changed %q from %q to %q", raw, s, got)
		}
		if isASCII(raw) {
			if got := NormalizeStatus(strings.ToUpper(raw)); got != s {
				t.Fatalf("case changed %q from %q to %q", raw, s, got)
			}
		}
	})
}

func FuzzCleanTitle(f *testing.F) {
	f.Add("ADR 035: Documentation")
	f.Fuzz(func(t *testing.T, raw string) {
		title, num := cleanTitle(raw)
		s := unwrapEmphasis(strings.TrimSpace(raw))
		if !strings.HasSuffix(s, title) || strings.TrimSpace(title) != title {
			t.Fatalf("cleanTitle(%q) = %q: not a trimmed tail of the heading", raw, title)
		}
		if s != "" && title == "" {
			t.Fatalf("cleanTitle(%q) stripped everything", raw)
		}
		if num < -1 || num >= 0 && title == s {
			t.Fatalf("cleanTitle(%q) = %q, %d", raw, title, num)
		}
	})
}

func FuzzSplitLocator(f *testing.F) {
	f.Add("ADR-0012#decision.2")
	l := resolveLog(f)
	f.Fuzz(func(t *testing.T, ref string) {
		rec, anchor := SplitLocator(ref)
		switch {
		case strings.HasPrefix(anchor, "§"):
			if rec+anchor != ref {
				t.Fatalf("SplitLocator(%q) = %q, %q", ref, rec, anchor)
			}
		case rec != ref && rec+"#"+anchor != ref:
			t.Fatalf("SplitLocator(%q) = %q, %q", ref, rec, anchor)
		}
		if !utf8.ValidString(ref) {
			return
		}
		r, err := l.Resolve(ref)
		var amb *AmbiguousError
		switch {
		case err == nil:
			if r == nil || !slices.Contains(l.Records, r) {
				t.Fatalf("Resolve(%q) = %v", ref, r)
			}
			// The anchor plays no part, unless the record part holds
			// another locator ("a#b§c").
			if r2, err := l.Resolve(rec); !strings.ContainsAny(rec, "#§") && (err != nil || r2 != r) {
				t.Fatalf("Resolve(%q) = %v but Resolve(%q) = %v, %v", ref, r.Path, rec, r2, err)
			}
		case IsNotFound(err), errors.As(err, &amb):
			if r != nil {
				t.Fatalf("Resolve(%q) returned a record and an error", ref)
			}
		default:
			t.Fatalf("Resolve(%q): unexpected error %v", ref, err)
		}
		for _, from := range l.Records {
			_ = l.Target(from, ref)
		}
	})
}

// findCorpora is corporaDir without a test to skip: "" when absent.
func findCorpora() string {
	if d := os.Getenv("GIT_ADR_CORPORA"); d != "" {
		return d
	}
	wd, err := os.Getwd()
	if err != nil {
		return ""
	}
	for dir := wd; ; dir = filepath.Dir(dir) {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			d := filepath.Join(dir, "..", "shared", "corpora")
			if fi, err := os.Stat(d); err == nil && fi.IsDir() {
				return d
			}
			return ""
		}
		if filepath.Dir(dir) == dir {
			return ""
		}
	}
}

// FuzzParseCacheEntry: a parse cache entry decodes from any bytes without
// panicking, and a record parsed from any text comes back from its entry
// as it was (its text facts included).
func FuzzParseCacheEntry(f *testing.F) {
	f.Add([]byte(lines("# 4. Old", "", "## Status", "", "Superseded by [7. New](0007-new.md)", "", "This decision was replaced by ADR-0009.")), false)
	f.Add([]byte(lines("---", "status: accepted", "---", "# T", "", "See [x](x.md) and [y][y].", "", "[y]: y.md")), false)
	f.Add([]byte("\x00\x01garbage"), true)
	f.Fuzz(func(t *testing.T, data []byte, raw bool) {
		if raw {
			if r, err := decodeParsed(string(data)); err == nil {
				r.facts() // must not panic either
			}
			decodeFacts(string(data))
			return
		}
		want := Parse(data)
		got, err := decodeParsed(string(encodeParsed(nil, want)))
		if err != nil {
			t.Fatal(err)
		}
		if g := got.facts(); !reflect.DeepEqual(g, want.tfacts) {
			t.Fatalf("text facts: decoded %+v, parsed %+v", g, want.tfacts)
		}
		if got.Title != want.Title || got.Status != want.Status || !reflect.DeepEqual(got.Relations, want.Relations) {
			t.Fatalf("decoded %q %q, parsed %q %q", got.Title, got.Status, want.Title, want.Status)
		}
	})
}

// FuzzMayClaim: mayClaim, the parse's quick refusal, never refuses a line
// the supersession phrase matches.
func FuzzMayClaim(f *testing.F) {
	for _, s := range []string{"Superseded by ADR-0019", "this was REPLACED by x", "obsoleted  by", "ſuperseded by 4", "Supercéded by", "super ceded by"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, line []byte) {
		if supersededPhrase.Re().Match(line) && !mayClaim(line) {
			t.Fatalf("mayClaim refused %q, which the phrase matches", line)
		}
	})
}
