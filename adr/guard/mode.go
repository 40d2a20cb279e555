package guard

import (
	"errors"
	"fmt"
	"strings"

	"github.com/BurntSushi/toml"
	"github.com/git-adr/git-adr/internal/tomldepth"
)

// Mode is the guard's mode.
type Mode string

// The modes, weakest first.
const (
	Off   Mode = "off"
	Warn  Mode = "warn"
	Guard Mode = "guard"
)

// Modes lists the modes, weakest first.
var Modes = []Mode{Off, Warn, Guard}

// ParseMode reads a mode name ("off", "warn", "guard"; case is ignored).
func ParseMode(s string) (Mode, bool) {
	switch m := Mode(strings.ToLower(strings.TrimSpace(s))); m {
	case Off, Warn, Guard:
		return m, true
	}
	return "", false
}

// rank orders modes by strength.
func (m Mode) rank() int {
	switch m {
	case Warn:
		return 1
	case Guard:
		return 2
	}
	return 0
}

// Weaker reports whether m judges less strictly than o.
func (m Mode) Weaker(o Mode) bool { return m.rank() < o.rank() }

// Source says where the mode in effect was set.
type Source string

// Where a mode comes from.
const (
	FromDefault   Source = "default"
	FromFile      Source = ".adr.toml"
	FromGitConfig Source = "git config"
)

// Setting is the mode in effect and where it comes from.
type Setting struct {
	Mode   Mode
	Source Source
	// Scope is git's scope of the value (local, global, system, worktree,
	// command) when Source is FromGitConfig.
	Scope string
	// File is the mode .adr.toml sets ("" when it sets none): shown when
	// git config overrides it.
	File Mode
}

func (s Setting) String() string {
	switch s.Source {
	case FromGitConfig:
		return fmt.Sprintf("%s (git config adr.guard.mode, %s)", s.Mode, s.Scope)
	case FromFile:
		return fmt.Sprintf("%s (.adr.toml [guard] mode)", s.Mode)
	}
	return fmt.Sprintf("%s (default)", s.Mode)
}

// GitKey is the git config key that sets the mode for one person, above
// the repository's .adr.toml.
const GitKey = "adr.guard.mode"

// ModeError is a mode that cannot be read: the guard cannot tell what to
// do and says so (see docs/guard.md, "degraded states").
type ModeError struct {
	Where string // ".adr.toml" or "git config adr.guard.mode"
	Err   error
}

func (e *ModeError) Error() string { return fmt.Sprintf("%s: %v", e.Where, e.Err) }
func (e *ModeError) Unwrap() error { return e.Err }

// FileMode reads the [guard] mode of an .adr.toml's bytes and nothing
// else, so that a mistake elsewhere in the file (an unknown key, a bad
// value) does not hide the mode; only a file that is not TOML does.
func FileMode(data []byte) (Mode, error) {
	var c struct {
		Guard struct {
			Mode string `toml:"mode"`
		} `toml:"guard"`
	}
	if line, deep := tomldepth.Check(data); deep {
		return "", fmt.Errorf("line %d: arrays or tables nested more than %d deep", line, tomldepth.Max)
	}
	if _, err := toml.Decode(string(data), &c); err != nil {
		var pe toml.ParseError
		if errors.As(err, &pe) {
			return "", fmt.Errorf("line %d: %s", pe.Position.Line, pe.Message)
		}
		return "", err
	}
	if c.Guard.Mode == "" {
		return "", nil
	}
	m, ok := ParseMode(c.Guard.Mode)
	if !ok || c.Guard.Mode != string(m) {
		return "", fmt.Errorf("guard.mode %q is not off, warn or guard", c.Guard.Mode)
	}
	return m, nil
}

// Resolve gives the mode in effect: git config adr.guard.mode when it is
// set (any scope: a person's own setting, which a repository cannot
// weaken), else the [guard] mode of .adr.toml, else off. git and file are
// what those hold ("" when unset); fileErr is the error reading the file.
func Resolve(git, gitScope string, file Mode, fileErr error) (Setting, error) {
	if git != "" {
		m, ok := ParseMode(git)
		if !ok {
			return Setting{}, &ModeError{Where: "git config " + GitKey, Err: fmt.Errorf("%q is not off, warn or guard", git)}
		}
		return Setting{Mode: m, Source: FromGitConfig, Scope: gitScope, File: file}, nil
	}
	if fileErr != nil {
		return Setting{}, &ModeError{Where: ".adr.toml", Err: fileErr}
	}
	if file != "" {
		return Setting{Mode: file, Source: FromFile, File: file}, nil
	}
	return Setting{Mode: Off, Source: FromDefault}, nil
}
