package tomldepth

import (
	"strings"
	"testing"
)

// Brackets in strings and comments do not count as nesting; arrays and
// inline tables past Max do, on the line they pass it.
func TestCheck(t *testing.T) {
	deep := "a = " + strings.Repeat("[", Max+1)
	for text, want := range map[string]int{
		"[[repo]]\nname = \"x\"\nurl = \"https://[::1]/r\"\n":           0,
		"# " + strings.Repeat("[", 100) + "\n[[repo]]\n":                0,
		"a = \"" + strings.Repeat("{", 100) + "\\\"\"\n":                0,
		"a = '" + strings.Repeat("[", 100) + "'\n":                      0,
		"a = \"\"\"\n" + strings.Repeat("[", 100) + "\n\"\"\"\n" + deep: 4,
		"a = '''" + strings.Repeat("{", 100) + "'''\n":                  0,
		"[[repo]]\n" + deep: 2,
		"a = " + strings.Repeat("{x=", Max) + "1" + strings.Repeat("}", Max): 0,
		"a = " + strings.Repeat("{x=", Max+1):                                1,
	} {
		line, isDeep := Check([]byte(text))
		if got := map[bool]int{false: 0, true: line}[isDeep]; got != want {
			t.Errorf("Check(%.40q) = line %d, deep %v; want line %d", text, line, isDeep, want)
		}
	}
}
