package evidence

import "strings"

// replacedLiterals are words one of which every match of replacedWords
// contains, in lower case.
var replacedLiterals = []string{"super", "replaced", "obsoleted", "deprecate", "retired", "withdrawn", "abandoned", "retracted", "moving on from", "no longer "}

// mayBeReplaced reports whether replacedWords can match line: it cannot
// when an ASCII line holds none of replacedLiterals. The regular expression
// is most of a warm task answer's standing checks, and few lines hold any
// of these words. A line with other bytes goes to the expression itself:
// case folding there also maps letters such as ſ (long s) to s.
func mayBeReplaced(line string) bool {
	for i := 0; i < len(line); i++ {
		if line[i] >= 0x80 {
			return true
		}
	}
	lower := strings.ToLower(line)
	for _, w := range replacedLiterals {
		if strings.Contains(lower, w) {
			return true
		}
	}
	return false
}
