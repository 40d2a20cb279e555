package adr

import (
	"bytes"
	"errors"
	"io/fs"
)

// NamedWrite is the new content of a file at an absolute path a person
// named (--output, --man-dir), inside a work tree or not.
type NamedWrite struct {
	Path string
	Data []byte
}

// NamedReadError is a named file that exists and cannot be read; Index is
// its place among the files.
type NamedReadError struct {
	Index int
	Err   error
}

func (e *NamedReadError) Error() string { return e.Err.Error() }
func (e *NamedReadError) Unwrap() error { return e.Err }

// SplitNamed sorts named writes into changes of the work tree, for one
// journalled changeset (rel gives a path's repository path, ok false
// outside the work tree; nil: there is no work tree), and the writes
// outside it, which replace their files whole. A file that already holds
// its data is left out; read reads a file (an error that is
// [fs.ErrNotExist]: no file).
func SplitNamed(files []NamedWrite, rel func(string) (string, bool), read func(string) ([]byte, error)) ([]FileChange, []NamedWrite, error) {
	var changes []FileChange
	var outside []NamedWrite
	for i, f := range files {
		cur, err := read(f.Path)
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return nil, nil, &NamedReadError{Index: i, Err: err}
		}
		exists := err == nil
		if exists && bytes.Equal(cur, f.Data) {
			continue
		}
		if rel != nil {
			if p, ok := rel(f.Path); ok {
				c := FileChange{Path: p, New: f.Data}
				if exists {
					c.Old = cur
				}
				changes = append(changes, c)
				continue
			}
		}
		outside = append(outside, f)
	}
	return changes, outside, nil
}
