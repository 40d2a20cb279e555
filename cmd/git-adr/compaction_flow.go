package main

import (
	"bufio"
	"errors"
	"fmt"
	"strings"

	"github.com/git-adr/git-adr/adr"
	"github.com/git-adr/git-adr/adr/compaction"
	"github.com/git-adr/git-adr/adr/compaction/workflow"
	"github.com/git-adr/git-adr/adr/plans"
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

// volumeText says how much a drafter would read and what it may cost.
func volumeText(p *compaction.Plan, cfg *adr.Config) string {
	v, c := p.Read, p.Read.Estimate(cfg)
	s := fmt.Sprintf("read volume: %d bytes, %d code points, %d o200k tokens in %d batch(es)", v.Bytes, v.CodePoints, v.TokensO200k, v.Batches)
	s += fmt.Sprintf("\ncost estimate: about %d input and %d output tokens (an estimate: output varies by model)", c.Input, c.Output)
	if c.Priced {
		s += fmt.Sprintf(", about %.4f in the configured currency", c.Money)
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

// usageErr is a workflow request that cannot be done as asked (exit 2),
// with its hint.
func usageErr(ue *workflow.UsageError) error {
	e := usagef("%s", ue.Msg)
	if ue.Hint != "" {
		e.hint(ue.Hint)
	}
	return e
}

// drafterSetup is the drafter a run uses, with the disclosure shown
// before consent: what it runs or where it sends what, and where each of
// those settings comes from.
type drafterSetup struct {
	drafter    compaction.Drafter // nil for manual
	name       string
	disclosure []string
}

// drafterFor sets up the drafter a run uses (workflow.NewDrafter). A value
// only an untrusted .adr.toml sets is refused here, before any plan is
// made, whatever --yes says.
func drafterFor(env *Env, cfg *adr.Config, name string) (*drafterSetup, error) {
	repo, err := env.Repo()
	if err != nil {
		return nil, err
	}
	rv, err := env.resolver(cfg)
	if err != nil {
		return nil, err
	}
	ds, err := workflow.NewDrafter(repo, cfg, rv, name, env.Err)
	var de *workflow.UsageError
	var ue *trust.UntrustedError
	switch {
	case errors.As(err, &de):
		return nil, usageErr(de)
	case errors.As(err, &ue):
		return nil, untrustedErr(ue)
	case err != nil:
		return nil, trustStoreErr(err)
	}
	d := &drafterSetup{drafter: ds.Drafter, name: ds.Name}
	switch ds.Name {
	case "command":
		d.disclosure = []string{
			fmt.Sprintf("the command drafter runs %q with sh -c in %s, once per batch", ds.Command.Value, repo.Top),
			"  from " + ds.Command.Origin(),
		}
	case "openai":
		d.disclosure = []string{
			fmt.Sprintf("the openai drafter sends the evidence to %q (model %q)", trust.ChatURL(ds.BaseURL.Value), ds.Model),
			"  from " + ds.BaseURL.Origin(),
		}
		if ds.HasKey {
			d.disclosure = append(d.disclosure, "  with "+trust.EnvRef(ds.KeyEnv.Value)+" as the Bearer token", "  from "+ds.KeyEnv.Origin())
		} else {
			d.disclosure = append(d.disclosure, "  with no key (no api_key_env is set)")
		}
	}
	return d, nil
}

// receipt records that a plan waits for approval, or what became of it.
type receipt = plans.Receipt

// writeReceipt writes a plan's receipt (plans.WriteReceipt).
func writeReceipt(env *Env, rc receipt) (string, error) {
	repo, err := env.Repo()
	if err != nil {
		return "", err
	}
	return plans.WriteReceipt(repo, rc)
}
