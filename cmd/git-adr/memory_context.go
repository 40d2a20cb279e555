package main

import (
	"github.com/git-adr/git-adr/adr/evidence"
	"github.com/git-adr/git-adr/adr/memory"
	"github.com/git-adr/git-adr/gitops"
)

// newMemorySource offers the repository's memory to the context service.
func newMemorySource(repo *gitops.Repo) evidence.MemorySource { return memory.NewSource(repo) }
