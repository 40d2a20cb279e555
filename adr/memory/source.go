package memory

import (
	"sync"

	"github.com/git-adr/git-adr/adr/evidence"
	"github.com/git-adr/git-adr/gitops"
)

// Source offers a repository's memory to the context service
// ([evidence.MemorySource]), reading the ref once per answer.
type Source struct {
	store Store
	once  sync.Once
	st    *State
	err   error
}

// NewSource is the memory of repo as a context source.
func NewSource(repo *gitops.Repo) *Source {
	return &Source{store: Store{Repo: repo}}
}

func (m *Source) load() (*State, error) {
	m.once.Do(func() { m.st, m.err = m.store.Load() })
	return m.st, m.err
}

// Version is the memory ref's commit ("" without memory, or when it cannot
// be read: Relevant then reports why).
func (m *Source) Version() string {
	st, err := m.load()
	if err != nil {
		return ""
	}
	return st.Commit
}

// Relevant returns the enabled items that match the task.
func (m *Source) Relevant(task string, n int) ([]evidence.MemoryNote, error) {
	st, err := m.load()
	if err != nil {
		return nil, err
	}
	var out []evidence.MemoryNote
	for _, x := range Relevant(st.Items, task, n) {
		it := x.Item
		out = append(out, evidence.MemoryNote{ID: it.ID, Topic: it.Topic, Source: it.Source, Text: it.Text, Path: Ref + ":" + it.Path()})
	}
	return out, nil
}
