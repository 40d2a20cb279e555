package workflow

import (
	"fmt"
	"io"
	"os"
	"time"

	"github.com/git-adr/git-adr/adr"
	"github.com/git-adr/git-adr/adr/compaction"
	"github.com/git-adr/git-adr/adr/trust"
	"github.com/git-adr/git-adr/gitops"
)

// DrafterSetup is the drafter a run uses, with the settings it must
// disclose before any consent: what it runs or where it sends what, and
// where each of those settings comes from.
type DrafterSetup struct {
	// Drafter is nil for the manual drafter.
	Drafter compaction.Drafter
	Name    string
	// Command is the command drafter's program.
	Command trust.Value
	// BaseURL and Model are where the openai drafter sends the evidence;
	// KeyEnv, when HasKey, the variable its Bearer token is read from.
	BaseURL trust.Value
	Model   string
	KeyEnv  trust.Value
	HasKey  bool
}

// UsageError is a request that cannot be done as asked (a drafter that
// cannot be set up, a draft that cannot be submitted): a usage error, with
// the next thing to do (Hint, "" when there is none).
type UsageError struct{ Msg, Hint string }

func (e *UsageError) Error() string { return e.Msg }

// NewDrafter sets up the drafter named name (cfg's default when ""). The
// settings that run a program or send a credential come from git config or
// a trusted .adr.toml, through rv: a value only an untrusted file sets is
// a *trust.UntrustedError here, before any plan is made. A command
// drafter runs in repo's top directory and writes its diagnostics to
// stderr.
func NewDrafter(repo *gitops.Repo, cfg *adr.Config, rv *trust.Resolver, name string, stderr io.Writer) (*DrafterSetup, error) {
	if name == "" {
		name = cfg.Drafter.Default
	}
	timeout := 10 * time.Minute
	if cfg.Drafter.Timeout != "" {
		timeout, _ = time.ParseDuration(cfg.Drafter.Timeout)
	}
	get := func(s trust.Setting) (trust.Value, bool, error) {
		v, ok, err := rv.Get(s)
		return v, ok && err == nil && v.Value != "", err
	}
	switch name {
	case "":
		return nil, &UsageError{Msg: fmt.Sprintf("no drafter: pass --drafter manual|command|openai or set [drafter] default in %s", adr.ConfigFile),
			Hint: "docs/drafters.md shows each drafter's configuration"}
	case "manual":
		return &DrafterSetup{Name: "manual"}, nil
	case "command":
		cmd, ok, err := get(trust.DrafterCommand)
		if err != nil {
			return nil, err
		}
		if !ok {
			return nil, &UsageError{Msg: fmt.Sprintf("--drafter command needs a command: git config adr.drafter.command, or [drafter] command in a trusted %s", adr.ConfigFile),
				Hint: `for example: git config adr.drafter.command "scripts/draft-adr.sh"`}
		}
		return &DrafterSetup{Name: "command", Command: cmd,
			Drafter: &compaction.CommandDrafter{Command: cmd.Value, Dir: repo.Top, Stderr: stderr, Timeout: timeout,
				Env: []string{"GIT_ADR_REPO=" + repo.Top}}}, nil
	case "openai":
		base, ok, err := get(trust.OpenAIBaseURL)
		if err != nil {
			return nil, err
		}
		model := cfg.Drafter.OpenAI.Model
		if v, err := repo.Config("adr.drafter.openai.model"); err == nil {
			model = v
		}
		if !ok || model == "" {
			return nil, &UsageError{Msg: fmt.Sprintf("--drafter openai needs a base URL and a model: git config adr.drafter.openai.baseUrl and adr.drafter.openai.model, or [drafter.openai] base_url and model in a trusted %s", adr.ConfigFile),
				Hint: `for example: git config adr.drafter.openai.baseUrl http://localhost:11434/v1; git config adr.drafter.openai.model llama3.1`}
		}
		keyEnv, hasKey, err := get(trust.OpenAIKeyEnv)
		if err != nil {
			return nil, err
		}
		d := &DrafterSetup{Name: "openai", BaseURL: base, Model: model, KeyEnv: keyEnv, HasKey: hasKey}
		key := ""
		if hasKey {
			if key = os.Getenv(keyEnv.Value); key == "" {
				return nil, &UsageError{Msg: fmt.Sprintf("the openai drafter reads its key from $%s, which is empty", keyEnv.Value),
					Hint: "export " + keyEnv.Value + "=... (never put the key in " + adr.ConfigFile + ")"}
			}
		}
		d.Drafter = &compaction.OpenAIDrafter{BaseURL: base.Value, Model: model, APIKey: key, Timeout: timeout}
		return d, nil
	}
	return nil, &UsageError{Msg: fmt.Sprintf("--drafter %q is not manual, command or openai", name)}
}
