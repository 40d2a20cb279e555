package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
)

func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"git-adr": func() { setKillPoint(); setBarrier(); detachUnlessTerminal(); os.Exit(Main()) },
		// The adr-tools drop-in (shim.go): install-adr-shim links these
		// names to the binary.
		"adr":               func() { os.Exit(Main()) },
		"_adr_autocomplete": func() { os.Exit(Main()) },
		"mcp-client":        func() { os.Exit(mcpClientMain()) },
		// Cursors of any content, signed with a given key (cursorforge_test.go).
		"forge-cursor": func() { os.Exit(forgeCursorMain()) },
		// Drafters for compaction scenarios (fakedrafter_test.go).
		"fake-drafter": func() { os.Exit(fakeDrafterMain()) },
		"fake-openai":  func() { os.Exit(fakeOpenAIMain()) },
		"fill-draft":   func() { os.Exit(fillDraftMain()) },
		// An embeddings endpoint for context scenarios (fakeembeddings_test.go).
		"fake-embeddings": func() { os.Exit(fakeEmbeddingsMain()) },
	})
}

// TestScript runs every scenario in testdata/script against the real binary
// and the real git. UPDATE_SCRIPTS=1 rewrites the want-* sections.
func TestScript(t *testing.T) {
	testscript.Run(t, testscript.Params{
		Dir:                 filepath.Join("..", "..", "testdata", "script"),
		RequireExplicitExec: true,
		RequireUniqueNames:  true,
		UpdateScripts:       os.Getenv("UPDATE_SCRIPTS") == "1",
		Setup:               setupScript,
		Condition:           scriptCondition,
		Cmds:                map[string]func(*testscript.TestScript, bool, []string){"view-build": viewBuild},
	})
}

// scriptCondition adds [corpora]: true when the shared ADR corpora are
// present (see corporaDir), so scenarios over real logs skip elsewhere;
// and [hook-manager:NAME]: true when the hook manager NAME (pre-commit,
// lefthook, husky) is on PATH. .ci/run installs the three and sets
// GIT_ADR_HOOK_MANAGERS_REQUIRED=1 in CI, where a missing one is then an
// error, not a skipped scenario.
func scriptCondition(cond string) (bool, error) {
	if name, ok := strings.CutPrefix(cond, "hook-manager:"); ok {
		if _, err := exec.LookPath(name); err == nil {
			return true, nil
		}
		if os.Getenv("GIT_ADR_HOOK_MANAGERS_REQUIRED") == "1" {
			return false, fmt.Errorf("%s is not on PATH, and GIT_ADR_HOOK_MANAGERS_REQUIRED=1 (.ci/run installs it)", name)
		}
		return false, nil
	}
	if cond == "corpora" {
		d := corporaDir()
		if d == "" {
			return false, nil
		}
		_, err := os.Stat(d)
		return err == nil, nil
	}
	return false, fmt.Errorf("unknown condition %q", cond)
}

// setupScript makes every scenario hermetic: its own HOME and git
// configuration, a fixed identity, fixed dates and no system config.
func setupScript(e *testscript.Env) error {
	hideShimNames(e)
	home := filepath.Join(e.WorkDir, ".home")
	if err := os.MkdirAll(home, 0o755); err != nil {
		return err
	}
	gitconfig := filepath.Join(home, ".gitconfig")
	cfg := "[user]\n\tname = Ada Lovelace\n\temail = ada@example.com\n" +
		"[init]\n\tdefaultBranch = main\n[commit]\n\tgpgsign = false\n[advice]\n\tdetachedHead = false\n"
	if err := os.WriteFile(gitconfig, []byte(cfg), 0o644); err != nil {
		return err
	}
	for k, v := range map[string]string{
		"HOME":                    home,
		"XDG_CONFIG_HOME":         filepath.Join(home, ".config"),
		"GIT_CONFIG_NOSYSTEM":     "1",
		"GIT_CONFIG_GLOBAL":       gitconfig,
		"GIT_CEILING_DIRECTORIES": filepath.Dir(e.WorkDir),
		"GIT_AUTHOR_NAME":         "Ada Lovelace",
		"GIT_AUTHOR_EMAIL":        "ada@example.com",
		"GIT_COMMITTER_NAME":      "Ada Lovelace",
		"GIT_COMMITTER_EMAIL":     "ada@example.com",
		"GIT_AUTHOR_DATE":         "2026-01-15T10:00:00Z",
		"GIT_COMMITTER_DATE":      "2026-01-15T10:00:00Z",
		"TZ":                      "UTC",
		"NO_COLOR":                "1",
		"ADR_DATE":                "2026-01-15",
		"VISUAL":                  "",
		"EDITOR":                  "",
		"CORPORA":                 corporaDir(),
		// This repository, for scenarios that use its own files
		// (.pre-commit-hooks.yaml).
		"SOURCE_ROOT": sourceRoot(),
	} {
		e.Setenv(k, v)
	}
	return nil
}

// hideShimNames takes adr and _adr_autocomplete off the scenarios' PATH.
// They are registered so that the links install-adr-shim writes (to the
// test binary) dispatch to Main, but on PATH they would shadow the real
// adr-tools that interop_adr_tools.txtar drives.
func hideShimNames(e *testscript.Env) {
	for _, dir := range filepath.SplitList(e.Getenv("PATH")) {
		if _, err := os.Stat(filepath.Join(dir, "git-adr")); err != nil {
			continue
		}
		for _, name := range []string{"adr", "_adr_autocomplete"} {
			os.Remove(filepath.Join(dir, name))
		}
		return
	}
}

// sourceRoot is the repository's root directory.
func sourceRoot() string {
	d, _ := filepath.Abs(filepath.Join("..", ".."))
	return d
}

// corporaDir is ../shared/corpora from the repository root, or
// $GIT_ADR_CORPORA; "" when absent.
func corporaDir() string {
	if d := os.Getenv("GIT_ADR_CORPORA"); d != "" {
		return d
	}
	d, err := filepath.Abs(filepath.Join("..", "..", "..", "shared", "corpora"))
	if err != nil {
		return ""
	}
	if _, err := os.Stat(d); err != nil {
		return ""
	}
	return d
}
