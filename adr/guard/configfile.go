package guard

import (
	"fmt"

	"github.com/git-adr/git-adr/adr"
)

// BadConfigError is an .adr.toml that does not parse as it is: the mode
// is not written into it. Err is the parse error (often an
// [*adr.ConfigError]).
type BadConfigError struct{ Err error }

func (e *BadConfigError) Error() string { return e.Err.Error() }
func (e *BadConfigError) Unwrap() error { return e.Err }

// EditConfig returns the .adr.toml old (nil: none) with its [guard] mode
// set to m ([SetFileMode]). old must parse ([*BadConfigError]), and so
// must what the edit gives when it changes anything.
func EditConfig(old []byte, m Mode) ([]byte, error) {
	if old != nil {
		if _, err := adr.ParseConfig(old); err != nil {
			return nil, &BadConfigError{Err: err}
		}
	}
	next, err := SetFileMode(old, m)
	if err != nil {
		return nil, err
	}
	if string(next) != string(old) {
		if _, err := adr.ParseConfig(next); err != nil {
			return nil, fmt.Errorf("the edited %s would not parse (%v); nothing was written", adr.ConfigFile, err)
		}
	}
	return next, nil
}
