package audit

import (
	"github.com/git-adr/git-adr/adr"
	"github.com/git-adr/git-adr/adr/evidence"
	"github.com/git-adr/git-adr/gitops"
	"github.com/git-adr/git-adr/internal/prefetch"
)

// Ahead is what a context question asks git while the log loads: a
// task's source search lists the work tree; a diff's paths come from
// git, which stats the work tree, and their markers from git grep; a
// question about paths (a diff, a file) lists the tracked files for the
// staleness of the records that govern them.
type Ahead struct {
	diff    string
	sources func() ([]string, error)
	tracked func() ([]string, error)
	scoped  func() (*ScopeAhead, error)
	scope   *ScopeAhead
}

// StartAhead starts what req needs from git, with diff the revision the
// work tree is compared with ("staged": the index against HEAD; "":
// none) and changed the paths that diff changes.
func StartAhead(r *gitops.Repo, req evidence.Request, diff string, changed func() ([]string, error)) *Ahead {
	a := &Ahead{diff: diff}
	if req.Task != "" {
		a.sources = prefetch.Start(r.FilesNotIgnored)
	}
	if diff != "" || len(req.Paths) > 0 {
		a.tracked = prefetch.Start(func() ([]string, error) { return r.TrackedFiles("") })
	}
	if diff != "" {
		paths := req.Paths
		a.scoped = prefetch.Start(func() (*ScopeAhead, error) { return LookAhead(r, paths, changed) })
	}
	return a
}

// Request completes req with the diff's scope question: its paths (the
// paths asked about and those the diff changes) and the diff's name. An
// error is the diff's (changed's).
func (a *Ahead) Request(req *evidence.Request) error {
	if a.scoped == nil {
		return nil
	}
	s, err := a.scoped()
	if err != nil {
		return err
	}
	a.scope = s
	req.Paths = s.Paths
	if len(req.Paths) == 0 {
		req.Paths = nil
	}
	req.Diff = a.diff
	return nil
}

// Serve gives svc, the context service over l, what was found ahead.
func (a *Ahead) Serve(svc *evidence.Service, r *gitops.Repo, l *adr.Log) {
	if a.tracked != nil {
		svc.Stale = Staleness(r, l, a.tracked)
	}
	if a.scope != nil {
		svc.Scope = ScopeSource(r, l, a.scope)
	}
	if a.sources != nil {
		svc.SourceFiles = a.sources
	}
}
