package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/git-adr/git-adr/adr"
	"github.com/git-adr/git-adr/adr/trust"
)

type trustOptions struct {
	show, revoke, json bool
}

func trustCommand(env *Env) *cli.Command {
	var o trustOptions
	return &cli.Command{
		Name:      "trust",
		Usage:     "trust this repository's .adr.toml to run the programs and send the credentials it names",
		UsageText: "git adr trust [--show | --revoke] [--json]",
		Description: `Settings that run a program or send a credential (drafter.command,
drafter.openai.base_url, drafter.openai.api_key_env, context.embeddings.base_url,
context.embeddings.api_key_env) are honoured from git config, or from an
.adr.toml you trusted. trust prints what the file asks to
run and where it would send which variable, then records the file's path and
SHA-256 outside the repository (${XDG_STATE_HOME:-~/.local/state}/git-adr/trust).
Any change to the file makes it untrusted again. Review the file first.`,
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "show", Usage: "say whether the file is trusted and what it asks to run; record nothing", Destination: &o.show},
			&cli.BoolFlag{Name: "revoke", Usage: "forget the trust of the file", Destination: &o.revoke},
			&cli.BoolFlag{Name: "json", Usage: "print the result as JSON", Destination: &o.json},
		},
		Action: func(c *cli.Context) error {
			if c.NArg() > 0 {
				return usagef("trust takes no arguments, got %q", c.Args().First()).
					hint("it trusts the .adr.toml at the root of the repository; use -C DIR for another repository")
			}
			if o.show && o.revoke {
				return usagef("--show and --revoke are mutually exclusive").hint("run `git adr trust --show` to see what is trusted")
			}
			return runTrust(env, o)
		},
	}
}

// resolver gives the drafter settings in effect for cfg, the repository's
// .adr.toml: git config first, then the file when it is trusted.
func (e *Env) resolver(cfg *adr.Config) (*trust.Resolver, error) {
	repo, err := e.Repo()
	if err != nil {
		return nil, err
	}
	store, _ := trust.UserStore(os.Getenv) // no store: nothing is trusted; `git adr trust` says why
	return trust.ForRepo(repo, cfg, store), nil
}

func runTrust(env *Env, o trustOptions) error {
	repo, err := env.Repo()
	if err != nil {
		return err
	}
	store, err := trust.UserStore(os.Getenv)
	if err != nil {
		return failf("%v", err).hint("git-adr keeps trust outside the repository, in ${XDG_STATE_HOME:-$HOME/.local/state}/git-adr/trust")
	}
	path := repo.Abs(adr.ConfigFile)
	if o.revoke {
		rep, err := store.Revoked(path)
		if err != nil {
			return err
		}
		if o.json {
			return writeJSON(env.Out, rep)
		}
		if *rep.Revoked {
			fmt.Fprintf(env.Out, "revoked the trust of %s\n", rep.Path)
		} else {
			fmt.Fprintf(env.Out, "%s was not trusted; nothing to revoke\n", rep.Path)
		}
		return nil
	}
	cfg, err := adr.LoadConfig(repo.WorktreeFS())
	if err != nil {
		var ce *adr.ConfigError
		if errors.As(err, &ce) {
			return usagef("%v", err).hint("fix " + ce.Path + "; docs/configuration.md describes it; nothing was trusted")
		}
		return err
	}
	rv := trust.ForRepo(repo, cfg, store)
	rep := trust.NewReport(rv, func(v trust.Value) string { return v.Does(repo.Top) })
	if cfg.SHA256 == "" && !o.show {
		return failf("there is no %s in %s: nothing to trust", adr.ConfigFile, repo.Top).
			hint("git config alone can name a drafter: git config adr.drafter.command COMMAND")
	}
	if !o.show && !o.json {
		// What is trusted is shown before it is recorded.
		writeAsks(env.Out, rep.Path, cfg.SHA256, rep.Asks)
	}
	if err := rep.Settle(rv, !o.show, time.Now()); err != nil {
		return trustStoreErr(err)
	}
	if o.json {
		return writeJSON(env.Out, rep)
	}
	if !o.show {
		fmt.Fprintf(env.Out, "trusted %s\n", rep.Path)
		for _, e := range rep.InEffect {
			if e.State == "set" && e.GitScope != "" && rep.AsksFor(e.Key) {
				fmt.Fprintf(env.Out, "note: git config %s (%s scope) overrides %s\n", e.GitKey, e.GitScope, e.Key)
			}
		}
		fmt.Fprintln(env.Out, "any change to the file makes it untrusted again; `git adr trust --revoke` forgets it")
		return nil
	}
	writeShow(env.Out, rep)
	return nil
}

