package hooks

import (
	"strings"

	"github.com/git-adr/git-adr/adr/scope"
)

// Reminder is the text that reminds a commit of the decisions governing
// its staged paths, within budget tokens as tokens counts them: line
// gives each decision's line (ending in a newline), more the line that
// counts those left out (with up to three of the paths); whole lines only,
// dropped from the end when the text would exceed the budget. A line is
// at least a token per three bytes, so tokens is called only when the
// bytes might exceed it (the tokenizer takes time to load).
func (res *PreCommitResult) Reminder(budget int, line func(scope.Match) string, more func(n int, paths []string) string, tokens func(string) int) string {
	if len(res.Governing) == 0 {
		return ""
	}
	var b strings.Builder
	shown := 0
	for _, m := range res.Governing {
		l := line(m)
		if b.Len()+len(l) > budget*3 {
			continue
		}
		b.WriteString(l)
		shown++
	}
	if total := len(res.Governing); shown < total {
		b.WriteString(more(total-shown, res.Paths[:min(3, len(res.Paths))]))
	}
	text := b.String()
	for len(text) > budget && tokens(text) > budget {
		lines := strings.SplitAfter(strings.TrimSuffix(text, "\n"), "\n")
		text = strings.Join(lines[:len(lines)-1], "")
	}
	return text
}
