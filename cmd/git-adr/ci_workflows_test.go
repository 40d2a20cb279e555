package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"

	"github.com/git-adr/git-adr/adr/audit"
)

// The CI files users copy (docs/integrations/ci) are run here as the CI
// would run them: their own steps, parsed from the files, by bash, against
// a real repository cloned from a real remote, with the variables the CI
// sets, and git-adr (the test binary) on PATH where they install it. A log
// with old findings is checked on two pull requests: a valid acceptance,
// which passes, and a new broken link, which fails with an annotation (and
// a job summary) on GitHub and a code quality report on GitLab.

const ciInstall = "go install github.com/git-adr/git-adr/cmd/git-adr@latest"

// ciRecords are the log at the base: two old findings (an unknown status,
// a one-way link) no pull request introduced.
var ciRecords = map[string]string{
	"doc/adr/0001-use-postgresql.md":   "# 1. Use PostgreSQL\n\nDate: 2026-01-01\n\n## Status\n\nAccepted\n\n## Decision\n\nOrders are stored in PostgreSQL.\n",
	"doc/adr/0002-cache-reads.md":      "# 2. Cache reads\n\nDate: 2026-01-02\n\n## Status\n\nOn hold\n\n## Decision\n\nReads are cached.\n",
	"doc/adr/0003-pool-connections.md": "# 3. Pool connections\n\nDate: 2026-01-03\n\n## Status\n\nAccepted\n\nAmends [1. Use PostgreSQL](0001-use-postgresql.md)\n\n## Decision\n\nConnections go through PgBouncer.\n",
	"doc/adr/0004-use-kafka.md":        "# 4. Use Kafka\n\nDate: 2026-01-04\n\n## Status\n\nProposed\n\n## Decision\n\nEvents go through Kafka.\n",
}

// ciCases are the pull requests ciRemote makes, and whether the CI must
// fail them.
var ciCases = []struct {
	branch string
	fails  bool
}{{"accept", false}, {"broken", true}}

// ciRemote makes a bare remote whose main holds ciRecords and two pull
// request branches: "accept" accepts ADR-0004, "broken" links a file that
// does not exist.
func ciRemote(t *testing.T, env []string) string {
	t.Helper()
	remote := filepath.Join(t.TempDir(), "remote.git")
	runGit(t, "", env, "init", "-q", "--bare", remote)
	dev := t.TempDir()
	runGit(t, dev, env, "init", "-q")
	for p, text := range ciRecords {
		if err := os.MkdirAll(filepath.Join(dev, filepath.Dir(p)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dev, p), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	runGit(t, dev, env, "add", "-A")
	runGit(t, dev, env, "commit", "-qm", "log")
	runGit(t, dev, env, "remote", "add", "origin", remote)
	runGit(t, dev, env, "push", "-q", "origin", "main")
	runGit(t, dev, env, "switch", "-q", "-c", "accept")
	if r := runAdr(t, dev, env, "decide", "4", "accept"); r.code != 0 {
		t.Fatalf("decide: %s", r.stderr)
	}
	runGit(t, dev, env, "commit", "-qam", "accept ADR-0004")
	runGit(t, dev, env, "switch", "-q", "-c", "broken", "main")
	f, err := os.OpenFile(filepath.Join(dev, "doc/adr/0004-use-kafka.md"), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString("\nSee [the pool](0009-pool.md).\n")
	f.Close()
	runGit(t, dev, env, "commit", "-qam", "link the pool")
	runGit(t, dev, env, "push", "-q", "origin", "accept", "broken")
	return remote
}

// readCIFile decodes the CI file docs/integrations/ci/name into v.
func readCIFile(t *testing.T, name string, v any) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "..", "docs", "integrations", "ci", name))
	if err != nil {
		t.Fatal(err)
	}
	if err := yaml.Unmarshal(data, v); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
}

// ciStep runs one step's script with bash as the CI runs it.
func ciStep(t *testing.T, dir string, env []string, script string) (stdout string, code int) {
	t.Helper()
	cmd := exec.Command("bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", script)
	cmd.Dir, cmd.Env = dir, env
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee):
		code = ee.ExitCode()
	case err != nil:
		t.Fatalf("%s: %v", script, err)
	}
	t.Logf("$ %s\n%s%s(exit %d)", script, out.String(), errb.String(), code)
	return out.String(), code
}

