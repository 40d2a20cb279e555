package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/git-adr/git-adr/adr"
	"github.com/git-adr/git-adr/adr/compaction"
	"github.com/git-adr/git-adr/adr/compaction/workflow"
	"github.com/git-adr/git-adr/adr/trust"
)

// startPlan makes (or continues) the plan of a drafting run
// (workflow.Start), with errors that say what to do.
func startPlan(env *Env, l *adr.Log, a *compaction.Analysis, o compaction.PlanOptions) (*compaction.Plan, string, error) {
	repo, err := env.Repo()
	if err != nil {
		return nil, "", err
	}
	p, commit, err := workflow.Start(repo, l, a, o)
	var ue *workflow.UncommittedError
	switch {
	case errors.Is(err, workflow.ErrNoCommit):
		return nil, "", failf("the repository has no commit yet; a plan reads the log at HEAD").hint("commit the ADR records first")
	case errors.As(err, &ue):
		return nil, "", failf("%v", ue).hint("commit or stash the changes to these records, then run the command again")
	case err != nil:
		return nil, "", planStoreErr(err)
	}
	return p, commit, nil
}

func planStoreErr(err error) error {
	switch {
	case errors.Is(err, compaction.ErrReserved):
		return withCode(ExitConflict, err).hint("another plan reserved the same number; run the command again to re-plan with fresh numbers")
	case errors.Is(err, compaction.ErrPlanChanged):
		return withCode(ExitConflict, err).hint("another git-adr moved the plan first; run the command again to re-plan")
	}
	return err
}

func blobOf(r *adr.Record) string { return workflow.BlobOf(r) }

// volumeText says how much a drafter would read and what it may cost.
func volumeText(p *compaction.Plan, cfg *adr.Config) string {
	v := p.Read
	s := fmt.Sprintf("read volume: %d bytes, %d code points, %d o200k tokens in %d batch(es)", v.Bytes, v.CodePoints, v.TokensO200k, v.Batches)
	out := v.TokensO200k/4 + 300*v.Batches
	s += fmt.Sprintf("\ncost estimate: about %d input and %d output tokens (an estimate: output varies by model)", v.TokensO200k+600*v.Batches, out)
	if cfg != nil && cfg.Drafter.OpenAI.PriceInput > 0 {
		money := float64(v.TokensO200k)/1e6*cfg.Drafter.OpenAI.PriceInput + float64(out)/1e6*cfg.Drafter.OpenAI.PriceOutput
		s += fmt.Sprintf(", about %.4f in the configured currency", money)
	}
	return s
}

// ask reads a yes/no answer from the terminal; anything but yes is no.
func ask(env *Env, question string) bool {
	fmt.Fprintf(env.Err, "%s [y/N] ", question)
	line, _ := bufio.NewReader(env.In).ReadString('\n')
	a := strings.ToLower(strings.TrimSpace(line))
	return a == "y" || a == "yes"
}

// drafterSetup is the drafter a run uses, with the disclosure shown
// before consent: what it runs or where it sends what, and where each of
// those settings comes from.
type drafterSetup struct {
	drafter    compaction.Drafter // nil for manual
	name       string
	disclosure []string
}

