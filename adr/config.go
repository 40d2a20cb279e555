package adr

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"strings"
	"time"

	"github.com/BurntSushi/toml"
	"github.com/git-adr/git-adr/internal/tomldepth"
)

// ConfigFile is the project configuration file at the repository root.
const ConfigFile = ".adr.toml"

// Config is the content of .adr.toml. Every field is optional.
type Config struct {
	// Style, Prefix and Digits are defaults for roots that do not set them.
	Style  string `toml:"style"`
	Prefix string `toml:"prefix"`
	Digits int    `toml:"digits"`
	// IndexFile names the generated index of each root (INDEX.md by
	// default): a log whose folder has a Jekyll index.md needs another name,
	// since both are one file on case-insensitive file systems.
	IndexFile string `toml:"index_file,omitempty"`
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
	// Hooks tunes git-adr's git hooks.
	Hooks HooksConfig `toml:"hooks,omitempty"`
	// Governance says who may accept decisions.
	Governance GovernanceConfig `toml:"governance,omitempty"`
	// Guard is the read guard for coding agents (package adr/guard).
	Guard GuardConfig `toml:"guard,omitempty"`
	// Archive says where `git adr archive` puts records.
	Archive ArchiveConfig `toml:"archive,omitempty"`
	// Scope gives records a code scope from outside their files (for
	// logs whose files should not be edited).
	Scope []ScopeConfig `toml:"scope,omitempty"`

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

// HooksConfig is the [hooks] table: what git-adr's pre-commit hook blocks.
type HooksConfig struct {
	// StaleView is "warn" (default) or "block": a commit that makes a
	// CURRENT view stale.
	StaleView string `toml:"stale_view,omitempty"`
	// Index is "fix" (default: a drifted INDEX.md is regenerated into the
	// commit) or "check" (it blocks).
	Index string `toml:"index,omitempty"`
	// Remind prints, never blocks, the decisions governing the staged
	// paths (within 800 tokens).
	Remind bool `toml:"remind,omitempty"`
}

// GovernanceConfig is the [governance] table: who may accept decisions.
type GovernanceConfig struct {
	// Strict requires every acceptance or publication commit to be signed
	// by an allowed signer (checked at acceptance, and by the pre-push and
	// pre-receive hooks).
	Strict bool `toml:"strict,omitempty"`
	// AllowedSigners is the ssh allowed-signers file (relative to the
	// repository root) strict mode checks signatures against; default
	// git's gpg.ssh.allowedSignersFile.
	AllowedSigners string `toml:"allowed_signers,omitempty"`
	// Approvers are the signers (principals of the allowed-signers file,
	// such as e-mail addresses) whose signature accepts; empty: any
	// allowed signer.
	Approvers []string `toml:"approvers,omitempty"`
}

// GuardConfig is the [guard] table: the read guard's mode. It is
// written by `git adr config guard MODE`; git config adr.guard.mode, when
// set, takes precedence over it (see docs/guard.md).
type GuardConfig struct {
	// Mode is "off" (default), "warn" or "guard".
	Mode string `toml:"mode,omitempty"`
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
	// Embeddings is the optional embeddings endpoint of task answers.
	Embeddings EmbeddingsConfig `toml:"embeddings,omitempty"`
}

// EmbeddingsConfig is an OpenAI-compatible embeddings endpoint
// (docs/commands/context.md#embeddings). BaseURL and APIKeyEnv decide
// where the log's text and a credential are sent, so they are honoured
// only from a trusted file (adr/trust).
type EmbeddingsConfig struct {
	BaseURL string `toml:"base_url,omitempty"`
	Model   string `toml:"model,omitempty"`
	// APIKeyEnv names the environment variable holding the key; the key
	// itself never goes in a file.
	APIKeyEnv string `toml:"api_key_env,omitempty"`
}

// RootConfig configures one ADR directory.
type RootConfig struct {
	Path     string `toml:"path"`
	Name     string `toml:"name"`
	Prefix   string `toml:"prefix"`
	Digits   int    `toml:"digits"`
	Style    string `toml:"style"`
	Template string `toml:"template"`
	// IndexFile overrides the top-level index_file for this root.
	IndexFile string `toml:"index_file,omitempty"`
}

// CheckConfig is the [check] table of .adr.toml.
type CheckConfig struct {
	// Ignore names finding kinds `git adr check` leaves out (see
	// [FindingKinds]), for example ["unknown-status"].
	Ignore []string `toml:"ignore,omitempty"`
	// RequireStatus says whether a record without any status is a
	// finding in a log where most records have none (MADR makes the
	// status optional). Unset, check reads such records as "status not
	// recorded" and says so once; false does the same silently; true
	// reports each one as unknown-status.
	RequireStatus *bool `toml:"require_status,omitempty"`
	// StaleProposalDays is the age after which a proposal is reported as
	// stale (0: 90 days; negative: never).
	StaleProposalDays int `toml:"stale_proposal_days,omitempty"`
	// ChurnCommits is how many commits may touch the paths a record in
	// force governs, since it was accepted, before it is reported as
	// possibly outdated (0: 50; negative: never).
	ChurnCommits int `toml:"churn_commits,omitempty"`
	// Warnings is "report" (default: staleness findings do not make
	// check exit 1) or "error".
	Warnings string `toml:"warnings,omitempty"`
}

// ScopeConfig is one [[scope]] table: records (by ID) and the path globs
// they govern.
type ScopeConfig struct {
	IDs   []string `toml:"ids"`
	Paths []string `toml:"paths"`
}

// Bounds of configuration values (docs/configuration.md).
const (
	// MaxDigits is the widest zero padding of record numbers: git-adr
	// reads numbers of 1 to 9 digits from file names, so a wider padding
	// would write records it could not read back.
	MaxDigits = 9
	// MaxDrafterTimeout bounds drafter.timeout.
	MaxDrafterTimeout = 24 * time.Hour
	// MaxPricePerMTok bounds the drafter.openai prices (currency units
	// per million tokens).
	MaxPricePerMTok = 10000
)

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
		// A link leading outside the repository, a special file, ...
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return nil, &ConfigError{Path: ConfigFile, Msg: fmt.Sprintf("cannot be read: %v", err)}
	}
	return ParseConfig(data)
}

