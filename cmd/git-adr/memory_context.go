package main

import (
	"sync"

	"github.com/git-adr/git-adr/adr/evidence"
	"github.com/git-adr/git-adr/adr/memory"
	"github.com/git-adr/git-adr/gitops"
)

// memorySource offers the repository's memory to the context service,
// reading the ref once per answer.
type memorySource struct {
	store memory.Store
	once  sync.Once
	st    *memory.State
	err   error
}

func newMemorySource(repo *gitops.Repo) *memorySource {
	return &memorySource{store: memory.Store{Repo: repo}}
}

func (m *memorySource) load() (*memory.State, error) {
	m.once.Do(func() { m.st, m.err = m.store.Load() })
	return m.st, m.err
}

// Version is the memory ref's commit ("" without memory, or when it cannot
// be read: Relevant then reports why).
func (m *memorySource) Version() string {
	st, err := m.load()
	if err != nil {
		return ""
	}
	return st.Commit
}

// Relevant returns the enabled items that match the task.
func (m *memorySource) Relevant(task string, n int) ([]evidence.MemoryNote, error) {
	st, err := m.load()
	if err != nil {
		return nil, err
	}
	var out []evidence.MemoryNote
	for _, x := range memory.Relevant(st.Items, task, n) {
		it := x.Item
		out = append(out, evidence.MemoryNote{ID: it.ID, Topic: it.Topic, Source: it.Source, Text: it.Text, Path: memory.Ref + ":" + it.Path()})
	}
	return out, nil
}
