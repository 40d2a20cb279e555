package adr

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"strings"
	"time"

	"github.com/BurntSushi/toml"
)

// ConfigFile is the project configuration file at the repository root.
const ConfigFile = ".adr.toml"

// Config is the content of .adr.toml. Every field is optional.
type Config struct {
	// Style, Prefix and Digits are defaults for roots that do not set them.
	Style  string `toml:"style"`
	Prefix string `toml:"prefix"`
	Digits int    `toml:"digits"`
	// Roots are the ADR directories; when set, discovery looks nowhere else.
	Roots []RootConfig `toml:"roots"`
	// Check tunes `git adr check`.
	Check CheckConfig `toml:"check,omitempty"`
	// Context tunes `git adr context`.
	Context ContextConfig `toml:"context,omitempty"`
	// Drafter chooses and configures compaction drafters.
	Drafter DrafterConfig `toml:"drafter,omitempty"`
	// Signing says whether git-adr signs the commits it makes.
	Signing SigningConfig `toml:"signing,omitempty"`
	// Archive says where `git adr archive` puts records.
	Archive ArchiveConfig `toml:"archive,omitempty"`

	// Path is where the configuration was read from ("" when absent).
	Path string `toml:"-"`
	// SHA256 is the hex SHA-256 of the bytes parsed ("" when absent): the
	// trust store (package adr/trust) compares it, so what is trusted is
	// exactly what was read.
	SHA256 string `toml:"-"`
}

// DrafterConfig configures compaction drafters (docs/drafters.md).
type DrafterConfig struct {
	// Default is manual, command or openai.
	Default string `toml:"default,omitempty"`
	// Command is run by the command drafter (through sh -c). It runs a
	// program, so it is honoured only from a trusted file (adr/trust).
	Command string `toml:"command,omitempty"`
	// Timeout bounds one drafter call ("10m").
	Timeout string       `toml:"timeout,omitempty"`
	OpenAI  OpenAIConfig `toml:"openai,omitempty"`
}

// OpenAIConfig is an OpenAI-compatible chat-completions endpoint.
// BaseURL and APIKeyEnv decide where evidence and a credential are sent,
// so they are honoured only from a trusted file (adr/trust).
type OpenAIConfig struct {
	BaseURL string `toml:"base_url,omitempty"`
	Model   string `toml:"model,omitempty"`
	// APIKeyEnv names the environment variable holding the key; the key
	// itself never goes in a file.
	APIKeyEnv string `toml:"api_key_env,omitempty"`
	// PriceInput and PriceOutput, per million tokens, turn the read
	// volume into a cost estimate before drafting.
	PriceInput  float64 `toml:"price_input_per_mtok,omitempty"`
	PriceOutput float64 `toml:"price_output_per_mtok,omitempty"`
}

// SigningConfig asks git-adr to sign its commits even when git's
// commit.gpgsign is off. It needs no trust: the signing program and key
// come from git config (gpg.program, gpg.format, user.signingkey), never
// from this file, and only a commit a person approved is signed.
type SigningConfig struct {
	Sign bool `toml:"sign,omitempty"`
}

// ArchiveConfig is the [archive] table of .adr.toml.
type ArchiveConfig struct {
	// Layout is ArchiveFlat (archive/, the default) or ArchiveByYear
	// (archive/<year>/, the year of the record's date).
	Layout string `toml:"layout,omitempty"`
}

// ContextConfig sets the default budget of `git adr context`.
type ContextConfig struct {
	MaxUnits int `toml:"max_units,omitempty"`
	MaxChars int `toml:"max_chars,omitempty"`
}

// RootConfig configures one ADR directory.
type RootConfig struct {
	Path     string `toml:"path"`
	Name     string `toml:"name"`
	Prefix   string `toml:"prefix"`
	Digits   int    `toml:"digits"`
	Style    string `toml:"style"`
	Template string `toml:"template"`
}

// CheckConfig is the [check] table of .adr.toml.
type CheckConfig struct {
	// Ignore names finding kinds `git adr check` leaves out (see
	// [FindingKinds]), for example ["unknown-status"].
	Ignore []string `toml:"ignore,omitempty"`
}

// ConfigError is a problem in .adr.toml; it names the file and, where toml
// knows it, the line.
type ConfigError struct {
	Path string
	Line int
	Msg  string
}

func (e *ConfigError) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("%s:%d: %s", e.Path, e.Line, e.Msg)
	}
	return fmt.Sprintf("%s: %s", e.Path, e.Msg)
}

// LoadConfig reads .adr.toml from the repository root. A missing file is an
// empty configuration; unknown keys and bad values are errors.
func LoadConfig(fsys fs.FS) (*Config, error) {
	data, err := fs.ReadFile(fsys, ConfigFile)
	if errors.Is(err, fs.ErrNotExist) {
		return &Config{}, nil
	}
	if err != nil {
		return nil, err
	}
	return ParseConfig(data)
}

