// Package lazyre holds regular expressions compiled the first time they
// are used, not when the program starts: git-adr starts for every git hook
// and every command, and most of them never reach most patterns.
package lazyre

import (
	"regexp"
	"sync"
)

// Regexp is a *regexp.Regexp compiled on first use.
type Regexp struct {
	src   string
	posix bool
	once  sync.Once
	rx    *regexp.Regexp
}

// New returns a pattern compiled on first use (it panics then if src is
// not a valid expression, as regexp.MustCompile does).
func New(src string) *Regexp { return &Regexp{src: src} }

// NewPOSIX is New for a POSIX ERE with leftmost-longest matching
// (regexp.MustCompilePOSIX).
func NewPOSIX(src string) *Regexp { return &Regexp{src: src, posix: true} }

// Re is the compiled expression.
func (l *Regexp) Re() *regexp.Regexp {
	l.once.Do(func() {
		if l.posix {
			l.rx = regexp.MustCompilePOSIX(l.src)
			return
		}
		l.rx = regexp.MustCompile(l.src)
	})
	return l.rx
}

func (l *Regexp) MatchString(s string) bool              { return l.Re().MatchString(s) }
func (l *Regexp) FindString(s string) string             { return l.Re().FindString(s) }
func (l *Regexp) FindStringIndex(s string) []int         { return l.Re().FindStringIndex(s) }
func (l *Regexp) FindStringSubmatch(s string) []string   { return l.Re().FindStringSubmatch(s) }
func (l *Regexp) FindStringSubmatchIndex(s string) []int { return l.Re().FindStringSubmatchIndex(s) }
func (l *Regexp) FindAllString(s string, n int) []string { return l.Re().FindAllString(s, n) }
func (l *Regexp) FindAllStringIndex(s string, n int) [][]int {
	return l.Re().FindAllStringIndex(s, n)
}
func (l *Regexp) FindAllStringSubmatch(s string, n int) [][]string {
	return l.Re().FindAllStringSubmatch(s, n)
}
func (l *Regexp) FindAllStringSubmatchIndex(s string, n int) [][]int {
	return l.Re().FindAllStringSubmatchIndex(s, n)
}
func (l *Regexp) ReplaceAllString(s, repl string) string { return l.Re().ReplaceAllString(s, repl) }
func (l *Regexp) ReplaceAllStringFunc(s string, f func(string) string) string {
	return l.Re().ReplaceAllStringFunc(s, f)
}
