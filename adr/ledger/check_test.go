package ledger

import (
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/git-adr/git-adr/gitops"
)

func git(t *testing.T, dir string, args ...string) string {
	t.Helper()
	c := exec.Command("git", args...)
	c.Dir = dir
	out, err := c.CombinedOutput()
	if err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return strings.TrimSpace(string(out))
}

// repo makes a repository with two accepted records and a proposal that
// supersedes the first.
func repo(t *testing.T) (*gitops.Repo, string) {
	t.Helper()
	dir := t.TempDir()
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("GIT_CONFIG_NOSYSTEM", "1")
	t.Setenv("GIT_CONFIG_GLOBAL", filepath.Join(home, ".gitconfig"))
	for k, v := range map[string]string{"GIT_AUTHOR_NAME": "T", "GIT_AUTHOR_EMAIL": "t@e", "GIT_COMMITTER_NAME": "T", "GIT_COMMITTER_EMAIL": "t@e"} {
		t.Setenv(k, v)
	}
	git(t, dir, "init", "-q")
	write(t, dir, "doc/adr/0001-a.md", "# 1. A\n\n## Status\n\nAccepted\n\n## Decision\n\nA.\n")
	write(t, dir, "doc/adr/0002-b.md", "# 2. B\n\n## Status\n\nAccepted\n\n## Decision\n\nB.\n")
	write(t, dir, "doc/adr/0003-c.md", "# 3. C\n\n## Status\n\nProposed\n\nSupersedes [1. A](0001-a.md)\n\n## Decision\n\nC.\n")
	git(t, dir, "add", "-A")
	git(t, dir, "commit", "-qm", "log")
	r, err := gitops.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	return r, dir
}

