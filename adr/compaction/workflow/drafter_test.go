package workflow

import (
	"errors"
	"io"
	"path/filepath"
	"testing"

	"github.com/git-adr/git-adr/adr"
	"github.com/git-adr/git-adr/adr/compaction"
	"github.com/git-adr/git-adr/adr/trust"
	"github.com/git-adr/git-adr/internal/gittest"
)

// The drafter's program and endpoint come from git config; an untrusted
// .adr.toml's are refused; what is missing is a UsageError naming it.
func TestNewDrafter(t *testing.T) {
	repo := gittest.Repo(t)
	cfg := &adr.Config{}
	cfg.Drafter.Command = "scripts/evil.sh" // an untrusted file's
	rv := &trust.Resolver{File: cfg, Path: filepath.Join(repo.Top, adr.ConfigFile), Git: repo}
	var de *UsageError
	if _, err := NewDrafter(repo, &adr.Config{}, rv, "", io.Discard); !errors.As(err, &de) || de.Hint == "" {
		t.Errorf("no drafter named or configured: %v", err)
	}
	if _, err := NewDrafter(repo, cfg, rv, "gpt", io.Discard); !errors.As(err, &de) || de.Msg != `--drafter "gpt" is not manual, command or openai` {
		t.Errorf("unknown drafter: %v", err)
	}
	if d, err := NewDrafter(repo, cfg, rv, "manual", io.Discard); err != nil || d.Drafter != nil || d.Name != "manual" {
		t.Errorf("manual = %+v, %v", d, err)
	}
	var ue *trust.UntrustedError
	if _, err := NewDrafter(repo, cfg, rv, "command", io.Discard); !errors.As(err, &ue) {
		t.Errorf("a command only an untrusted .adr.toml sets: %v", err)
	}

	gittest.Git(t, repo.Top, "config", "adr.drafter.command", "scripts/draft.sh")
	cfg.Drafter.Timeout = "90s"
	d, err := NewDrafter(repo, cfg, rv, "command", io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	cd, ok := d.Drafter.(*compaction.CommandDrafter)
	if !ok || cd.Command != "scripts/draft.sh" || cd.Dir != repo.Top || cd.Timeout.String() != "1m30s" || !d.Command.FromGit() {
		t.Errorf("command drafter = %+v from %+v", d.Drafter, d.Command.From)
	}

	if _, err := NewDrafter(repo, cfg, rv, "openai", io.Discard); !errors.As(err, &de) {
		t.Errorf("openai without a base URL: %v", err)
	}
	gittest.Git(t, repo.Top, "config", "adr.drafter.openai.baseUrl", "http://localhost:11434/v1")
	gittest.Git(t, repo.Top, "config", "adr.drafter.openai.model", "llama3.1")
	gittest.Git(t, repo.Top, "config", "adr.drafter.openai.apiKeyEnv", "GIT_ADR_TEST_KEY")
	t.Setenv("GIT_ADR_TEST_KEY", "")
	if _, err := NewDrafter(repo, cfg, rv, "openai", io.Discard); !errors.As(err, &de) || de.Msg != "the openai drafter reads its key from $GIT_ADR_TEST_KEY, which is empty" {
		t.Errorf("openai with an empty key variable: %v", err)
	}
	t.Setenv("GIT_ADR_TEST_KEY", "sk-test")
	d, err = NewDrafter(repo, cfg, rv, "openai", io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	od, ok := d.Drafter.(*compaction.OpenAIDrafter)
	if !ok || od.BaseURL != "http://localhost:11434/v1" || od.Model != "llama3.1" || od.APIKey != "sk-test" || !d.HasKey || d.KeyEnv.Value != "GIT_ADR_TEST_KEY" {
		t.Errorf("openai drafter = %+v, setup %+v", d.Drafter, d)
	}
}
