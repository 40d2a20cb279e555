package main

import (
	"bufio"
	"fmt"
	"strings"
)

// Approval choices of a summary plan (spec §5.2). Accepting replacement
// records (Accept and execute, Save drafts only) belongs to acceptance and
// is offered by it.
const (
	choicePublish = "publish"
	choiceChanges = "changes"
	choiceCancel  = "cancel"
)

// promptSummary asks, on the terminal, what to do with a reviewed summary
// plan. Blockers remove the publish choice, not the others. Anything other
// than a clear choice asks again; end of input is no answer, which is
// never approval.
func promptSummary(env *Env, planID string, revision int, blocked bool) (choice, feedback string) {
	in := bufio.NewReader(env.In)
	for {
		fmt.Fprintf(env.Err, "\nplan %s revision %d:\n", planID, revision)
		if blocked {
			fmt.Fprintln(env.Err, "  (publish is disabled: fix the blockers above first)")
		} else {
			fmt.Fprintln(env.Err, "  [p] Publish summary: commit CURRENT.md and its manifest (accepts no ADR)")
		}
		fmt.Fprintln(env.Err, "  [r] Request changes: tell the drafter what to change; a new revision is drafted")
		fmt.Fprintln(env.Err, "  [c] Cancel: publish nothing")
		fmt.Fprint(env.Err, "choice: ")
		line, err := in.ReadString('\n')
		if err != nil && line == "" {
			return "", ""
		}
		switch strings.ToLower(strings.TrimSpace(line)) {
		case "p", "publish":
			if !blocked {
				return choicePublish, ""
			}
		case "r", "request", "changes":
			fmt.Fprintln(env.Err, "What should change? End with an empty line.")
			var lines []string
			for {
				l, err := in.ReadString('\n')
				l = strings.TrimRight(l, "\r\n")
				if l == "" || err != nil {
					if l != "" {
						lines = append(lines, l)
					}
					break
				}
				lines = append(lines, l)
			}
			if fb := strings.TrimSpace(strings.Join(lines, "\n")); fb != "" {
				return choiceChanges, fb
			}
			fmt.Fprintln(env.Err, "no feedback given")
		case "c", "cancel":
			return choiceCancel, ""
		}
	}
}
