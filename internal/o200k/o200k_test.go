package o200k

import (
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

// TestParseRefusesDamage: an embedded vocabulary cut short or with a
// length byte changed does not decode.
func TestParseRefusesDamage(t *testing.T) {
	if _, err := parse(data); err != nil {
		t.Fatal(err)
	}
	for _, bad := range []string{"", data[:len(data)-1], strings.Replace(data, "o200k_base v1", "o200k_base v0", 1), data + "x"} {
		if _, err := parse(bad); err == nil {
			t.Errorf("a damaged vocabulary of %d bytes decoded", len(bad))
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
