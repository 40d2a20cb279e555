package trust

import (
	"errors"
	"fmt"

	"github.com/git-adr/git-adr/adr"
	"github.com/git-adr/git-adr/gitops"
)

// Setting is a configuration key that runs a program or sends a
// credential, with the git config key that sets it outside the
// repository.
type Setting struct {
	// Key is the key in .adr.toml ("drafter.command").
	Key string
	// GitKey is the git config key ("adr.drafter.command").
	GitKey string
	file   func(*adr.Config) string
}

// The settings that need trust.
var (
	// DrafterCommand is the program the command drafter runs with sh -c.
	DrafterCommand = Setting{Key: "drafter.command", GitKey: "adr.drafter.command",
		file: func(c *adr.Config) string { return c.Drafter.Command }}
	// OpenAIBaseURL is where the openai drafter sends the evidence.
	OpenAIBaseURL = Setting{Key: "drafter.openai.base_url", GitKey: "adr.drafter.openai.baseUrl",
		file: func(c *adr.Config) string { return c.Drafter.OpenAI.BaseURL }}
	// OpenAIKeyEnv names the environment variable the openai drafter sends
	// as its Bearer token.
	OpenAIKeyEnv = Setting{Key: "drafter.openai.api_key_env", GitKey: "adr.drafter.openai.apiKeyEnv",
		file: func(c *adr.Config) string { return c.Drafter.OpenAI.APIKeyEnv }}
	// EmbeddingsBaseURL is where context sends tasks and records' text to
	// be embedded.
	EmbeddingsBaseURL = Setting{Key: "context.embeddings.base_url", GitKey: "adr.embeddings.baseUrl",
		file: func(c *adr.Config) string { return c.Context.Embeddings.BaseURL }}
	// EmbeddingsKeyEnv names the environment variable the embeddings
	// endpoint gets as its Bearer token.
	EmbeddingsKeyEnv = Setting{Key: "context.embeddings.api_key_env", GitKey: "adr.embeddings.apiKeyEnv",
		file: func(c *adr.Config) string { return c.Context.Embeddings.APIKeyEnv }}
)

// Settings lists every setting that needs trust, in the order output
// shows them. `[signing] sign` is not one: it can only ask that a commit a
// person approved be signed, by the program and key git config names.
var Settings = []Setting{DrafterCommand, OpenAIBaseURL, OpenAIKeyEnv, EmbeddingsBaseURL, EmbeddingsKeyEnv}

// FileValue is the value cfg sets for s ("" when unset).
func (s Setting) FileValue(cfg *adr.Config) string {
	if cfg == nil {
		return ""
	}
	return s.file(cfg)
}

// Asked lists the settings cfg sets, with their values, as a file asks
// for them (Source.File is left empty).
func Asked(cfg *adr.Config) []Value {
	var out []Value
	for _, s := range Settings {
		if v := s.FileValue(cfg); v != "" {
			out = append(out, Value{Setting: s, Value: v})
		}
	}
	return out
}

// Source is where a value in effect comes from: git config (GitScope is
// set) or a trusted .adr.toml (File is set).
type Source struct {
	// GitScope and GitOrigin are git's scope (system, global, local,
	// worktree, command) and origin ("file:/home/ada/.gitconfig").
	GitScope, GitOrigin string
	// File is the canonical path of the trusted .adr.toml.
	File string
}

// Value is a setting's value and where it comes from.
type Value struct {
	Setting
	Value string
	From  Source
}

// FromGit reports whether the value comes from git config.
func (v Value) FromGit() bool { return v.From.GitScope != "" }

// GitConfig reads git configuration as git sees it ([gitops.Repo]).
type GitConfig interface {
	ConfigOrigin(key string) (gitops.ConfigValue, error)
}

// Resolver gives the value in effect of each [Setting]: git config first,
// then the repository's .adr.toml when it is trusted. The store is
// consulted only when a file value would be used.
type Resolver struct {
	// File is the parsed .adr.toml (empty when there is none) and Path
	// where it lives (absolute).
	File *adr.Config
	Path string
	Git  GitConfig
	// Store is the trust store; nil means nothing is trusted.
	Store *Store

	status *Status
}

// UntrustedError is a value set by an .adr.toml that is not trusted (or
// changed since): it is ignored.
type UntrustedError struct {
	Setting
	Value  string
	Status Status
}

func (e *UntrustedError) Error() string {
	why := "the file is not trusted"
	if e.Status.State == Changed {
		why = "the file changed since it was trusted"
	}
	return fmt.Sprintf("%s = %q in %s is ignored: %s, and a repository's configuration cannot run programs or send credentials by itself",
		e.Key, e.Value, e.Status.Path, why)
}

// Get returns the value of s in effect; ok is false when nothing sets it.
// A value only an untrusted file sets is an [*UntrustedError].
func (r *Resolver) Get(s Setting) (v Value, ok bool, err error) {
	if r.Git != nil {
		gv, err := r.Git.ConfigOrigin(s.GitKey)
		switch {
		case err == nil:
			return Value{Setting: s, Value: gv.Value, From: Source{GitScope: gv.Scope, GitOrigin: gv.Origin}}, true, nil
		case !errors.Is(err, gitops.ErrNotFound):
			return Value{}, false, err
		}
	}
	fv := s.FileValue(r.File)
	if fv == "" {
		return Value{}, false, nil
	}
	st, err := r.Status()
	if err != nil {
		return Value{}, false, err
	}
	if st.State != Trusted {
		return Value{}, false, &UntrustedError{Setting: s, Value: fv, Status: st}
	}
	return Value{Setting: s, Value: fv, From: Source{File: st.Path}}, true, nil
}

// Status is the trust of the file's current content, read once.
func (r *Resolver) Status() (Status, error) {
	if r.status != nil {
		return *r.status, nil
	}
	var st Status
	if r.Store == nil {
		c, err := Canonical(r.Path)
		if err != nil {
			return Status{}, err
		}
		st = Status{Path: c, SHA256: r.File.SHA256, State: Untrusted}
	} else {
		var err error
		if st, err = r.Store.Check(r.Path, r.File.SHA256); err != nil {
			return Status{}, err
		}
	}
	r.status = &st
	return st, nil
}
