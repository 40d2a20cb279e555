package gitops

import (
	"os"
	"path/filepath"
	"testing"
)

// ConfigMayMention may say yes when git would find nothing (a word in a
// comment, an include), but never no when git finds the key.
func TestConfigMayMention(t *testing.T) {
	dir := newRepo(t, map[string]string{"a": "a\n"})
	t.Setenv("GIT_CONFIG_PARAMETERS", "")
	t.Setenv("GIT_CONFIG_COUNT", "") // restored after the test
	os.Unsetenv("GIT_CONFIG_COUNT")
	r, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	check := func(what string, want bool) {
		t.Helper()
		if got := r.ConfigMayMention("embeddings"); got != want {
			t.Errorf("%s: %v, want %v", what, got, want)
		}
		if _, err := r.Config("adr.embeddings.baseUrl"); err == nil && !r.ConfigMayMention("embeddings") {
			t.Errorf("%s: git finds the key, ConfigMayMention does not", what)
		}
	}
	check("nothing set", false)

	runGit(t, dir, "config", "adr.embeddings.baseUrl", "http://localhost:11434/v1")
	check("local config", true)
	runGit(t, dir, "config", "--unset", "adr.embeddings.baseUrl")
	check("unset again", false)

	runGit(t, dir, "config", "--global", "ADR.embeddings.BASEURL", "http://localhost:11434/v1")
	check("global config, any case", true)
	runGit(t, dir, "config", "--global", "--unset", "adr.embeddings.baseUrl")

	other := filepath.Join(t.TempDir(), "more.gitconfig")
	if err := os.WriteFile(other, []byte("[adr \"embeddings\"]\n\tbaseUrl = http://localhost:8080/v1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	runGit(t, dir, "config", "include.path", other)
	check("an included file", true)
	runGit(t, dir, "config", "--unset", "include.path")

	t.Setenv("GIT_CONFIG_PARAMETERS", "'adr.embeddings.baseurl'='http://localhost:8080/v1'")
	check("git -c", true)
	t.Setenv("GIT_CONFIG_PARAMETERS", "")

	t.Setenv("GIT_CONFIG_COUNT", "1")
	t.Setenv("GIT_CONFIG_KEY_0", "adr.embeddings.baseUrl")
	t.Setenv("GIT_CONFIG_VALUE_0", "http://localhost:8080/v1")
	check("GIT_CONFIG_COUNT", true)
}
