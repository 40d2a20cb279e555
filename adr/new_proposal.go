package adr

import "strings"

// SameTitle is a record of root (live or archived) whose title is title,
// but for case and spacing; nil when there is none.
func (l *Log) SameTitle(root *Root, title string) *Record {
	norm := func(s string) string { return strings.ToLower(strings.Join(strings.Fields(s), " ")) }
	want := norm(title)
	for _, r := range l.Records {
		if r.Root == root && norm(r.Title) == want {
			return r
		}
	}
	return nil
}

// RetitledBy is the path of the first record changes would give another
// status or title ("" when none would): what a proposal promises not to
// do to the records it links, which gain relation lines only. New files
// are not looked at.
func RetitledBy(changes []FileChange) string {
	for _, c := range changes {
		if c.Old == nil {
			continue
		}
		was, now := Parse(c.Old), Parse(c.New)
		if was.Status != now.Status || was.RawStatus != now.RawStatus || was.Title != now.Title {
			return c.Path
		}
	}
	return ""
}
