package adr

import "fmt"

// UnknownRootError means a new record was asked for in a directory that
// is none of the log's roots; Roots lists them.
type UnknownRootError struct {
	Dir   string
	Roots []string
}

func (e *UnknownRootError) Error() string { return fmt.Sprintf("%q is not an ADR root", e.Dir) }

// NewRecordRoot is the root a new record of command op is written in:
// the one dir names ("": the first folder, see [Log.RootFor]). It is an
// *UnknownRootError when there is no such root, a *RefusedRootError when
// the log refused to read it, and a *SectionError when it is a
// single-file log (git-adr writes records that are files).
func (l *Log) NewRecordRoot(dir, op string) (*Root, error) {
	root, err := l.RootFor(dir)
	if err != nil {
		e := &UnknownRootError{Dir: dir}
		for _, r := range l.Roots {
			e.Roots = append(e.Roots, r.Dir())
		}
		return nil, e
	}
	if root.Refused != nil {
		return nil, &RefusedRootError{Root: root}
	}
	if err := WritableRoot(root, op); err != nil {
		return nil, err
	}
	return root, nil
}
