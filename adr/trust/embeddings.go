package trust

import (
	"errors"
	"fmt"

	"github.com/git-adr/git-adr/internal/lazyre"
	"github.com/git-adr/git-adr/retrieve/embeddings"
)

// EmbeddingsGit is the git configuration the embeddings settings read
// ([gitops.Repo]).
type EmbeddingsGit interface {
	GitConfig
	Config(key string) (string, error)
	ConfigMayMention(word string) bool
}

// Embeddings is the optional embeddings endpoint of task answers
// (docs/commands/context.md#embeddings), read as the openai drafter's is:
// the base URL and the key variable from git config or a trusted
// .adr.toml only (they decide where the log's text and a credential go),
// the model from either, the key from the variable getenv reads. Nothing
// set: no endpoint and no note. Set but unusable (only an untrusted file
// sets it, a URL that is not http, no model, an empty key variable): no
// endpoint, and the note an answer carries as a warning; nothing is sent.
func Embeddings(rv *Resolver, git EmbeddingsGit, getenv func(string) string) (*embeddings.Client, string) {
	cfg := rv.File
	// Almost no repository sets any of it: a few file reads say so where
	// asking git costs a process on every task answer.
	if f := cfg.Context.Embeddings; f.BaseURL == "" && f.APIKeyEnv == "" && !git.ConfigMayMention("embeddings") {
		return nil, ""
	}
	get := func(s Setting) (Value, bool, string) {
		v, ok, err := rv.Get(s)
		var ue *UntrustedError
		switch {
		case errors.As(err, &ue):
			return v, false, fmt.Sprintf("embeddings not used: %v; nothing was sent (review the file and run `git adr trust`, or set git config %s yourself)", ue, ue.GitKey)
		case err != nil:
			return v, false, fmt.Sprintf("embeddings not used: %v", err)
		}
		return v, ok && v.Value != "", ""
	}
	base, ok, note := get(EmbeddingsBaseURL)
	if !ok {
		return nil, note
	}
	if err := embeddings.CheckURL(base.Value); err != nil {
		return nil, fmt.Sprintf("embeddings not used: the base URL %v (%s)", err, base.Origin())
	}
	model := cfg.Context.Embeddings.Model
	if v, err := git.Config("adr.embeddings.model"); err == nil {
		model = v
	}
	if model == "" {
		return nil, fmt.Sprintf("embeddings not used: %s names an endpoint but no model; set one: git config adr.embeddings.model NAME", base.Origin())
	}
	keyEnv, hasKey, note := get(EmbeddingsKeyEnv)
	if note != "" {
		return nil, note
	}
	key := ""
	if hasKey {
		if key = getenv(keyEnv.Value); key == "" {
			return nil, fmt.Sprintf("embeddings not used: the key variable %s (%s) is empty; nothing was sent", EnvRef(keyEnv.Value), keyEnv.Origin())
		}
	}
	return &embeddings.Client{BaseURL: base.Value, Model: model, APIKey: key}, ""
}

var envName = lazyre.New(`^[A-Za-z_][A-Za-z0-9_]*$`)

// EnvRef writes an environment variable as $NAME, quoted when it is not a
// plain name.
func EnvRef(name string) string {
	if envName.MatchString(name) {
		return "$" + name
	}
	return fmt.Sprintf("$%q", name)
}