// ParseConfig parses the bytes of an .adr.toml file.
func ParseConfig(data []byte) (*Config, error) {
	// A repository's file, someone else's input: the decoder would
	// recurse once per level of any depth (tomldepth).
	if line, deep := tomldepth.Check(data); deep {
		return nil, &ConfigError{Path: ConfigFile, Line: line, Msg: fmt.Sprintf("arrays or tables nested more than %d deep", tomldepth.Max)}
	}
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
	if c.Digits < 0 || c.Digits > MaxDigits {
		return nil, &ConfigError{Path: ConfigFile, Msg: fmt.Sprintf("digits %d must be between 1 and %d (0 or absent: read from the file names)", c.Digits, MaxDigits)}
	}
	if c.Style != "" {
		if _, ok := ParseStyle(c.Style); !ok {
			return nil, &ConfigError{Path: ConfigFile, Msg: fmt.Sprintf("style %q is not one of nygard, madr, madr2, table, ocp", c.Style)}
		}
	}
	for i, k := range c.Check.Ignore {
		if _, ok := ParseFindingKind(k); !ok {
			var names []string
			for _, fk := range append(append(append([]FindingKind(nil), FindingKinds...), CompactionKinds...), ScopeKinds...) {
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
	switch c.Hooks.StaleView {
	case "", "warn", "block":
	default:
		return nil, &ConfigError{Path: ConfigFile, Msg: fmt.Sprintf("hooks.stale_view %q is not warn or block", c.Hooks.StaleView)}
	}
	switch c.Check.Warnings {
	case "", "report", "error":
	default:
		return nil, &ConfigError{Path: ConfigFile, Msg: fmt.Sprintf("check.warnings %q is not report or error", c.Check.Warnings)}
	}
	for i, sc := range c.Scope {
		if len(sc.IDs) == 0 || len(sc.Paths) == 0 {
			return nil, &ConfigError{Path: ConfigFile, Msg: fmt.Sprintf("scope[%d] needs ids and paths", i)}
		}
	}
	switch c.Hooks.Index {
	case "", "fix", "check":
	default:
		return nil, &ConfigError{Path: ConfigFile, Msg: fmt.Sprintf("hooks.index %q is not fix or check", c.Hooks.Index)}
	}
	switch c.Guard.Mode {
	case "", "off", "warn", "guard":
	default:
		return nil, &ConfigError{Path: ConfigFile, Msg: fmt.Sprintf("guard.mode %q is not off, warn or guard", c.Guard.Mode)}
	}
	if c.Drafter.Timeout != "" {
		d, err := time.ParseDuration(c.Drafter.Timeout)
		if err != nil {
			return nil, &ConfigError{Path: ConfigFile, Msg: fmt.Sprintf("drafter.timeout %q is not a duration such as \"10m\"", c.Drafter.Timeout)}
		}
		if d < time.Second || d > MaxDrafterTimeout {
			return nil, &ConfigError{Path: ConfigFile, Msg: fmt.Sprintf("drafter.timeout %q must be between 1s and %s", c.Drafter.Timeout, MaxDrafterTimeout)}
		}
	}
	for _, p := range []struct {
		key string
		v   float64
	}{{"price_input_per_mtok", c.Drafter.OpenAI.PriceInput}, {"price_output_per_mtok", c.Drafter.OpenAI.PriceOutput}} {
		if math.IsNaN(p.v) || p.v < 0 || p.v > MaxPricePerMTok {
			return nil, &ConfigError{Path: ConfigFile, Msg: fmt.Sprintf("drafter.openai.%s %v must be between 0 and %d", p.key, p.v, MaxPricePerMTok)}
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
	if err := checkIndexFile("index_file", c.IndexFile); err != nil {
		return nil, err
	}
	seen := map[string]bool{}
	for i, r := range c.Roots {
		if err := checkIndexFile(fmt.Sprintf("roots[%d].index_file", i), r.IndexFile); err != nil {
			return nil, err
		}
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
		if t := cleanRel(r.Template); r.Template != "" && (t == "" || t == ".." || strings.HasPrefix(t, "../") || strings.HasPrefix(r.Template, "/") || strings.HasPrefix(r.Template, "\\") || len(r.Template) > 1 && r.Template[1] == ':') {
			return nil, &ConfigError{Path: ConfigFile, Msg: fmt.Sprintf("roots[%d].template %q must be a file inside the repository, relative to its top", i, r.Template)}
		}
		if r.Digits < 0 || r.Digits > MaxDigits {
			return nil, &ConfigError{Path: ConfigFile, Msg: fmt.Sprintf("roots[%d].digits %d must be between 1 and %d (0 or absent: read from the file names)", i, r.Digits, MaxDigits)}
		}
	}
	return &c, nil
}

// checkIndexFile accepts a file name (no folder) ending in .md.
func checkIndexFile(key, name string) error {
	if name == "" {
		return nil
	}
	if strings.ContainsAny(name, "/\\") || recordExt(name) == "" || strings.HasPrefix(name, ".") {
		return &ConfigError{Path: ConfigFile, Msg: fmt.Sprintf("%s %q must be a Markdown file name such as \"ADR-INDEX.md\", without a folder", key, name)}
	}
	return nil
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
