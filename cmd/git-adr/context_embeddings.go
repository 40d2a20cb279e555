package main

import (
	"os"

	"github.com/git-adr/git-adr/adr"
	"github.com/git-adr/git-adr/adr/evidence"
	"github.com/git-adr/git-adr/adr/trust"
	"github.com/git-adr/git-adr/gitops"
)

// contextEmbeddings is the optional embeddings endpoint of task answers
// (docs/commands/context.md#embeddings), resolved when a task first needs
// it: an ID or overview answer reads no configuration for it.
func contextEmbeddings(repo *gitops.Repo, cfg *adr.Config) *evidence.Embeddings {
	return &evidence.Embeddings{Resolve: func() (*evidence.EmbeddingEndpoint, string) {
		return resolveEmbeddings(repo, cfg, os.Getenv)
	}}
}

// resolveEmbeddings is the endpoint in effect (see [trust.Embeddings]),
// or the note saying why none is used.
func resolveEmbeddings(repo *gitops.Repo, cfg *adr.Config, getenv func(string) string) (*evidence.EmbeddingEndpoint, string) {
	if cfg == nil {
		cfg = &adr.Config{}
	}
	store, _ := trustStore() // no store: nothing is trusted
	rv := &trust.Resolver{File: cfg, Path: repo.Abs(adr.ConfigFile), Git: repo, Store: store}
	c, note := trust.Embeddings(rv, repo, getenv)
	if c == nil {
		return nil, note
	}
	return &evidence.EmbeddingEndpoint{Embedder: c, Model: c.Model, URL: c.BaseURL}, ""
}