// writeAsks prints what a file asks git-adr to run and send.
func writeAsks(w io.Writer, path, sum string, asks []trust.Ask) {
	fmt.Fprintf(w, "%s (sha256 %s)\n", path, sum)
	if len(asks) == 0 {
		fmt.Fprintln(w, "asks git-adr to run no program and to send no credential")
		return
	}
	fmt.Fprintln(w, "asks git-adr to:")
	for _, a := range asks {
		fmt.Fprintf(w, "  %s (%s)\n", a.Does, a.Key)
	}
}

// writeShow prints `git adr trust --show`.
func writeShow(w io.Writer, rep trust.Report) {
	switch rep.State {
	case trust.Absent:
		fmt.Fprintf(w, "%s does not exist: only git config names programs and credentials\n", rep.Path)
	case trust.Trusted:
		writeAsks(w, rep.Path, rep.SHA256, rep.Asks)
		fmt.Fprintf(w, "state: trusted since %s\n", rep.TrustedAt)
	case trust.Changed:
		writeAsks(w, rep.Path, rep.SHA256, rep.Asks)
		fmt.Fprintf(w, "state: not trusted: the file changed since it was trusted at %s (sha256 %s then)\n", rep.TrustedAt, rep.TrustedSHA256)
	default:
		writeAsks(w, rep.Path, rep.SHA256, rep.Asks)
		fmt.Fprintln(w, "state: not trusted")
	}
	fmt.Fprintln(w, "in effect:")
	for _, e := range rep.InEffect {
		switch e.State {
		case "set":
			fmt.Fprintf(w, "  %s: %q from %s\n", e.Key, e.Value, e.From)
		case "ignored":
			fmt.Fprintf(w, "  %s: none: the file's value is ignored until it is trusted (or set git config %s)\n", e.Key, e.GitKey)
		default:
			fmt.Fprintf(w, "  %s: unset\n", e.Key)
		}
	}
}

func trustStoreErr(err error) error {
	var se *trust.StoreError
	if errors.As(err, &se) {
		return failf("%v", err).hint("remove it with `git adr trust --revoke`, review the repository's .adr.toml, then `git adr trust` again")
	}
	return err
}

// untrustedErr is the usage error for a setting only an untrusted
// .adr.toml sets: it names the key and the file, and the two ways on.
func untrustedErr(ue *trust.UntrustedError) error {
	review := "review " + ue.Status.Path + ", then run `git adr trust` (it prints what the file asks to run first)"
	if ue.Status.State == trust.Changed {
		review = "review what changed in " + ue.Status.Path + ", then run `git adr trust` again"
	}
	set := fmt.Sprintf("or set it yourself, outside the repository: git config %s %s", ue.GitKey, shellQuote(ue.Value))
	if strings.ContainsFunc(ue.Value, isControl) {
		set = fmt.Sprintf("or set it yourself, outside the repository: git config %s VALUE", ue.GitKey)
	}
	return usagef("%v; nothing was run or sent", ue).hint(review, set)
}

func isControl(r rune) bool { return r < 0x20 || r == 0x7f || r >= 0x80 && r < 0xa0 }

// shellQuote quotes s for a POSIX shell.
func shellQuote(s string) string {
	if s != "" && !strings.ContainsFunc(s, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("-_./:=@%+,", r))
	}) {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