// drafterFor builds the drafter a run uses. The settings that run a
// program or send a credential come from git config or a trusted
// .adr.toml (adr/trust); a value only an untrusted file sets is refused
// here, before any plan is made, whatever --yes says.
func drafterFor(env *Env, cfg *adr.Config, name string) (*drafterSetup, error) {
	if name == "" {
		name = cfg.Drafter.Default
	}
	timeout := 10 * time.Minute
	if cfg.Drafter.Timeout != "" {
		timeout, _ = time.ParseDuration(cfg.Drafter.Timeout)
	}
	repo, err := env.Repo()
	if err != nil {
		return nil, err
	}
	rv, err := env.resolver(cfg)
	if err != nil {
		return nil, err
	}
	get := func(s trust.Setting) (trust.Value, bool, error) {
		v, ok, err := rv.Get(s)
		var ue *trust.UntrustedError
		if errors.As(err, &ue) {
			return v, false, untrustedErr(ue)
		}
		if err != nil {
			return v, false, trustStoreErr(err)
		}
		return v, ok && v.Value != "", nil
	}
	switch name {
	case "":
		return nil, usagef("no drafter: pass --drafter manual|command|openai or set [drafter] default in %s", adr.ConfigFile).
			hint("docs/drafters.md shows each drafter's configuration")
	case "manual":
		return &drafterSetup{name: "manual"}, nil
	case "command":
		cmd, ok, err := get(trust.DrafterCommand)
		if err != nil {
			return nil, err
		}
		if !ok {
			return nil, usagef("--drafter command needs a command: git config adr.drafter.command, or [drafter] command in a trusted %s", adr.ConfigFile).
				hint(`for example: git config adr.drafter.command "scripts/draft-adr.sh"`)
		}
		return &drafterSetup{name: "command",
			drafter: &compaction.CommandDrafter{Command: cmd.Value, Dir: repo.Top, Stderr: env.Err, Timeout: timeout,
				Env: []string{"GIT_ADR_REPO=" + repo.Top}},
			disclosure: []string{
				fmt.Sprintf("the command drafter runs %q with sh -c in %s, once per batch", cmd.Value, repo.Top),
				"  from " + sourceText(cmd),
			}}, nil
	case "openai":
		o := cfg.Drafter.OpenAI
		base, ok, err := get(trust.OpenAIBaseURL)
		if err != nil {
			return nil, err
		}
		model := o.Model
		if v, err := repo.Config("adr.drafter.openai.model"); err == nil {
			model = v
		}
		if !ok || model == "" {
			return nil, usagef("--drafter openai needs a base URL and a model: git config adr.drafter.openai.baseUrl and adr.drafter.openai.model, or [drafter.openai] base_url and model in a trusted %s", adr.ConfigFile).
				hint(`for example: git config adr.drafter.openai.baseUrl http://localhost:11434/v1; git config adr.drafter.openai.model llama3.1`)
		}
		keyEnv, hasKey, err := get(trust.OpenAIKeyEnv)
		if err != nil {
			return nil, err
		}
		d := &drafterSetup{name: "openai", disclosure: []string{
			fmt.Sprintf("the openai drafter sends the evidence to %q (model %q)", chatURL(base.Value), model),
			"  from " + sourceText(base),
		}}
		key := ""
		if hasKey {
			key = os.Getenv(keyEnv.Value)
			if key == "" {
				return nil, usagef("the openai drafter reads its key from $%s, which is empty", keyEnv.Value).hint("export " + keyEnv.Value + "=... (never put the key in " + adr.ConfigFile + ")")
			}
			d.disclosure = append(d.disclosure, "  with "+envRef(keyEnv.Value)+" as the Bearer token", "  from "+sourceText(keyEnv))
		} else {
			d.disclosure = append(d.disclosure, "  with no key (no api_key_env is set)")
		}
		d.drafter = &compaction.OpenAIDrafter{BaseURL: base.Value, Model: model, APIKey: key, Timeout: timeout}
		return d, nil
	}
	return nil, usagef("--drafter %q is not manual, command or openai", name)
}

// receipt records that a plan waits for approval, for the person who
// will give it (no terminal means no approval).
type receipt struct {
	Plan     string   `json:"plan"`
	Revision int      `json:"revision"`
	State    string   `json:"state"`
	Choices  []string `json:"choices"`
	Confirm  string   `json:"confirm,omitempty"`
	Review   string   `json:"review"`
	Time     string   `json:"time"`
}

func writeReceipt(env *Env, rc receipt) (string, error) {
	repo, err := env.Repo()
	if err != nil {
		return "", err
	}
	dir := filepath.Join(repo.AdrDir(), "receipts")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	rc.Time = time.Now().UTC().Format(time.RFC3339)
	data, _ := json.MarshalIndent(rc, "", "  ")
	p := filepath.Join(dir, rc.Plan+".json")
	return p, writeFileAtomic(p, append(data, '\n'))
}
