package adr

import "strings"

// LookupTyped is [Log.Lookup] for a reference a person typed, which may
// name a record by its path: rel turns a path as typed (relative to the
// working directory) into a repository path, ok false when it is outside
// (nil: no repository, and paths are looked up as they are).
// "DECISIONS.md:21" names the section at that line of a single-file log.
func (l *Log) LookupTyped(ref string, rel func(string) (string, bool)) (*Record, error) {
	recRef, _ := SplitLocator(ref)
	lower := strings.ToLower(recRef)
	if rel != nil && (strings.Contains(recRef, "/") || strings.HasSuffix(lower, ".md") || strings.Contains(lower, ".md:")) {
		if p, ok := rel(recRef); ok && l.ByPath(p) != nil {
			return l.ByPath(p), nil
		}
		if p, line, ok := strings.Cut(recRef, ":"); ok {
			if p, ok := rel(p); ok {
				if r, err := l.Resolve(p + ":" + line); err == nil {
					return r, nil
				}
			}
		}
	}
	return l.Lookup(ref)
}
