package o200k

import (
	"encoding/binary"
	"strings"
	"testing"

	"github.com/tiktoken-go/tokenizer"

	"github.com/git-adr/git-adr/internal/corpora"
)

// oracle is the library's o200k_base codec, which Count must agree with.
func oracle(t testing.TB) tokenizer.Codec {
	t.Helper()
	enc, err := tokenizer.Get(tokenizer.O200kBase)
	if err != nil {
		t.Fatal(err)
	}
	return enc
}

func same(t testing.TB, enc tokenizer.Codec, s string) {
	t.Helper()
	want, werr := enc.Count(s)
	got, gerr := Count(s)
	if got != want || (werr == nil) != (gerr == nil) {
		t.Fatalf("Count(%q) = %d, %v; the library counts %d, %v", s, got, gerr, want, werr)
	}
}

// TestCountAsLibrary: Count agrees with the library on texts made to
// reach every path: words in many scripts, contractions, numbers, runs of
// white space and new lines, pieces past 96 bytes (the library's other
// merge) and bytes that are not UTF-8.
func TestCountAsLibrary(t *testing.T) {
	enc := oracle(t)
	for _, s := range []string{
		"", " ", "a", "hello world", "Hello, World! It's we'll they'd I'M", "  \n\n  \t x  ",
		"1234567 89 3.14159 0x1F", "ADR-0012#decision[2/3]", "git adr context --cursor Azvjffmb4y2wFgAAIJBOAAAAMWhvdyBkbyB3ZSB2ZXJzaW9uIHRoZSBBUEkgYW5kIGRlcHJlY2F0ZSBlbmRwb2ludHMAAA.F5Qic8t1Ry",
		"Ωμέγα λέξη, русский текст, 中文字符测试, 日本語のテキスト, 한국어 텍스트, عربى", "émigré naïve façade Ærø",
		"🙂👍🏽 emoji 🚀🚀🚀", strings.Repeat("~!@#$%^&*()", 20), strings.Repeat("abc", 100), strings.Repeat("ab ", 60),
		"Supercalifragilisticexpialidocious" + strings.Repeat("x", 200), "\xff\xfe invalid \xc3 bytes \xe2\x82",
		"line one\r\nline two\rline three\n", "<|endoftext|> special <|endofprompt|>",
	} {
		same(t, enc, s)
	}
}

// TestCountCorpora: Count agrees with the library on every Markdown file
// of the ADR corpora beside the repository, when they are there.
func TestCountCorpora(t *testing.T) {
	enc := oracle(t)
	texts := corpora.Texts(t)
	for _, s := range texts[:min(len(texts), 3000)] {
		same(t, enc, s)
	}
}

// TestEmbeddedIsEncoded: o200k.bin is what Encode makes of the library's
// vocabulary (`go run ./gen` was run for this version of the library).
func TestEmbeddedIsEncoded(t *testing.T) {
	enc := oracle(t)
	var tokens []string
	for rank := uint(0); ; rank++ {
		tok, err := enc.Decode([]uint{rank})
		if err != nil {
			break
		}
		tokens = append(tokens, tok)
	}
	b, err := Encode(tokens)
	if err != nil {
		t.Fatal(err)
	}
	if b != data {
		t.Fatalf("o200k.bin (%d bytes) is not Encode of the library's %d tokens (%d bytes): run `go run ./gen` in internal/o200k", len(data), len(tokens), len(b))
	}
	v, err := parse(b)
	if err != nil {
		t.Fatal(err)
	}
	for r, tok := range tokens {
		if got := v.rank(tok); got != uint32(r) && (got == noRank || tokens[got] != tok || got > uint32(r)) {
			t.Fatalf("rank(%q) = %d, want %d", tok, got, r)
		}
	}
}

// TestParseRefusesDamage: a vocabulary cut short, lengthened, of another
// version, with an offset out of order, a rank past the last or no empty
// slot does not decode.
func TestParseRefusesDamage(t *testing.T) {
	if _, err := parse(data); err != nil {
		t.Fatal(err)
	}
	small, err := Encode([]string{"a", "b", "ab"})
	if err != nil {
		t.Fatal(err)
	}
	v, err := parse(small)
	if err != nil {
		t.Fatal(err)
	}
	if v.rank("ab") != 2 || v.rank("b") != 1 || v.rank("ba") != noRank {
		t.Fatalf("ranks of a small vocabulary: ab %d, b %d, ba %d", v.rank("ab"), v.rank("b"), v.rank("ba"))
	}
	put := func(s string, at int, x uint32) string {
		b := []byte(s)
		binary.LittleEndian.PutUint32(b[at:], x)
		return string(b)
	}
	full := small
	for i := range 4 { // every slot taken: a look-up of no token would not end
		full = put(full, v.slots+4*i, 1)
	}
	for name, bad := range map[string]string{
		"empty": "", "cut short": data[:len(data)-1], "lengthened": data + "x",
		"another version":        strings.Replace(data, "o200k_base v2", "o200k_base v1", 1),
		"an offset out of order": put(small, v.offs+4, 2),
		"a rank past the last":   put(small, v.slots, 4),
		"no empty slot":          full,
	} {
		if _, err := parse(bad); err == nil {
			t.Errorf("a vocabulary %s decoded", name)
		}
	}
}

func FuzzCount(f *testing.F) {
	for _, s := range []string{"hello world", "  \n x", "1234 ab'S", "\xff\xfe", strings.Repeat("=-", 80)} {
		f.Add(s)
	}
	enc := oracle(f)
	f.Fuzz(func(t *testing.T, s string) { same(t, enc, s) })
}

func BenchmarkCount(b *testing.B) {
	text := strings.Repeat("We decide to cache the orders API behind a read-through cache (ADR-0012#decision). ", 60)
	Count(text)
	b.ResetTimer()
	for b.Loop() {
		Count(text)
	}
}

// BenchmarkParse is the cost of the first count in a process: the
// embedded vocabulary read into its table.
func BenchmarkParse(b *testing.B) {
	for b.Loop() {
		if _, err := parse(data); err != nil {
			b.Fatal(err)
		}
	}
}

// TestProbesAreShort: what bounds a look-up, a piece that is no token
// included. The table is fixed, so no input makes a look-up read more
// slots than its longest run of taken slots (contiguous: 4 bytes each),
// nor compare more tokens' bytes than the most slots of one tag in a
// run.
func TestProbesAreShort(t *testing.T) {
	v, err := parse(data)
	if err != nil {
		t.Fatal(err)
	}
	size := int(v.mask) + 1
	start := 0 // a run may wrap: begin after an empty slot
	for v.u32(v.slots+4*start) != 0 {
		start++
	}
	longest, compared := 0, 0
	var run []uint32
	for k := 1; k <= size; k++ {
		s := v.u32(v.slots + 4*((start+k)%size))
		if s != 0 {
			run = append(run, s&^rankMask)
			continue
		}
		longest = max(longest, len(run))
		tags := map[uint32]int{}
		for _, tag := range run {
			tags[tag]++
			compared = max(compared, tags[tag])
		}
		run = run[:0]
	}
	t.Logf("%d slots: a look-up reads at most %d and compares at most %d tokens", size, longest, compared)
	if longest > 256 || compared > 4 {
		t.Errorf("a look-up may read %d slots and compare %d tokens", longest, compared)
	}
}
