package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"golang.org/x/term"

	"github.com/git-adr/git-adr/adr"
	"github.com/git-adr/git-adr/adr/audit"
	"github.com/git-adr/git-adr/gitops"
	"github.com/git-adr/git-adr/internal/gcpolicy"
	"github.com/git-adr/git-adr/workspace"
)

// Env is everything a command touches outside itself: streams, the
// repository and global options. Nothing below cmd prints.
type Env struct {
	In       io.Reader
	Out, Err io.Writer
	// Dir is the -C directory ("" for the working directory).
	Dir string
	// Roots are --root overrides.
	Roots []string
	// Workspace is the --workspace file (or GIT_ADR_WORKSPACE); ws is
	// it loaded (workspace.go).
	Workspace string
	ws        *workspace.Workspace
	// wsSkips are the repositories ws's reads went on without
	// (workspace.Workspace.Reading), warned of when the command ends.
	wsSkips *workspace.Skips

	repo *gitops.Repo
	log  *adr.Log
	// exit is set by handlers that cannot return an error.
	exit int
	// rootRel are the --root values relative to the repository root.
	rootRel []string

	// command is the command line, recorded in the lock and journals.
	command string
	// lock is the project lock while the command holds it.
	lock          *gitops.Lock
	stopSignals   func()
	warnedPending bool
	// allowBare lets Repo open a repository without a work tree.
	allowBare bool
	// readOnly: the command promises no write at all, not even of
	// git-adr's own state (the compaction analysis).
	readOnly bool
	// serving: the process answers call after call (the MCP server), so
	// files are read into the heap, where what a call no longer needs is
	// given back; a command that runs once reads its caches outside it
	// (package offheap).
	serving bool
	// cache is the parse cache of cacheDir, opened once (parseCache).
	cache    *adr.Cache
	cacheDir string
	// parsed, when set, is told of each record the log's load reads and
	// parses (adr.LoadOptions.Parsed); loading, when set, is what the
	// load's progress says it does ("reading records" otherwise).
	parsed  func(*adr.Record)
	loading string
}

// rootsRel returns the --root values relative to the repository root
// (values outside it are dropped here; Log reports them).
func (e *Env) rootsRel() []string {
	if e.rootRel != nil || len(e.Roots) == 0 {
		return e.rootRel
	}
	r, err := e.Repo()
	if err != nil {
		return nil
	}
	for _, p := range e.Roots {
		if rel, ok := r.Rel(p); ok {
			e.rootRel = append(e.rootRel, rel)
		}
	}
	return e.rootRel
}

// Repo opens the repository once.
func (e *Env) Repo() (*gitops.Repo, error) {
	if e.repo != nil {
		return e.repo, nil
	}
	dir := e.Dir
	if dir == "" {
		dir = "."
	}
	r, err := gitops.Open(dir)
	if errors.Is(err, gitops.ErrBare) && e.allowBare {
		e.repo = r
		return r, nil
	}
	if err != nil {
		if errors.Is(err, gitops.ErrBare) {
			return nil, failf("%s is a bare repository; this command needs a work tree", quoteDir(dir)).
				hint("in a bare repository git-adr runs `git adr check --since REV` and `git adr hook pre-receive`")
		}
		if errors.Is(err, gitops.ErrNotRepository) {
			return nil, failf("%s is not inside a git work tree", quoteDir(dir)).
				hint("run `git init` first, or pass -C DIR to name a repository")
		}
		return nil, err
	}
	e.repo = r
	return r, nil
}

func quoteDir(d string) string {
	if d == "." {
		if wd, err := os.Getwd(); err == nil {
			return fmt.Sprintf("%q", wd)
		}
	}
	return fmt.Sprintf("%q", d)
}

// Log loads the decision log from the work tree once and prints discovery
// notes to stderr.
func (e *Env) Log() (*adr.Log, error) { return e.load(false) }

// LogWithoutTexts is Log for a command that reads what the parse gives of
// each record and never its text (list, check, index, graph): each text
// the load reads is let go of once parsed, so that a first load of a long
// log never holds every text at once; one read after is read again,
// checked against its blob.
func (e *Env) LogWithoutTexts() (*adr.Log, error) {
	if e.log == nil && e.parsed == nil {
		e.parsed = (*adr.Record).ReleaseText
	}
	return e.load(false)
}

// LazyLog is Log for commands that touch few records: records are known by
// file name and parsed on demand (adr.Log.Ensure).
func (e *Env) LazyLog() (*adr.Log, error) { return e.load(true) }

