package jsoncost

import (
	"testing"
	"unicode/utf8"
)

func TestEscape(t *testing.T) {
	for in, want := range map[string]string{
		"plain":       "plain",
		"a \"q\" <b>": `a \"q\" <b>`, // no HTML escaping
		"tab\tnl\n":   `tab\tnl\n`,
		"\x01é\u2028": `\u0001é\u2028`,
		`back\slash`:  `back\\slash`,
	} {
		if got := Escape(in); got != want {
			t.Errorf("Escape(%q) = %q, want %q", in, got, want)
		}
	}
}

// Each depth escapes what the depth before it wrote, and depth 0 counts
// code points, not bytes.
func TestString(t *testing.T) {
	for _, c := range []struct {
		s     string
		depth int
		want  int
	}{
		{"é€", 0, 2},
		{"é€", 1, 2},
		{`"`, 1, 2},  // \"
		{`"`, 2, 4},  // \\\"
		{"\n", 2, 3}, // \\n
		{"\x01", 2, 7},
	} {
		if got := String(c.s, c.depth); got != c.want {
			t.Errorf("String(%q, %d) = %d, want %d", c.s, c.depth, got, c.want)
		}
	}
}

// Value at depth 1 is the compact encoding itself; at depth 2 that text
// escaped once more. A value that does not encode costs nothing.
func TestValue(t *testing.T) {
	v := map[string]any{"path": "a<b>é.md", "n": 1}
	const compact = `{"n":1,"path":"a<b>é.md"}` // no \u003c for <
	if got, want := Value(v, 1), utf8.RuneCountInString(compact); got != want {
		t.Errorf("Value(v, 1) = %d, want %d", got, want)
	}
	if got, want := Value(v, 2), utf8.RuneCountInString(compact)+6; got != want { // each of the 6 quotes escaped
		t.Errorf("Value(v, 2) = %d, want %d", got, want)
	}
	if got := Value(make(chan int), 1); got != 0 {
		t.Errorf("Value(chan) = %d, want 0", got)
	}
}