type githubWorkflow struct {
	On   any `yaml:"on"`
	Jobs map[string]struct {
		Steps []struct {
			Name string            `yaml:"name"`
			Uses string            `yaml:"uses"`
			With map[string]any    `yaml:"with"`
			Run  string            `yaml:"run"`
			If   string            `yaml:"if"`
			Env  map[string]string `yaml:"env"`
		} `yaml:"steps"`
	} `yaml:"jobs"`
}

func TestGitHubActionsWorkflow(t *testing.T) {
	var wf githubWorkflow
	readCIFile(t, "github-actions.yml", &wf)
	if wf.On != "pull_request" || len(wf.Jobs) != 1 {
		t.Fatalf("the workflow runs on %v with %d jobs; want one job on pull_request", wf.On, len(wf.Jobs))
	}
	env := procEnv(t)
	remote := ciRemote(t, env)
	for _, c := range ciCases {
		t.Run(c.branch, func(t *testing.T) {
			work := filepath.Join(t.TempDir(), "work")
			summary := filepath.Join(t.TempDir(), "summary.md")
			stepEnv := append(env[:len(env):len(env)], "CI=true", "GITHUB_ACTIONS=true", "GITHUB_EVENT_NAME=pull_request",
				"GITHUB_BASE_REF=main", "GITHUB_HEAD_REF="+c.branch, "GITHUB_STEP_SUMMARY="+summary)
			failed, annotations := false, ""
			for _, job := range wf.Jobs {
				for _, s := range job.Steps {
					switch {
					case strings.HasPrefix(s.Uses, "actions/checkout@"):
						// What actions/checkout does with fetch-depth 0: the
						// whole history, every branch as origin/*, the pull
						// request's commit checked out.
						if d, ok := s.With["fetch-depth"]; !ok || d != 0 {
							t.Fatalf("checkout with fetch-depth %v: check --since needs the base's history (0)", d)
						}
						runGit(t, "", env, "clone", "-q", remote, work)
						runGit(t, work, env, "checkout", "-q", "--detach", "origin/"+c.branch)
					case strings.HasPrefix(s.Uses, "actions/setup-go@"):
					case s.Uses != "":
						t.Fatalf("step %q uses %s, which this test does not know", s.Name, s.Uses)
					case strings.TrimSpace(s.Run) == ciInstall:
						// The test binary is git-adr, on PATH.
					case failed && s.If != "always()":
					default:
						e := stepEnv
						for k, v := range s.Env {
							e = append(e[:len(e):len(e)], k+"="+v)
						}
						out, code := ciStep(t, work, e, s.Run)
						if strings.Contains(s.Run, "--format github") {
							annotations = out
						}
						failed = failed || code != 0
					}
				}
			}
			sum, err := os.ReadFile(summary)
			if err != nil {
				t.Fatalf("no job summary: %v", err)
			}
			if !c.fails {
				if failed || annotations != "" || !strings.Contains(string(sum), "No findings.") {
					t.Errorf("a valid acceptance: failed %v, annotations %q, summary:\n%s", failed, annotations, sum)
				}
				return
			}
			want := "::error file=doc/adr/0004-use-kafka.md,line=13,title=broken-reference::link to \"0009-pool.md\": doc/adr/0009-pool.md does not exist%0Afix: correct or remove the link \"0009-pool.md\" on line 13\n"
			if !failed || annotations != want {
				t.Errorf("a broken link: failed %v, annotations:\n%s\nwant:\n%s", failed, annotations, want)
			}
			if !strings.Contains(string(sum), "| doc/adr/0004-use-kafka.md:13 | broken-reference |") {
				t.Errorf("the job summary has no row for the broken link:\n%s", sum)
			}
		})
	}
}

