package workspace

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/git-adr/git-adr/adr"
	"github.com/git-adr/git-adr/gitops"
	"github.com/git-adr/git-adr/internal/failpoint"
)

// ErrNotRepository means a local member's path is not the top of a git
// repository.
var ErrNotRepository = errors.New("not a git repository")

// ErrNoPath means a local member's path named nothing when the workspace
// file was loaded: the repository is not cloned on this machine.
var ErrNoPath = errors.New("no such path")

// ErrNotSynced means a remote member has no mirror, or its mirror lacks
// the ref: `git adr workspace sync` fetches it.
var ErrNotSynced = errors.New("not synced yet")

// Loaded is one member's decision log, open. Close it before opening
// many others: [Workspace.Each] does.
type Loaded struct {
	Member *Member
	Log    *adr.Log
	Repo   *gitops.Repo
	// FS is the tree the log was read from (a commit tree, or the work
	// tree of a local member without ref).
	FS fs.FS
	// Commit is the commit read ("" for a work tree).
	Commit string
	// CacheDir is the repository's cache folder ($GIT_COMMON_DIR/adr/cache).
	CacheDir string
}

// Close ends the helper processes of the member's repository.
func (l *Loaded) Close() { l.Repo.Close() }

// openLocal opens a local member, which must be the top of a repository
// (a folder inside another repository is not one).
func (m *Member) openLocal() (*gitops.Repo, error) {
	if m.missing {
		return nil, fmt.Errorf("path %q: %w", m.Given, ErrNoPath)
	}
	r, err := gitops.Open(m.Path)
	if errors.Is(err, gitops.ErrBare) {
		return r, nil
	}
	if err != nil {
		return nil, fmt.Errorf("path %q: %w", m.Given, ErrNotRepository)
	}
	top, _ := filepath.EvalSymlinks(r.Top)
	if top != m.Path {
		r.Close()
		return nil, fmt.Errorf("path %q: %w (it is a folder inside %s)", m.Given, ErrNotRepository, r.Top)
	}
	return r, nil
}

// Open reads the member's log: a remote member's from its mirror's ref,
// a local member's from its ref when it names one, else from its work
// tree, through the repository's parse cache. lazy loads records by file
// name and parses them on demand (adr.Log.Ensure).
func (m *Member) Open(lazy bool) (*Loaded, error) {
	r, err := m.repository()
	if err != nil {
		return nil, err
	}
	// The race test stops a question here, one member's mirror opened and
	// its log not read, while a prune removes the mirror (members are
	// read side by side: the point names the member).
	failpoint.Hit("member-opened/" + m.Name)
	return m.load(r, "", lazy)
}

// repository opens the member's repository: its mirror, or the local
// repository at its path.
func (m *Member) repository() (*gitops.Repo, error) {
	if m.Remote() {
		r, err := gitops.OpenBare(m.Mirror)
		var me *gitops.MirrorError
		if errors.As(err, &me) {
			return nil, fmt.Errorf("repo %q: %w", m.Name, err)
		}
		if err != nil {
			return nil, fmt.Errorf("repo %q: %w", m.Name, ErrNotSynced)
		}
		return r, nil
	}
	r, err := m.openLocal()
	if err != nil {
		return nil, fmt.Errorf("repo %q: %w", m.Name, err)
	}
	return r, nil
}

// load reads the member's log from r, which [Member.repository] opened,
// and owns r from then on: r is closed when the log does not load. commit,
// when not "", is the commit a local member's ref names, already resolved
// (sync resolves it to stamp the summary): it is not asked of git again.
func (m *Member) load(r *gitops.Repo, commit string, lazy bool) (*Loaded, error) {
	var err error
	ld := &Loaded{Member: m, Repo: r, CacheDir: filepath.Join(r.AdrDir(), "cache")}
	switch {
	case m.Remote():
		c, fsys, err := r.RefTree(tipRef(m.ref()))
		if err != nil {
			r.Close()
			return nil, fmt.Errorf("repo %q: ref %q: %w", m.Name, m.ref(), ErrNotSynced)
		}
		ld.Commit, ld.FS = c, fsys
	case commit != "":
		ld.Commit = commit
	case m.Ref != "" || r.Bare:
		c, err := r.ResolveRef(m.ref() + "^{commit}")
		if err != nil {
			r.Close()
			return nil, fmt.Errorf("repo %q: %w", m.Name, badRef(m))
		}
		ld.Commit = c
	}
	if ld.FS == nil && ld.Commit != "" {
		if ld.FS, err = r.TreeFS(ld.Commit); err != nil {
			r.Close()
			return nil, fmt.Errorf("repo %q: %w", m.Name, err)
		}
	} else if ld.FS == nil {
		ld.FS = r.WorktreeFS()
	}
	cache := adr.OpenCache(ld.CacheDir, false)
	l, err := adr.Load(ld.FS, adr.LoadOptions{Lazy: lazy, Cache: cache})
	_ = cache.SaveIfWorth()
	if err != nil {
		r.Close()
		return nil, fmt.Errorf("repo %q: %w", m.Name, err)
	}
	ld.Log = l
	return ld, nil
}

// Each opens every member in order and calls fn with its log, closing
// it before the next opens: only one log is held at a time. In a
// [Workspace.Reading] view an unavailable member is noted and passed over.
func (w *Workspace) Each(lazy bool, fn func(*Loaded) error) error {
	return w.each(lazy, fn, nil)
}

// each is Each, calling skipped, when not nil, in the members' order for
// a member passed over.
func (w *Workspace) each(lazy bool, fn func(*Loaded) error, skipped func(Unavailable)) error {
	for _, m := range w.Members {
		ld, err := m.Open(lazy)
		if err != nil {
			if w.skip(m, err) {
				if skipped != nil {
					skipped(Unavailable{m, err})
				}
				continue
			}
			return err
		}
		err = fn(ld)
		ld.Close()
		if err != nil {
			return err
		}
	}
	return w.noneRead() // none could be read: an answer would say nothing
}

// maxParallel bounds how many members [Workspace.eachParallel] reads at
// once, whatever the number of cores: each holds a whole log.
const maxParallel = 4

// eachParallel is [Workspace.Each] over a few members at once (one per
// core, at most maxParallel), each log closed once fn returns; only the
// members whose indexes ask holds (in order) are read, every one when ask
// is nil, and fn gets the member's index. The first error in member order
// is returned, after every member started has finished.
func (w *Workspace) eachParallel(ask []int, progress func(done, total int), fn func(i int, ld *Loaded) error) error {
	if ask == nil {
		ask = make([]int, len(w.Members))
		for i := range ask {
			ask[i] = i
		}
	}
	workers := min(runtime.GOMAXPROCS(0), maxParallel, max(1, len(ask)))
	errs := make([]error, len(ask))
	var next, done atomic.Int64
	var mu sync.Mutex
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				k := int(next.Add(1) - 1)
				if k >= len(ask) {
					return
				}
				i := ask[k]
				ld, err := w.Members[i].Open(false)
				if err == nil {
					err = fn(i, ld)
					ld.Close()
				} else if w.skip(w.Members[i], err) {
					err = nil
				}
				errs[k] = err
				if progress != nil {
					mu.Lock()
					progress(int(done.Add(1)), len(ask))
					mu.Unlock()
				}
				if err != nil {
					next.Store(int64(len(ask))) // start no other
				}
			}
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}
