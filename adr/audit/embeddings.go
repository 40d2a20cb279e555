package audit

import (
	"github.com/git-adr/git-adr/adr"
	"github.com/git-adr/git-adr/adr/evidence"
	"github.com/git-adr/git-adr/adr/trust"
	"github.com/git-adr/git-adr/gitops"
)

// Embeddings is the optional embeddings endpoint of task answers
// (docs/commands/context.md#embeddings) in repository r, whose .adr.toml
// is cfg, resolved when a task first needs it: an ID or overview answer
// reads no configuration for it.
func Embeddings(r *gitops.Repo, cfg *adr.Config, getenv func(string) string) *evidence.Embeddings {
	return &evidence.Embeddings{Resolve: func() (*evidence.EmbeddingEndpoint, string) {
		return ResolveEmbeddings(r, cfg, getenv)
	}}
}

// ResolveEmbeddings is the endpoint in effect (see [trust.Embeddings]),
// or the note saying why none is used.
func ResolveEmbeddings(r *gitops.Repo, cfg *adr.Config, getenv func(string) string) (*evidence.EmbeddingEndpoint, string) {
	if cfg == nil {
		cfg = &adr.Config{}
	}
	store, _ := trust.UserStore(getenv) // no store: nothing is trusted
	c, note := trust.Embeddings(trust.ForRepo(r, cfg, store), r, getenv)
	if c == nil {
		return nil, note
	}
	return &evidence.EmbeddingEndpoint{Embedder: c, Model: c.Model, URL: c.BaseURL}, ""
}