func (e *Env) load(lazy bool) (*adr.Log, error) {
	if e.log != nil {
		return e.log, nil
	}
	gcpolicy.Defer()
	r, err := e.Repo()
	if err != nil {
		return nil, err
	}
	var roots []string
	for _, p := range e.Roots {
		rel, ok := r.Rel(p)
		if !ok {
			return nil, usagef("--root %q is outside the repository %q", p, r.Top)
		}
		roots = append(roots, rel)
	}
	e.rootRel = roots
	e.warnPending(r)
	fsys := r.WorktreeFS()
	if r.Bare {
		// A server has no work tree: the log is HEAD's.
		if fsys, err = r.TreeFS("HEAD"); err != nil {
			return nil, failf("the bare repository has no HEAD commit to read the log from")
		}
	}
	cache := e.parseCache(r)
	// A cold load of a long log parses for seconds: a terminal sees it.
	what := "reading records"
	if e.loading != "" {
		what = e.loading
	}
	progress, done := terminalProgress(e.Err, what)
	l, err := adr.Load(fsys, adr.LoadOptions{Roots: roots, Cwd: r.Prefix, Lazy: lazy, Cache: cache, Progress: progress, Parsed: e.parsed})
	done()
	// A cache that cannot be written costs time in later runs, nothing
	// else; nor does one that is not, which is not worth it for a few new
	// entries in a long log (SaveIfWorth).
	_ = cache.SaveIfWorth()
	if err != nil {
		var ce *adr.ConfigError
		if errors.As(err, &ce) {
			return nil, usagef("%v", err).hint("fix " + ce.Path + "; docs/configuration.md describes the configuration files")
		}
		if errors.Is(err, os.ErrNotExist) && len(roots) > 0 {
			return nil, usagef("%v", err).hint("check the --root value, or create the directory with `git adr init --dir DIR`")
		}
		if errors.Is(err, gitops.ErrSpecialFile) {
			return nil, failf("%v", err).hint("git-adr reads only regular files: move the named pipe, socket or device out of the ADR directory")
		}
		if errors.Is(err, gitops.ErrOutside) {
			return nil, failf("%v", err).hint("replace the link with the directory or file itself, inside the repository")
		}
		return nil, err
	}
	for _, n := range l.Notes {
		if adr.NoteSeen(r.AdrDir(), n, e.readOnly) {
			continue
		}
		fmt.Fprintf(e.Err, "git-adr: note: %s\n", adr.EscapeBody(n))
	}
	e.log = l
	return l, nil
}

// parseCache is the repository's parse cache ($GIT_COMMON_DIR/adr/cache,
// shared by linked worktrees: it is keyed by blob). A command that
// promises no write at all reads it and never writes it.
func (e *Env) parseCache(r *gitops.Repo) *adr.Cache {
	// One per command: a second load (check --since's merge base) reads
	// the cache file the first one read, and its records are mostly
	// the same blobs.
	dir := filepath.Join(r.AdrDir(), "cache")
	if e.cache == nil || e.cacheDir != dir {
		e.cache, e.cacheDir = adr.OpenCache(dir, e.readOnly), dir
		if !e.serving {
			e.cache.ReadOutsideHeap()
		}
	}
	return e.cache
}

// writableLog takes the write lock, then loads the log, which must have a
// root: what every command that edits records starts with.
func (e *Env) writableLog() (*adr.Log, error) {
	if err := e.lockWrites(); err != nil {
		return nil, err
	}
	l, err := e.Log()
	if err != nil {
		return nil, err
	}
	return l, e.requireRoots(l)
}

// requireRoots fails with a hint when the repository has no ADR directory.
func (e *Env) requireRoots(l *adr.Log) error {
	if len(l.Roots) == 0 {
		return failf("no ADR directory found in this repository").
			hint("run `git adr init` to start a log in doc/adr, or `git adr init --dir DIR`",
				"or name an existing directory with --root DIR")
	}
	return nil
}

// interactive reports whether stdin and stdout are a terminal.
func (e *Env) interactive() bool {
	in, ok1 := e.In.(*os.File)
	out, ok2 := e.Out.(*os.File)
	return ok1 && ok2 && term.IsTerminal(int(in.Fd())) && term.IsTerminal(int(out.Fd()))
}

// Changeset returns a journalled changeset for the work tree. The command
// must hold the project lock (see [Env.lockWrites]): a write without it is
// refused as the bug it is.
func (e *Env) Changeset() (*adr.Changeset, error) {
	r, err := e.Repo()
	if err != nil {
		return nil, err
	}
	if e.lock == nil {
		return nil, gitops.ErrNotLocked
	}
	return &adr.Changeset{Top: r.Top, JournalDir: journalDir(r), Command: e.command}, nil
}

// branchTrees returns the trees of every local and remote-tracking branch
// except the current one (whose files are the work tree; audit.BranchTrees).
func (e *Env) branchTrees() ([]adr.BranchTree, error) {
	r, err := e.Repo()
	if err != nil {
		return nil, err
	}
	return audit.BranchTrees(r)
}

// defaultLog is an empty log rooted at adr-tools' default doc/adr.
func (e *Env) defaultLog() (*adr.Log, error) {
	r, err := e.Repo()
	if err != nil {
		return nil, err
	}
	l, err := adr.LoadWithConfig(r.WorktreeFS(), &adr.Config{}, adr.LoadOptions{Roots: []string{"doc/adr"}, AllowMissing: true})
	if err != nil {
		return nil, err
	}
	e.log = l
	return l, nil
}
