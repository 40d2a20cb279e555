package adr

import "strings"

// linkPath is the path a link destination names: without its "#fragment"
// or "?query", its Markdown escapes removed. Every place that follows a
// link goes through it.
func linkPath(dest string) string { return unescapeLinkDest(stripFragment(dest)) }

// unescapeLinkDest removes Markdown's backslash escapes from a link
// destination, as a renderer does before following it: in
// "0003-\[Superseded\]use-x.md" the file is "0003-[Superseded]use-x.md".
// A backslash before anything but ASCII punctuation stays (a
// Windows-style separator, which cleanRel reads as "/").
func unescapeLinkDest(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) && isASCIIPunct(s[i+1]) {
			i++
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// isASCIIPunct is CommonMark's ASCII punctuation: what a backslash
// escapes.
func isASCIIPunct(c byte) bool {
	return c >= '!' && c <= '/' || c >= ':' && c <= '@' || c >= '[' && c <= '`' || c >= '{' && c <= '~'
}