func write(t *testing.T, dir, p, s string) {
	t.Helper()
	os.MkdirAll(filepath.Dir(filepath.Join(dir, p)), 0o755)
	if err := os.WriteFile(filepath.Join(dir, p), []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
}

// accept writes what accepting C does to the files.
func accept(t *testing.T, dir string) {
	write(t, dir, "doc/adr/0001-a.md", "# 1. A\n\n## Status\n\nSuperseded by [3. C](0003-c.md)\n\n## Decision\n\nA.\n")
	write(t, dir, "doc/adr/0003-c.md", "# 3. C\n\n## Status\n\nAccepted\n\nSupersedes [1. A](0001-a.md)\n\n## Decision\n\nC.\n")
}

func commit(t *testing.T, dir string, msg string) string {
	t.Helper()
	git(t, dir, "add", "-A")
	git(t, dir, "commit", "-q", "--no-verify", "-m", msg)
	return git(t, dir, "rev-parse", "HEAD")
}

const good = "Accept ADR-0003\n\nADR-Accepted: ADR-0003\nADR-Supersedes: ADR-0003 -> ADR-0001\nADR-Approved-By: T <t@e>\n"

func TestCheck(t *testing.T) {
	for _, tc := range []struct {
		name string
		edit func(dir string)
		msg  string
		want []string // substrings of the problems, in order; none for a good ledger
	}{
		{"good", func(dir string) { accept(t, dir) }, good, nil},
		{"not a ledger commit", func(dir string) { write(t, dir, "doc/adr/0002-b.md", "# 2. B\n\n## Status\n\nRejected\n") }, "edit\n", nil},
		{"also changes another file", func(dir string) { accept(t, dir); write(t, dir, "notes.txt", "x\n") }, good,
			[]string{"also changes notes.txt, which it does not name"}},
		{"names a file it does not change", func(dir string) {
			write(t, dir, "doc/adr/0003-c.md", "# 3. C\n\n## Status\n\nAccepted\n\nSupersedes [1. A](0001-a.md)\n\n## Decision\n\nC.\n")
		}, good, []string{"says ADR-0003 supersedes ADR-0001, but ADR-0001 is accepted in it", "names doc/adr/0001-a.md in its ledger but does not change it"}},
		{"accepts what stays proposed", func(dir string) {
			write(t, dir, "doc/adr/0002-b.md", "# 2. B\n\n## Status\n\nAccepted\n\n## Decision\n\nB, still.\n")
		},
			"Accept\n\nADR-Accepted: ADR-0003\nADR-Approved-By: T <t@e>\n", []string{"says it accepts ADR-0003, but doc/adr/0003-c.md is proposed in it",
				"carries a decision ledger but also changes doc/adr/0002-b.md, which it does not name", "names doc/adr/0003-c.md in its ledger but does not change it"}},
		{"a status change the ledger does not name", func(dir string) {
			accept(t, dir)
			write(t, dir, "doc/adr/0002-b.md", "# 2. B\n\n## Status\n\nDeprecated\n\n## Decision\n\nB.\n")
		}, good, []string{"changes the status of ADR-0002 from accepted to deprecated, which its ledger does not name",
			"carries a decision ledger but also changes doc/adr/0002-b.md"}},
		{"no reciprocal link", func(dir string) {
			write(t, dir, "doc/adr/0001-a.md", "# 1. A\n\n## Status\n\nSuperseded\n\n## Decision\n\nA.\n")
			write(t, dir, "doc/adr/0003-c.md", "# 3. C\n\n## Status\n\nAccepted\n\nSupersedes [1. A](0001-a.md)\n\n## Decision\n\nC.\n")
		}, good, []string{"but ADR-0001 does not say it is superseded by ADR-0003"}},
		{"no approver", func(dir string) { accept(t, dir) }, "Accept\n\nADR-Accepted: ADR-0003\nADR-Supersedes: ADR-0003 -> ADR-0001\n",
			[]string{"accepts ADR-0003 without an ADR-Approved-By trailer"}},
		{"a name that is no record", func(dir string) { accept(t, dir) }, good + "ADR-Accepted: ADR-0042\n", []string{"names \"ADR-0042\" in its ledger, which is no record in it"}},
		{"a malformed pair", func(dir string) { accept(t, dir) }, good + "ADR-Supersedes: ADR-0003\n", []string{"has a malformed ledger: ADR-Supersedes: \"ADR-0003\" is not \"NEW -> OLD\""}},
		{"an archive plan with the acceptance", func(dir string) { accept(t, dir) }, good + "ADR-Archive-On-Accept: a-0123456789 " + strings.Repeat("ab", 32) + "\n", nil},
		{"a malformed archive plan", func(dir string) { accept(t, dir) }, good + "ADR-Archive-On-Accept: a-0123456789\n",
			[]string{"has a malformed ledger: ADR-Archive-On-Accept: \"a-0123456789\" is not \"PLAN-ID SHA256\" given once"}},
		{"an archive plan that retires nothing", func(dir string) {
			write(t, dir, "doc/adr/0003-c.md", "# 3. C\n\n## Status\n\nAccepted\n\nSupersedes [1. A](0001-a.md)\n\n## Decision\n\nC.\n")
		}, "Accept\n\nADR-Accepted: ADR-0003\nADR-Archive-On-Accept: a-0123456789 " + strings.Repeat("ab", 32) + "\nADR-Approved-By: T <t@e>\n",
			[]string{"authorises archive plan a-0123456789 (ADR-Archive-On-Accept) but retires no record"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r, dir := repo(t)
			tc.edit(dir)
			c := commit(t, dir, tc.msg)
			ps, err := Check(r, c)
			if err != nil {
				t.Fatal(err)
			}
			if len(ps) != len(tc.want) {
				var got []string
				for _, p := range ps {
					got = append(got, p.Message)
				}
				t.Fatalf("got %d problems, want %d:\n%s", len(ps), len(tc.want), strings.Join(got, "\n"))
			}
			for i, w := range tc.want {
				if !strings.Contains(ps[i].Message, w) || ps[i].Rule != RuleLedger || !ps[i].Block {
					t.Errorf("problem %d = %+v, want %q", i, ps[i], w)
				}
			}
		})
	}
}

func TestParseRoundTrip(t *testing.T) {
	l := Ledger{Plan: "c-0123456789@3", Accepted: []string{"ADR-0010", "ADR-0011"},
		Supersedes: []Pair{{"ADR-0010", "ADR-0003"}, {"ADR-0011", "ADR-0003"}},
		Views:      []string{"doc/adr/CURRENT.md"}, ApprovedBy: "Ada Lovelace <ada@example.com>",
		Archive: ArchiveOnAccept{Plan: "a-0123456789", Digest: strings.Repeat("0f", 32)}}
	got, bad := Parse("Subject\n\nBody text.\n\n" + l.Trailers())
	if len(bad) > 0 || got.Plan != l.Plan || strings.Join(got.Accepted, ",") != "ADR-0010,ADR-0011" || len(got.Supersedes) != 2 ||
		got.Supersedes[1] != l.Supersedes[1] || got.ApprovedBy != l.ApprovedBy || len(got.Views) != 1 || !got.IsLedger() ||
		got.Archive != l.Archive {
		t.Errorf("Parse(Trailers) = %+v, %v", got, bad)
	}
	if l, _ := Parse("Fix a typo\n\nADR-View: x\n"); l.IsLedger() {
		t.Error("a commit with only ADR-View is no ledger commit")
	}
}

// Trailers are the last paragraph's "Key: value" lines, repeated keys
// kept in order; a colon in the body or a subject alone is none.
func TestTrailers(t *testing.T) {
	got := Trailers("Publish\n\nBody text: not a trailer.\n\nADR-Plan: s-1@2\nADR-View: doc/adr/CURRENT.md\nADR-View: doc/adr/CURRENT.sources.json\n")
	want := map[string][]string{"ADR-Plan": {"s-1@2"}, "ADR-View": {"doc/adr/CURRENT.md", "doc/adr/CURRENT.sources.json"}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Trailers = %v", got)
	}
	if got := Trailers("Subject only"); len(got) != 0 {
		t.Errorf("a subject is not a trailer: %v", got)
	}
}

func TestSamePerson(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		want bool
	}{
		{"adr@example.com", "Ada <ADR@example.com>", true},
		{"Ada <ada@example.com>", "ada@example.com", true},
		{"eve@example.com", "Ada <ada@example.com>", false},
		{"", "ada@example.com", false},
	} {
		if got := SamePerson(tc.a, tc.b); got != tc.want {
			t.Errorf("SamePerson(%q, %q) = %v", tc.a, tc.b, got)
		}
	}
	s := Strict{On: true, Approvers: []string{"adr@example.com"}}
	if !s.IsApprover("Reviewer <adr@example.com>") || s.IsApprover("eve@example.com") {
		t.Error("IsApprover")
	}
}

func TestVerifyUnsigned(t *testing.T) {
	r, dir := repo(t)
	accept(t, dir)
	c := commit(t, dir, good)
	p := Verify(r, c, Strict{On: true, AllowedSigners: filepath.Join(t.TempDir(), "none")})
	if p == nil || p.Rule != RuleSignature || !strings.Contains(p.Message, "is not signed") {
		t.Errorf("Verify of an unsigned commit = %+v", p)
	}
}
