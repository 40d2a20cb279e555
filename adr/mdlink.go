package adr

import "strings"

// mdLinkPattern is the Markdown inline link git-adr reads, as a regular
// expression: a label of text and one level of nested brackets, then a
// target (in angle brackets or not) and an optional quoted title.
// linkPattern matches exactly what it matches (FuzzLinkPatternAgrees),
// without the backtracking matcher, which was a fifth of parsing a log.
const mdLinkPattern = `\[((?:[^\[\]]|\[[^\[\]]*\])*)\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)`

var mdLink linkPattern

// linkPattern has the methods of a regular expression that the parser
// uses, for mdLinkPattern. Submatch 1 is the label, 2 the target.
type linkPattern struct{}

// at matches a link starting at s[i], a '[': the submatch indexes, as
// FindStringSubmatchIndex gives them.
func (linkPattern) at(s string, i int) ([6]int, bool) {
	// The label: anything but brackets, or a bracketed run without any.
	// Every way of ending it early leaves a bracket-free character or a
	// '[' next, never the ']' that must follow: the longest is the only.
	j := i + 1
	for j < len(s) && s[j] != ']' {
		if s[j] == '[' {
			k := j + 1
			for k < len(s) && s[k] != '[' && s[k] != ']' {
				k++
			}
			if k == len(s) || s[k] != ']' {
				break
			}
			j = k
		}
		j++
	}
	if j+1 >= len(s) || s[j] != ']' || s[j+1] != '(' {
		return [6]int{}, false
	}
	p := skipRESpace(s, j+2)
	// "<target>" first; a '<' is also a character a target may start with.
	if p < len(s) && s[p] == '<' {
		if t1, end, ok := linkTail(s, p+1); ok {
			return [6]int{i, end, i + 1, j, p + 1, t1}, true
		}
	}
	if t1, end, ok := linkTail(s, p); ok {
		return [6]int{i, end, i + 1, j, p, t1}, true
	}
	return [6]int{}, false
}

// linkTail matches `([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)` at s[p]: the end
// of the target and of the match.
func linkTail(s string, p int) (targetEnd, end int, ok bool) {
	q := p
	for q < len(s) && s[q] != ')' && s[q] != '>' && !isRESpace(s[q]) {
		q++
	}
	if q == p {
		return 0, 0, false
	}
	r := q
	if r < len(s) && s[r] == '>' {
		r++
	}
	// With a title first, as the greedy '?' tries it.
	if t := skipRESpace(s, r); t > r && t < len(s) && s[t] == '"' {
		if e := strings.IndexByte(s[t+1:], '"'); e >= 0 {
			if u := skipRESpace(s, t+1+e+1); u < len(s) && s[u] == ')' {
				return q, u + 1, true
			}
		}
	}
	if u := skipRESpace(s, r); u < len(s) && s[u] == ')' {
		return q, u + 1, true
	}
	return 0, 0, false
}

// isRESpace is \s of Go's regular expressions.
func isRESpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\f' || c == '\r'
}

func skipRESpace(s string, i int) int {
	for i < len(s) && isRESpace(s[i]) {
		i++
	}
	return i
}

// find is the leftmost match at or after s[from].
func (lp linkPattern) find(s string, from int) ([6]int, bool) {
	for {
		k := strings.IndexByte(s[from:], '[')
		if k < 0 {
			return [6]int{}, false
		}
		if m, ok := lp.at(s, from+k); ok {
			return m, true
		}
		from += k + 1
	}
}

// FindAllStringSubmatchIndex is regexp's, for n < 0 (every match).
func (lp linkPattern) FindAllStringSubmatchIndex(s string, n int) [][]int {
	var out [][]int
	for from := 0; n < 0 || len(out) < n; {
		m, ok := lp.find(s, from)
		if !ok {
			break
		}
		out = append(out, m[:])
		from = m[1]
	}
	return out
}

func (lp linkPattern) FindAllStringSubmatch(s string, n int) [][]string {
	var out [][]string
	for _, m := range lp.FindAllStringSubmatchIndex(s, n) {
		out = append(out, []string{s[m[0]:m[1]], s[m[2]:m[3]], s[m[4]:m[5]]})
	}
	return out
}

func (lp linkPattern) FindStringSubmatch(s string) []string {
	if m, ok := lp.find(s, 0); ok {
		return []string{s[m[0]:m[1]], s[m[2]:m[3]], s[m[4]:m[5]]}
	}
	return nil
}

func (lp linkPattern) FindStringIndex(s string) []int {
	if m, ok := lp.find(s, 0); ok {
		return m[:2]
	}
	return nil
}

// ReplaceAllString is regexp's for a literal replacement (no "$").
func (lp linkPattern) ReplaceAllString(s, repl string) string {
	var b strings.Builder
	last := 0
	for _, m := range lp.FindAllStringSubmatchIndex(s, -1) {
		b.WriteString(s[last:m[0]])
		b.WriteString(repl)
		last = m[1]
	}
	if last == 0 {
		return s
	}
	b.WriteString(s[last:])
	return b.String()
}
