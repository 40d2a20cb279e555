package hooks

import (
	"testing"

	"github.com/git-adr/git-adr/gitops"
)

func TestParsePush(t *testing.T) {
	z := gitops.ZeroHash
	us, err := ParsePrePush([]byte("refs/heads/main 1111 refs/heads/main 2222\n\nrefs/heads/x " + z + " refs/heads/x 3333\n"))
	if err != nil || len(us) != 2 || us[0].New != "1111" || us[0].Old != "2222" || !us[1].Deletes() {
		t.Errorf("ParsePrePush = %+v, %v", us, err)
	}
	if _, err := ParsePrePush([]byte("garbage\n")); err == nil {
		t.Error("a malformed pre-push line must be an error")
	}
	us, err = ParsePreReceive([]byte(z + " 4444 refs/heads/new\n"))
	if err != nil || len(us) != 1 || us[0].Ref != "refs/heads/new" || us[0].Old != z {
		t.Errorf("ParsePreReceive = %+v, %v", us, err)
	}
	if _, err := ParsePreReceive([]byte("a b\n")); err == nil {
		t.Error("a malformed pre-receive line must be an error")
	}
	env := map[string]string{"PRE_COMMIT_TO_REF": "5555", "PRE_COMMIT_REMOTE_BRANCH": "refs/heads/main"}
	resolve := func(ref string) (string, error) {
		if ref == "refs/heads/main" {
			return "6666", nil
		}
		return "", gitops.ErrNotFound
	}
	us = PrePushFromEnv(func(k string) string { return env[k] }, resolve)
	if len(us) != 1 || us[0].Old != z || us[0].New != "5555" {
		t.Errorf("PrePushFromEnv = %+v", us)
	}
	// The whole history pushed: pre-commit names the local ref alone.
	env = map[string]string{"PRE_COMMIT_LOCAL_BRANCH": "refs/heads/main", "PRE_COMMIT_REMOTE_BRANCH": "refs/heads/main"}
	us = PrePushFromEnv(func(k string) string { return env[k] }, resolve)
	if len(us) != 1 || us[0].Old != z || us[0].New != "6666" || us[0].Ref != "refs/heads/main" {
		t.Errorf("PrePushFromEnv, whole history = %+v", us)
	}
	if us := PrePushFromEnv(func(string) string { return "" }, resolve); us != nil {
		t.Errorf("PrePushFromEnv, no variables = %+v", us)
	}
}

func TestSnippet(t *testing.T) {
	for _, m := range []string{"husky", "lefthook", "pre-commit", "core.hooksPath"} {
		s := Snippet(&gitops.HookManager{Name: m}, []string{"pre-commit", "pre-push"})
		if s == "" {
			t.Errorf("%s: empty snippet", m)
		}
	}
}
