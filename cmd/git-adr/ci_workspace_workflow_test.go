package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The nightly workflow across an organisation's repositories
// (docs/integrations/ci/github-actions-workspace.yml) is run here as the
// CI would run it: its own steps, by bash, in a checkout of a repository
// that keeps the workspace file, which names two repositories by https
// URLs; the job's global git configuration rewrites those to bare remotes
// here, as a job's credentials or rewrites reach a private host. One
// repository links a record the other lacks. Run twice with the same home
// folder, as the cache step restores the mirrors: the second sync fetches
// nothing.
func TestGitHubActionsWorkspaceWorkflow(t *testing.T) {
	var wf githubWorkflow
	readCIFile(t, "github-actions-workspace.yml", &wf)
	on, ok := wf.On.(map[string]any)
	if !ok || on["schedule"] == nil || len(wf.Jobs) != 1 {
		t.Fatalf("the workflow runs on %v with %d jobs; want one job on a schedule", wf.On, len(wf.Jobs))
	}
	env := procEnv(t)
	var home, cfg string
	for _, kv := range env {
		if v, ok := strings.CutPrefix(kv, "HOME="); ok {
			home = v
		}
		if v, ok := strings.CutPrefix(kv, "GIT_CONFIG_GLOBAL="); ok {
			cfg = v
		}
	}
	remotes := t.TempDir()
	records := map[string]map[string]string{
		"pay": {"doc/adr/0001-retry-payments.md": "# 1. Retry payments\n\nDate: 2026-01-01\n\n## Status\n\nAccepted\n\n## Decision\n\nFailed payments are retried, as ops:ADR-0009 says.\n"},
		"ops": {"doc/adr/0001-page-on-call.md": "# 1. Page on call\n\nDate: 2026-01-02\n\n## Status\n\nAccepted\n\n## Decision\n\nWe page on call.\n"},
	}
	for name, files := range records {
		dev := t.TempDir()
		runGit(t, dev, env, "init", "-q")
		for p, text := range files {
			os.MkdirAll(filepath.Join(dev, filepath.Dir(p)), 0o755)
			os.WriteFile(filepath.Join(dev, p), []byte(text), 0o644)
		}
		runGit(t, dev, env, "add", "-A")
		runGit(t, dev, env, "commit", "-qm", "log")
		runGit(t, "", env, "clone", "-q", "--bare", dev, filepath.Join(remotes, name+".git"))
	}
	// The job's global configuration: the https host is these remotes.
	f, err := os.OpenFile(cfg, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString("[url \"file://" + filepath.ToSlash(remotes) + "/\"]\n\tinsteadOf = https://git.example.com/org/\n")
	f.Close()
	platform := t.TempDir()
	runGit(t, platform, env, "init", "-q")
	os.WriteFile(filepath.Join(platform, "adr-workspace.toml"), []byte("[[repo]]\nname = \"pay\"\nurl = \"https://git.example.com/org/pay.git\"\n\n[[repo]]\nname = \"ops\"\nurl = \"https://git.example.com/org/ops.git\"\n"), 0o644)
	runGit(t, platform, env, "add", "-A")
	runGit(t, platform, env, "commit", "-qm", "workspace")

	for run := 1; run <= 2; run++ {
		work := filepath.Join(t.TempDir(), "work")
		summary := filepath.Join(t.TempDir(), "summary.md")
		stepEnv := append(env[:len(env):len(env)], "CI=true", "GITHUB_ACTIONS=true", "GITHUB_EVENT_NAME=schedule", "GITHUB_STEP_SUMMARY="+summary)
		failed := false
		var logs []string
		for _, job := range wf.Jobs {
			for _, s := range job.Steps {
				switch {
				case strings.HasPrefix(s.Uses, "actions/checkout@"):
					runGit(t, "", env, "clone", "-q", platform, work)
				case strings.HasPrefix(s.Uses, "actions/cache@"):
					// The cache holds the mirrors where sync keeps them.
					if s.With["path"] != "~/.cache/git-adr/workspace" {
						t.Fatalf("the cache step keeps %v, not the mirrors' folder ~/.cache/git-adr/workspace", s.With["path"])
					}
				case strings.HasPrefix(s.Uses, "actions/setup-go@"), strings.HasPrefix(s.Uses, "actions/upload-artifact@"):
				case s.Uses != "":
					t.Fatalf("step %q uses %s, which this test does not know", s.Name, s.Uses)
				case strings.TrimSpace(s.Run) == ciInstall:
					// The test binary is git-adr, on PATH.
				case failed && s.If != "always()":
				default:
					out, code := ciStep(t, work, stepEnv, s.Run)
					logs = append(logs, out)
					if strings.Contains(s.Run, "workspace sync") && code != 0 {
						t.Fatalf("run %d: sync failed (exit %d)", run, code)
					}
					failed = failed || code != 0
				}
			}
		}
		if !failed {
			t.Errorf("run %d: a broken link into another repository did not fail the job", run)
		}
		sync := logs[0]
		want := []string{"pay: fetched ", "ops: fetched "}
		if run == 2 {
			want = []string{"pay: up to date at ", "ops: up to date at "}
		}
		for _, w := range want {
			if !strings.Contains(sync, w) {
				t.Errorf("run %d: sync printed\n%s\nwant a line with %q", run, sync, w)
			}
		}
		if !strings.Contains(strings.Join(logs, ""), "pay:doc/adr/0001-retry-payments.md:11: broken-workspace-link: ops:ADR-0009 names no record of ops") {
			t.Errorf("run %d: check printed no finding for the broken link:\n%s", run, strings.Join(logs, ""))
		}
		sum, err := os.ReadFile(summary)
		if err != nil || !strings.Contains(string(sum), "| pay | doc/adr/0001-retry-payments.md:11 | broken-workspace-link |") {
			t.Errorf("run %d: the job summary has no row for the broken link (%v):\n%s", run, err, sum)
		}
		export, err := os.ReadFile(filepath.Join(work, "decisions.jsonl"))
		if err != nil || strings.Count(string(export), "\n") != 2 || !strings.Contains(string(export), `"qualified_id":"pay:ADR-0001"`) || !strings.Contains(string(export), `"qualified_id":"ops:ADR-0001"`) {
			t.Errorf("run %d: the export holds (%v):\n%s", run, err, export)
		}
		mirrors, _ := filepath.Glob(filepath.Join(home, ".cache", "git-adr", "workspace", "*.git"))
		if len(mirrors) != 2 {
			t.Errorf("run %d: %d mirrors in ~/.cache/git-adr/workspace, want 2", run, len(mirrors))
		}
	}
}

// The scheduled GitLab job (docs/integrations/ci/gitlab-ci-workspace.yml)
// run as GitLab runs it: its variables expanded, its scripts by bash in
// the project's checkout, twice with the cache's folder kept between the
// runs. A repository that cannot be fetched does not stop the job before
// check, which fails it naming that repository.
func TestGitLabWorkspaceJob(t *testing.T) {
	job := onlyGitLabJob(t, "gitlab-ci-workspace.yml", "adr-workspace")
	if len(job.Rules) != 1 || job.Rules[0]["if"] != `$CI_PIPELINE_SOURCE == "schedule"` || job.Artifacts.When != "always" {
		t.Fatalf("rules %v, artifacts when %q: the job is for scheduled pipelines and keeps its export when it fails", job.Rules, job.Artifacts.When)
	}
	if len(job.Cache.Paths) != 1 || job.Cache.Paths[0] != ".cache/git-adr/workspace" || job.Variables["XDG_CACHE_HOME"] != "$CI_PROJECT_DIR/.cache" {
		t.Fatalf("cache %v with XDG_CACHE_HOME %q: the cache must hold the mirrors' folder", job.Cache.Paths, job.Variables["XDG_CACHE_HOME"])
	}
	env := procEnv(t)
	remotes := t.TempDir()
	dev := t.TempDir()
	runGit(t, dev, env, "init", "-q")
	os.MkdirAll(filepath.Join(dev, "doc", "adr"), 0o755)
	os.WriteFile(filepath.Join(dev, "doc", "adr", "0001-use-queues.md"), []byte("# 1. Use queues\n\nDate: 2026-01-01\n\n## Status\n\nAccepted\n\n## Decision\n\nWe use queues.\n"), 0o644)
	runGit(t, dev, env, "add", "-A")
	runGit(t, dev, env, "commit", "-qm", "log")
	runGit(t, "", env, "clone", "-q", "--bare", dev, filepath.Join(remotes, "plat.git"))
	platform := t.TempDir()
	runGit(t, platform, env, "init", "-q")
	os.WriteFile(filepath.Join(platform, "adr-workspace.toml"), []byte("[[repo]]\nname = \"plat\"\nurl = \"file://"+filepath.ToSlash(remotes)+"/plat.git\"\n\n[[repo]]\nname = \"gone\"\nurl = \"file://"+filepath.ToSlash(remotes)+"/gone.git\"\n"), 0o644)
	runGit(t, platform, env, "add", "-A")
	runGit(t, platform, env, "commit", "-qm", "workspace")
	cache := t.TempDir() // what GitLab's cache keeps between the runs
	for run := 1; run <= 2; run++ {
		work := filepath.Join(t.TempDir(), "work")
		runGit(t, "", env, "clone", "-q", platform, work)
		if run == 2 {
			if err := os.CopyFS(filepath.Join(work, job.Cache.Paths[0]), os.DirFS(cache)); err != nil {
				t.Fatal(err)
			}
		}
		e := append(env[:len(env):len(env)], "CI=true", "GITLAB_CI=true", "CI_PIPELINE_SOURCE=schedule", "CI_PROJECT_DIR="+work)
		for k, v := range job.Variables {
			e = append(e, k+"="+os.Expand(v, func(name string) string {
				if name == "CI_PROJECT_DIR" {
					return work
				}
				return ""
			}))
		}
		out, code := ciStep(t, work, e, job.script())
		if code != 1 || !strings.Contains(out, "gone: repository-not-read: ") {
			t.Fatalf("run %d: exit %d; want 1 with gone named as not read:\n%s", run, code, out)
		}
		want := "plat: fetched "
		if run == 2 {
			want = "plat: up to date at "
		}
		if !strings.Contains(out, want) {
			t.Errorf("run %d: the log has no %q:\n%s", run, want, out)
		}
		export, err := os.ReadFile(filepath.Join(work, job.Artifacts.Paths[0]))
		if err != nil || !strings.Contains(string(export), `"qualified_id":"plat:ADR-0001"`) {
			t.Errorf("run %d: the export (%v):\n%s", run, err, export)
		}
		os.RemoveAll(cache)
		if err := os.CopyFS(cache, os.DirFS(filepath.Join(work, job.Cache.Paths[0]))); err != nil {
			t.Fatalf("run %d: the cache's folder: %v", run, err)
		}
	}
}
