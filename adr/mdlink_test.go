package adr

import (
	"reflect"
	"regexp"
	"strings"
	"testing"
)

var mdLinkRE = regexp.MustCompile(mdLinkPattern)

func checkLinkPattern(t *testing.T, s string) {
	t.Helper()
	if got, want := mdLink.FindAllStringSubmatchIndex(s, -1), mdLinkRE.FindAllStringSubmatchIndex(s, -1); !reflect.DeepEqual(got, want) {
		t.Fatalf("FindAllStringSubmatchIndex(%q) = %v, want %v", s, got, want)
	}
	if got, want := mdLink.FindAllStringSubmatch(s, -1), mdLinkRE.FindAllStringSubmatch(s, -1); !reflect.DeepEqual(got, want) {
		t.Fatalf("FindAllStringSubmatch(%q) = %q, want %q", s, got, want)
	}
	if got, want := mdLink.FindStringSubmatch(s), mdLinkRE.FindStringSubmatch(s); !reflect.DeepEqual(got, want) {
		t.Fatalf("FindStringSubmatch(%q) = %q, want %q", s, got, want)
	}
	if got, want := mdLink.FindStringIndex(s), mdLinkRE.FindStringIndex(s); !reflect.DeepEqual(got, want) {
		t.Fatalf("FindStringIndex(%q) = %v, want %v", s, got, want)
	}
	if got, want := mdLink.ReplaceAllString(s, ""), mdLinkRE.ReplaceAllString(s, ""); got != want {
		t.Fatalf("ReplaceAllString(%q) = %q, want %q", s, got, want)
	}
}

var linkSeeds = []string{
	"Superseded by [7. X](0007-x.md)", "[a[b]c](x)", "[[a](x)", "[a](<b>)", "[a](<b)", "[a](<)", "[a](<>)",
	`[a](b "t")`, `[a](b "t" )`, `[a](b "t)`, `[a](b>"t")`, "[a](b > )", "[a]( b )", "[a](\tb\n)", "[a](b\v)",
	"[a] (b)", "[](x)", "[a](x)[b](y) and [c](z)", "[a[b](x)", "[a]b](x)", "[\xff](\xfe)", "[é](ü.md)",
	"x [a](b c) [d](e)", `[a](b "x" "y")`, "[a](b>>)", "[[]](x)", "[a](<b> \"t\")",
}

func FuzzLinkPatternAgrees(f *testing.F) {
	for _, s := range linkSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) { checkLinkPattern(t, s) })
}

// TestLinkPatternAgrees tries every short string over the characters the
// pattern gives a meaning to.
func TestLinkPatternAgrees(t *testing.T) {
	for _, s := range linkSeeds {
		checkLinkPattern(t, s)
	}
	alphabet := []string{"[", "]", "(", ")", "<", ">", `"`, " ", "\n", "a"}
	var walk func(prefix string, n int)
	walk = func(prefix string, n int) {
		checkLinkPattern(t, prefix)
		if n == 0 {
			return
		}
		for _, c := range alphabet {
			walk(prefix+c, n-1)
		}
	}
	walk("", 6)
	// And longer runs from a generator, with links inside.
	rng := uint64(3)
	for i := 0; i < 20000; i++ {
		var b strings.Builder
		for k := 0; k < 16; k++ {
			rng = rng*6364136223846793005 + 1442695040888963407
			switch r := (rng >> 33) % 14; {
			case r < uint64(len(alphabet)):
				b.WriteString(alphabet[r])
			case r == 10:
				b.WriteString("[x](y)")
			case r == 11:
				b.WriteString(`](z "q")`)
			default:
				b.WriteString("\t")
			}
		}
		checkLinkPattern(t, b.String())
	}
}