// ParseConfig parses the bytes of an .adr.toml file.
func ParseConfig(data []byte) (*Config, error) {
	var c Config
	md, err := toml.Decode(string(data), &c)
	if err != nil {
		var pe toml.ParseError
		if errors.As(err, &pe) {
			return nil, &ConfigError{Path: ConfigFile, Line: pe.Position.Line, Msg: pe.Message}
		}
		return nil, &ConfigError{Path: ConfigFile, Msg: err.Error()}
	}
	c.Path = ConfigFile
	sum := sha256.Sum256(data)
	c.SHA256 = hex.EncodeToString(sum[:])
	if und := md.Undecoded(); len(und) > 0 {
		var keys []string
		for _, k := range und {
			keys = append(keys, fmt.Sprintf("%q", k.String()))
		}
		return nil, &ConfigError{Path: ConfigFile, Msg: "unknown key " + strings.Join(keys, ", ") + " (see docs/configuration.md)"}
	}
	if c.Style != "" {
		if _, ok := ParseStyle(c.Style); !ok {
			return nil, &ConfigError{Path: ConfigFile, Msg: fmt.Sprintf("style %q is not one of nygard, madr, madr2, table, ocp", c.Style)}
		}
	}
	for i, k := range c.Check.Ignore {
		if _, ok := ParseFindingKind(k); !ok {
			var names []string
			for _, fk := range append(append([]FindingKind(nil), FindingKinds...), CompactionKinds...) {
				names = append(names, string(fk))
			}
			return nil, &ConfigError{Path: ConfigFile, Msg: fmt.Sprintf("check.ignore[%d] %q is not a finding kind (one of %s)", i, k, strings.Join(names, ", "))}
		}
	}
	switch c.Drafter.Default {
	case "", "manual", "command", "openai":
	default:
		return nil, &ConfigError{Path: ConfigFile, Msg: fmt.Sprintf("drafter.default %q is not one of manual, command, openai", c.Drafter.Default)}
	}
	if c.Drafter.Timeout != "" {
		if _, err := time.ParseDuration(c.Drafter.Timeout); err != nil {
			return nil, &ConfigError{Path: ConfigFile, Msg: fmt.Sprintf("drafter.timeout %q is not a duration such as \"10m\"", c.Drafter.Timeout)}
		}
	}
	switch c.Archive.Layout {
	case "", ArchiveFlat, ArchiveByYear:
	default:
		return nil, &ConfigError{Path: ConfigFile, Msg: fmt.Sprintf("archive.layout %q is not one of %s, %s", c.Archive.Layout, ArchiveFlat, ArchiveByYear)}
	}
	if c.Context.MaxUnits < 0 || c.Context.MaxUnits > 100 {
		return nil, &ConfigError{Path: ConfigFile, Msg: fmt.Sprintf("context.max_units %d must be between 1 and 100", c.Context.MaxUnits)}
	}
	if c.Context.MaxChars != 0 && (c.Context.MaxChars < 2000 || c.Context.MaxChars > 1000000) {
		return nil, &ConfigError{Path: ConfigFile, Msg: fmt.Sprintf("context.max_chars %d must be between 2000 and 1000000", c.Context.MaxChars)}
	}
	seen := map[string]bool{}
	for i, r := range c.Roots {
		p := cleanRel(r.Path)
		if r.Path == "" || p == ".." || strings.HasPrefix(p, "../") || strings.HasPrefix(r.Path, "/") {
			return nil, &ConfigError{Path: ConfigFile, Msg: fmt.Sprintf("roots[%d].path %q must be a directory inside the repository", i, r.Path)}
		}
		if seen[p] {
			return nil, &ConfigError{Path: ConfigFile, Msg: fmt.Sprintf("roots[%d].path %q is listed twice", i, r.Path)}
		}
		seen[p] = true
		if r.Style != "" {
			if _, ok := ParseStyle(r.Style); !ok {
				return nil, &ConfigError{Path: ConfigFile, Msg: fmt.Sprintf("roots[%d].style %q is not one of nygard, madr, madr2, table, ocp", i, r.Style)}
			}
		}
		if r.Digits < 0 || r.Digits > 9 {
			return nil, &ConfigError{Path: ConfigFile, Msg: fmt.Sprintf("roots[%d].digits %d must be between 0 and 9", i, r.Digits)}
		}
	}
	return &c, nil
}

// cleanRel normalises a slash path relative to the repository root ("" for
// the root itself).
func cleanRel(p string) string {
	p = strings.ReplaceAll(p, "\\", "/")
	var parts []string
	for _, s := range strings.Split(p, "/") {
		switch s {
		case "", ".":
		case "..":
			if len(parts) > 0 && parts[len(parts)-1] != ".." {
				parts = parts[:len(parts)-1]
			} else {
				parts = append(parts, "..")
			}
		default:
			parts = append(parts, s)
		}
	}
	return strings.Join(parts, "/")
}
