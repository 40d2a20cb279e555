package main

import (
	"errors"
	"fmt"
	"os"

	"github.com/git-adr/git-adr/adr"
	"github.com/git-adr/git-adr/adr/evidence"
	"github.com/git-adr/git-adr/adr/trust"
	"github.com/git-adr/git-adr/gitops"
	"github.com/git-adr/git-adr/retrieve/embeddings"
)

// contextEmbeddings is the optional embeddings endpoint of task answers
// (docs/commands/context.md#embeddings), resolved when a task first needs
// it: an ID or overview answer reads no configuration for it.
func contextEmbeddings(repo *gitops.Repo, cfg *adr.Config) *evidence.Embeddings {
	return &evidence.Embeddings{Resolve: func() (*evidence.EmbeddingEndpoint, string) {
		return resolveEmbeddings(repo, cfg, os.Getenv)
	}}
}

// resolveEmbeddings reads the endpoint as the openai drafter's is read:
// the base URL and the key variable from git config or a trusted
// .adr.toml only (they decide where the log's text and a credential go),
// the model from either. Nothing set: no endpoint, and answers are as
// they always were. Set but unusable (only an untrusted file sets it, a
// URL that is not http, no model, an empty key variable): no endpoint,
// and a note the answer carries as a warning; context still answers,
// lexically, and nothing is sent.
func resolveEmbeddings(repo *gitops.Repo, cfg *adr.Config, getenv func(string) string) (*evidence.EmbeddingEndpoint, string) {
	if cfg == nil {
		cfg = &adr.Config{}
	}
	// Almost no repository sets any of it: a few file reads say so where
	// asking git costs a process on every task answer.
	if f := cfg.Context.Embeddings; f.BaseURL == "" && f.APIKeyEnv == "" && !repo.ConfigMayMention("embeddings") {
		return nil, ""
	}
	store, _ := trustStore() // no store: nothing is trusted
	rv := &trust.Resolver{File: cfg, Path: repo.Abs(adr.ConfigFile), Git: repo, Store: store}
	get := func(s trust.Setting) (trust.Value, bool, string) {
		v, ok, err := rv.Get(s)
		var ue *trust.UntrustedError
		switch {
		case errors.As(err, &ue):
			return v, false, untrustedNote(ue)
		case err != nil:
			return v, false, fmt.Sprintf("embeddings not used: %v", err)
		}
		return v, ok && v.Value != "", ""
	}
	base, ok, note := get(trust.EmbeddingsBaseURL)
	if !ok {
		return nil, note
	}
	if err := embeddings.CheckURL(base.Value); err != nil {
		return nil, fmt.Sprintf("embeddings not used: the base URL %v (%s)", err, sourceText(base))
	}
	model := cfg.Context.Embeddings.Model
	if v, err := repo.Config("adr.embeddings.model"); err == nil {
		model = v
	}
	if model == "" {
		return nil, fmt.Sprintf("embeddings not used: %s names an endpoint but no model; set one: git config adr.embeddings.model NAME", sourceText(base))
	}
	keyEnv, hasKey, note := get(trust.EmbeddingsKeyEnv)
	if note != "" {
		return nil, note
	}
	key := ""
	if hasKey {
		if key = getenv(keyEnv.Value); key == "" {
			return nil, fmt.Sprintf("embeddings not used: the key variable %s (%s) is empty; nothing was sent", envRef(keyEnv.Value), sourceText(keyEnv))
		}
	}
	c := &embeddings.Client{BaseURL: base.Value, Model: model, APIKey: key}
	return &evidence.EmbeddingEndpoint{Embedder: c, Model: model, URL: base.Value}, ""
}

// untrustedNote is the warning of an answer whose embeddings setting only
// an untrusted .adr.toml sets: what was ignored, and the two ways on.
func untrustedNote(ue *trust.UntrustedError) string {
	return fmt.Sprintf("embeddings not used: %v; nothing was sent (review the file and run `git adr trust`, or set git config %s yourself)", ue, ue.GitKey)
}

// embeddingsURL is where an embeddings endpoint is asked.
func embeddingsURL(base string) string { return (&embeddings.Client{BaseURL: base}).Endpoint() }
