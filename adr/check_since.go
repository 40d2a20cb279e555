package adr

import (
	"strings"

	"github.com/git-adr/git-adr/internal/lazyre"
)

// What a change introduced: `git adr check --since BASE` judges a pull
// request by the findings it brings, not by everything the log held
// before it (a log with history has findings nobody's pull request should
// fail on).

// lineRef is a line named in a finding's message ("on line 9", "lines
// 4 and 7"): an edit above it moves it without changing the finding.
var lineRef = lazyre.New(`\blines? \d+`)

// Introduced splits the findings of a change's result (head) into those
// the change introduced and the number that base, the log it started
// from, already had. A finding of head is old when base has one like it:
// of the same kind, about the same file (renames maps a base path to the
// head path a rename gave it) and the same records, with the same
// message, or the same message but for the lines and counts it names (a
// record edited above the line, a churn count grown by one). Each base
// finding accounts for one head finding. Findings base could not have
// (the range's governance rules, local files) are never old: base holds
// none of their kinds. Introduced keeps head's order.
func Introduced(head, base []Finding, renames map[string]string) (introduced []Finding, old int) {
	key := func(f Finding, loose bool) string {
		msg := f.Message
		if loose {
			msg = digitRun.ReplaceAllString(lineRef.ReplaceAllString(msg, "line #"), "#")
		}
		return string(f.Kind) + "\x00" + f.Path + "\x00" + strings.Join(f.IDs, "\x01") + "\x00" + msg
	}
	// Base findings are about base's paths: a renamed file's are about
	// its new path.
	moved := make([]Finding, len(base))
	for i, f := range base {
		if p, ok := renames[f.Path]; ok {
			f.Path = p
		}
		moved[i] = f
	}
	base = moved
	// base keys are counted; head's are looked up exactly first, then
	// loosely, so that an exact pair is never taken by a loose one.
	exact, loose := map[string]int{}, map[string]int{}
	for _, f := range base {
		exact[key(f, false)]++
	}
	matched := make([]bool, len(head))
	for i, f := range head {
		if k := key(f, false); exact[k] > 0 {
			exact[k]--
			matched[i] = true
			old++
		}
	}
	for _, f := range base {
		if k := key(f, false); exact[k] > 0 {
			exact[k]--
			loose[key(f, true)]++
		}
	}
	for i, f := range head {
		if matched[i] {
			continue
		}
		if k := key(f, true); loose[k] > 0 {
			loose[k]--
			old++
			continue
		}
		introduced = append(introduced, f)
	}
	return introduced, old
}
