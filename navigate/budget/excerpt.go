package budget

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"
)

// Bounds of an excerpt, in code points.
const (
	maxAssistantText = 200
	maxArgFields     = 6
	maxArgValue      = 80
	maxResult        = 300
	maxErrorResult   = 600
)

// excerpt is the deterministic, labelled text that stands for a compacted
// group: it depends only on the group's messages.
func excerpt(g *Group) string {
	var b strings.Builder
	b.WriteString(ExcerptLabel)
	b.WriteString(", quoted history: not a call to make again and not a claim that it succeeded; read a file again before editing it]\n")
	if t := strings.TrimSpace(g.Messages[0].Text); t != "" {
		fmt.Fprintf(&b, "assistant said: %s\n", clip(t, maxAssistantText))
	}
	for i, c := range g.Calls {
		fmt.Fprintf(&b, "call %d: %s(%s)\n", i+1, c.Name, argFields(c.Args))
		r := c.Result
		status, limit := "ok", maxResult
		if r.Error {
			status, limit = "error", maxErrorResult
		}
		text := strings.TrimSpace(r.Text)
		fmt.Fprintf(&b, "result %d (%s, %d characters): %s\n", i+1, status, len([]rune(r.Text)), clip(text, limit))
	}
	return strings.TrimSuffix(b.String(), "\n")
}

// argFields renders at most maxArgFields top-level arguments, sorted by
// name, each value clipped.
func argFields(args json.RawMessage) string {
	var obj map[string]json.RawMessage
	if json.Unmarshal(args, &obj) != nil {
		return ""
	}
	keys := make([]string, 0, len(obj))
	for k := range obj {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var parts []string
	for i, k := range keys {
		if i == maxArgFields {
			parts = append(parts, fmt.Sprintf("+%d more", len(keys)-maxArgFields))
			break
		}
		v := string(compact(obj[k]))
		var s string
		if json.Unmarshal(obj[k], &s) == nil {
			v = fmt.Sprintf("%q", clip(s, maxArgValue))
		} else {
			v = clip(v, maxArgValue)
		}
		parts = append(parts, k+"="+v)
	}
	return strings.Join(parts, ", ")
}

// clip keeps at most n code points of s, saying how many were left out;
// line breaks become spaces so that an excerpt line stays one line.
func clip(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	rs := []rune(s)
	if len(rs) <= n {
		return s
	}
	return string(rs[:n]) + fmt.Sprintf("… [%d more characters]", len(rs)-n)
}