type gitlabJob struct {
	Image     string              `yaml:"image"`
	Variables map[string]string   `yaml:"variables"`
	Rules     []map[string]string `yaml:"rules"`
	Cache     struct {
		Paths []string `yaml:"paths"`
	} `yaml:"cache"`
	BeforeScript []string `yaml:"before_script"`
	Script       []string `yaml:"script"`
	Artifacts    struct {
		When    string   `yaml:"when"`
		Paths   []string `yaml:"paths"`
		Reports struct {
			CodeQuality string `yaml:"codequality"`
		} `yaml:"reports"`
	} `yaml:"artifacts"`
}

// script is what the runner runs of the job: before_script and script,
// less the install line (the test binary is git-adr, on PATH).
func (job gitlabJob) script() string {
	var lines []string
	for _, line := range job.BeforeScript {
		if strings.TrimSpace(line) != ciInstall {
			lines = append(lines, line)
		}
	}
	return strings.Join(append(lines, job.Script...), "\n")
}

// onlyGitLabJob is the one job of the GitLab CI file name, which must be
// named job.
func onlyGitLabJob(t *testing.T, name, job string) gitlabJob {
	t.Helper()
	var jobs map[string]gitlabJob
	readCIFile(t, name, &jobs)
	j, ok := jobs[job]
	if !ok || len(jobs) != 1 {
		t.Fatalf("want one job named %s, got %d", job, len(jobs))
	}
	return j
}

func TestGitLabCIJob(t *testing.T) {
	job := onlyGitLabJob(t, "gitlab-ci.yml", "adr")
	if len(job.Rules) != 1 || job.Rules[0]["if"] != `$CI_PIPELINE_SOURCE == "merge_request_event"` {
		t.Errorf("rules %v: the job is for merge request pipelines", job.Rules)
	}
	if job.Variables["GIT_DEPTH"] != "0" || job.Artifacts.When != "always" || job.Artifacts.Reports.CodeQuality == "" {
		t.Fatalf("GIT_DEPTH %q, artifacts when %q, code quality report %q: the base's history is needed, and the report is kept when the job fails",
			job.Variables["GIT_DEPTH"], job.Artifacts.When, job.Artifacts.Reports.CodeQuality)
	}
	env := procEnv(t)
	remote := ciRemote(t, env)
	for _, c := range ciCases {
		t.Run(c.branch, func(t *testing.T) {
			// The runner's checkout: the merge request's branch alone,
			// detached; the job fetches the target branch itself.
			work := filepath.Join(t.TempDir(), "work")
			runGit(t, "", env, "clone", "-q", "--single-branch", "--branch", c.branch, remote, work)
			runGit(t, work, env, "checkout", "-q", "--detach")
			e := append(env[:len(env):len(env)], "CI=true", "GITLAB_CI=true", "CI_PIPELINE_SOURCE=merge_request_event",
				"CI_MERGE_REQUEST_TARGET_BRANCH_NAME=main", "CI_MERGE_REQUEST_SOURCE_BRANCH_NAME="+c.branch)
			for k, v := range job.Variables {
				e = append(e, k+"="+v)
			}
			out, code := ciStep(t, work, e, job.script())
			report, err := os.ReadFile(filepath.Join(work, job.Artifacts.Reports.CodeQuality))
			if err != nil {
				t.Fatalf("no code quality report: %v", err)
			}
			var issues []audit.CodeQualityIssue
			if err := json.Unmarshal(report, &issues); err != nil {
				t.Fatalf("the report is not a code quality report: %v\n%s", err, report)
			}
			if !c.fails {
				if code != 0 || len(issues) != 0 {
					t.Errorf("a valid acceptance: exit %d, %d issues:\n%s", code, len(issues), report)
				}
				return
			}
			if code != 1 || len(issues) != 1 || !strings.Contains(out, "doc/adr/0004-use-kafka.md:13: broken-reference") {
				t.Fatalf("a broken link: exit %d, %d issues, log:\n%s", code, len(issues), out)
			}
			is := issues[0]
			if is.CheckName != "broken-reference" || is.Severity != "major" || is.Location.Path != "doc/adr/0004-use-kafka.md" || is.Location.Lines.Begin != 13 || is.Fingerprint == "" {
				t.Errorf("issue %+v", is)
			}
		})
	}
}
