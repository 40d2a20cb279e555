package audit

import (
	"path/filepath"
	"slices"

	"github.com/git-adr/git-adr/adr"
	"github.com/git-adr/git-adr/adr/evidence"
	"github.com/git-adr/git-adr/gitops"
)

// ContextService is the context service over l, read from r's work tree,
// for the command and the MCP tool: cursors signed with the repository's
// key, caches in $GIT_DIR/adr/cache, a task's source search over the
// files git does not ignore, the scope and staleness git finds, and the
// memory and embeddings given (nil: none).
func ContextService(r *gitops.Repo, l *adr.Log, mem evidence.MemorySource, emb *evidence.Embeddings) *evidence.Service {
	return &evidence.Service{
		Log: l, Source: r.WorktreeFS(), CursorKey: r.CursorKey, Prefix: r.Prefix, CacheDir: CacheDir(r),
		Memory:      mem,
		Scope:       ScopeSource(r, l, nil),
		SourceFiles: r.FilesNotIgnored,
		Stale:       Staleness(r, l, nil),
		Embeddings:  emb,
	}
}

// CacheDir is the folder of r's derived caches ($GIT_DIR/adr/cache), the
// context service's.
func CacheDir(r *gitops.Repo) string { return filepath.Join(r.AdrDir(), "cache") }

// ScopeAhead is a scope question found ahead of the question (while the
// log loads): its paths and their markers' git grep output.
type ScopeAhead struct {
	Paths   []string
	Markers []byte
}

// LookAhead finds the scope question over paths and the paths changed
// lists (a diff's): the paths, and when there are any, their markers.
func LookAhead(r *gitops.Repo, paths []string, changed func() ([]string, error)) (*ScopeAhead, error) {
	diff, err := changed()
	if err != nil {
		return nil, err
	}
	a := &ScopeAhead{Paths: append(slices.Clone(paths), diff...)}
	if len(a.Paths) > 0 { // none: no scope question is asked
		a.Markers = GrepMarkers(r, a.Paths)
	}
	return a, nil
}

// ScopeSource answers the context service's scope questions: the
// decisions governing the paths asked about ([Governing]), with the
// markers of ahead when the question is over its paths, else found with
// git grep over those paths.
func ScopeSource(r *gitops.Repo, l *adr.Log, ahead *ScopeAhead) func(paths []string) []evidence.ScopeHit {
	return func(paths []string) []evidence.ScopeHit {
		var markers []byte
		if ahead != nil && slices.Equal(paths, ahead.Paths) {
			markers = ahead.Markers
		} else {
			markers = GrepMarkers(r, paths)
		}
		var hits []evidence.ScopeHit
		for _, m := range Governing(r, l, paths, markers) {
			hits = append(hits, evidence.ScopeHit{Record: m.Record, Path: m.Path, Why: m.Why})
		}
		return hits
	}
}
