package audit

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/git-adr/git-adr/adr"
	"github.com/git-adr/git-adr/gitops"
)

// No embeddings setting: no endpoint and no note; one only an untrusted
// .adr.toml sets: no endpoint, and a note saying so.
func TestResolveEmbeddings(t *testing.T) {
	dir := t.TempDir()
	git := hermeticGit(t, dir)
	git("init", "-q")
	r, err := gitops.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	getenv := func(k string) string {
		if k == "HOME" {
			return t.TempDir()
		}
		return ""
	}
	if ep, note := ResolveEmbeddings(r, nil, getenv); ep != nil || note != "" {
		t.Errorf("nothing set: %+v, %q", ep, note)
	}
	os.WriteFile(filepath.Join(dir, ".adr.toml"), []byte("[context.embeddings]\nbase_url = \"http://127.0.0.1:1/v1\"\nmodel = \"m\"\n"), 0o644)
	cfg, err := adr.LoadConfig(r.WorktreeFS())
	if err != nil {
		t.Fatal(err)
	}
	if ep, note := ResolveEmbeddings(r, cfg, getenv); ep != nil || note == "" {
		t.Errorf("untrusted file: %+v, %q", ep, note)
	}
	if e := Embeddings(r, cfg, getenv); e == nil || e.Resolve == nil {
		t.Error("Embeddings gave no resolver")
	}
}
