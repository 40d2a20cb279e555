// Package gitops is the one place git-adr talks to git.
//
// # Division of labour
//
// The git binary does everything where git's own behaviour must be honoured
// exactly: repository discovery (except a plain work tree of this user,
// found by reading its .git: see [Open]), configuration (global, include and
// environment config), ref transactions, status and anything a hook may see
// through GIT_* variables. go-git is used only for fast in-process object
// reads (trees and blobs of other branches); when go-git refuses a repository
// (sparse checkouts set extensions.worktreeConfig, for example) every read
// falls back to the git binary and the user never notices.
//
// # Errors
//
// Failures of the git binary become [*GitError] values carrying the command
// and git's own message; a lost compare-and-swap race is [ErrRefChanged].
package gitops

import (
	"bytes"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/go-git/go-billy/v5/osfs"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/cache"
	"github.com/go-git/go-git/v5/plumbing/storer"
	"github.com/go-git/go-git/v5/storage/filesystem"
)

// ErrNotRepository means the directory is not inside a git work tree.
var ErrNotRepository = errors.New("not inside a git work tree")

// ErrRefChanged means a compare-and-swap ref update lost a race: the ref no
// longer holds the value the caller read.
var ErrRefChanged = errors.New("ref changed concurrently")

// ErrNotFound means a path, revision or config key does not exist.
var ErrNotFound = errors.New("not found")

// GitError is a failed invocation of the git binary.
type GitError struct {
	Args   []string
	Stderr string
	Code   int
}

func (e *GitError) Error() string {
	msg := strings.TrimSpace(e.Stderr)
	if msg == "" {
		msg = fmt.Sprintf("exit status %d", e.Code)
	}
	return fmt.Sprintf("git %s: %s", strings.Join(e.Args, " "), msg)
}

// Repo is an opened repository: the work tree a command runs in, its git
// directories, and (when go-git accepts the repository) an in-process object
// reader.
type Repo struct {
	// Top is the absolute path of the work tree root.
	Top string
	// GitDir is the absolute git directory of this work tree (for a linked
	// worktree, .git/worktrees/<name>).
	GitDir string
	// CommonDir is the absolute directory shared by all worktrees.
	CommonDir string
	// Prefix is the slash-separated path of the starting directory relative
	// to Top ("" at the top).
	Prefix string
	// Bare means there is no work tree (Top is ""): only objects and refs
	// can be read.
	Bare bool

	gogit    *goRepo
	gogitErr error
	// gogitOnce opens gogit once, whichever goroutine asks first (a load
	// reads blobs on every core).
	gogitOnce sync.Once
	packs     packs
	env       []string

	batchOnce sync.Once
	cat       *catFile

	// held is the project lock while this process holds it.
	held atomic.Pointer[Lock]
}

// Open finds the repository containing dir, exactly as git would (linked
// worktrees, GIT_DIR and GIT_WORK_TREE included). A plain work tree of
// this user is found by reading its .git (see discover); anything else is
// asked of `git rev-parse`, which also applies git's safe.directory
// ownership rules.
func Open(dir string) (*Repo, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	if fi, err := os.Stat(abs); err != nil {
		return nil, fmt.Errorf("open repository: %w", err)
	} else if !fi.IsDir() {
		return nil, fmt.Errorf("open repository: %q is not a directory", dir)
	}
	r := &Repo{}
	if phys, err := filepath.EvalSymlinks(abs); err == nil {
		if gitDir, commonDir, top, ok := discover(phys); ok {
			r.GitDir, r.CommonDir, r.Top = gitDir, commonDir, top
			if rel, err := filepath.Rel(top, phys); err == nil && rel != "." {
				r.Prefix = filepath.ToSlash(rel)
			}
			return r, nil
		}
	}
	out, err := r.run(abs, nil, "rev-parse", "--path-format=absolute", "--git-dir", "--git-common-dir", "--show-toplevel", "--show-prefix")
	if err != nil {
		var ge *GitError
		if errors.As(err, &ge) && strings.Contains(ge.Stderr, "must be run in a work tree") {
			if b, berr := openBare(abs); berr == nil {
				return b, fmt.Errorf("%q: %w", abs, ErrBare)
			}
		}
		if errors.As(err, &ge) && (strings.Contains(ge.Stderr, "not a git repository") || strings.Contains(ge.Stderr, "must be run in a work tree")) {
			return nil, fmt.Errorf("%q: %w", abs, ErrNotRepository)
		}
		return nil, err
	}
	lines := strings.Split(strings.TrimRight(string(out), "\n"), "\n")
	if len(lines) < 3 || lines[2] == "" {
		return nil, fmt.Errorf("%q: %w", abs, ErrNotRepository)
	}
	r.GitDir, r.CommonDir, r.Top = lines[0], lines[1], lines[2]
	if len(lines) > 3 {
		r.Prefix = strings.TrimSuffix(lines[3], "/")
	}
	return r, nil
}

// ErrBare means the repository has no work tree. [Open] returns the bare
// repository with it, for the commands that read only git objects (a
// server's pre-receive hook, `git adr check --since`).
var ErrBare = errors.New("a bare repository has no work tree")

// openBare asks git for the bare repository at abs; Open's own discovery
// has already declined it (it never answers for a bare repository).
func openBare(abs string) (*Repo, error) {
	r := &Repo{}
	out, err := r.run(abs, nil, "rev-parse", "--path-format=absolute", "--git-dir", "--git-common-dir", "--is-bare-repository")
	if err != nil {
		return nil, err
	}
	lines := strings.Split(strings.TrimRight(string(out), "\n"), "\n")
	if len(lines) != 3 || lines[2] != "true" {
		return nil, ErrNotRepository
	}
	r.GitDir, r.CommonDir, r.Bare = lines[0], lines[1], true
	return r, nil
}

// goGit returns the in-process object reader, or nil when go-git refuses
// this repository; callers then use the git binary.
func (r *Repo) goGit() *goRepo {
	r.gogitOnce.Do(r.openGoGit)
	return r.gogit
}

// openGoGit opens gogit, or sets gogitErr.
func (r *Repo) openGoGit() {
	// Open the common directory directly: go-git needs no work tree for
	// object reads, and this works the same for linked worktrees.
	fs := osfs.New(r.CommonDir)
	// Pack files are opened per read: go-git's descriptor options keep
	// them in a map it does not guard, and loads read blobs from many
	// goroutines.
	st := filesystem.NewStorageWithOptions(fs, cache.NewObjectLRUDefault(), filesystem.Options{})
	if _, err := st.Reference(plumbing.HEAD); err != nil {
		r.gogitErr = err
		return
	}
	cfg, err := st.Config()
	if err != nil {
		r.gogitErr = err
		return
	}
	// Repository format extensions change how objects and refs are read:
	// refuse every one but noop, so reads stay correct.
	switch v := cfg.Core.RepositoryFormatVersion; v {
	case "", "0", "1":
	default:
		r.gogitErr = fmt.Errorf("repository format version %q not supported by go-git", v)
		return
	}
	if cfg.Raw != nil {
		if s := cfg.Raw.Section("extensions"); s != nil && len(s.Options) > 0 {
			for _, o := range s.Options {
				if !strings.EqualFold(o.Key, "noop") {
					r.gogitErr = fmt.Errorf("extension %q not supported by go-git", o.Key)
					return
				}
			}
		}
	}
	r.gogit = &goRepo{Storer: st}
}

// goRepo reads objects and references in process through go-git's
// storage. It stands for go-git's Repository, whose package brings every
// transport (ssh, http) and their start-up cost into the binary.
type goRepo struct {
	Storer *filesystem.Storage
	// indexed: go-git has built its index of the pack files. It builds it
	// on a first read without a lock, and readers in other goroutines
	// then find it half made (a data race; objects "not found" that are
	// there): the first read builds it alone.
	indexed sync.Once
}

// object reads an object of the given type, packed or loose, whole. It is
// safe for concurrent use.
func (g *goRepo) object(t plumbing.ObjectType, h plumbing.Hash) ([]byte, error) {
	g.indexed.Do(func() {
		// No object has the zero name: the look-up goes through every
		// pack, which builds the index first.
		_, _ = g.Storer.EncodedObject(plumbing.AnyObject, plumbing.ZeroHash)
	})
	o, err := g.Storer.EncodedObject(t, h)
	if err != nil {
		return nil, err
	}
	if o.Type() != t {
		return nil, plumbing.ErrObjectNotFound
	}
	rd, err := o.Reader()
	if err != nil {
		return nil, err
	}
	defer rd.Close()
	return io.ReadAll(rd)
}

// commitTree is the tree a commit names: its first header line,
// "tree <name>".
func (r *Repo) commitTree(h string) (string, error) {
	body, ok := r.storedObject(h, "commit")
	if !ok {
		g := r.goGit()
		if g == nil {
			return "", ErrNotFound
		}
		var err error
		if body, err = g.object(plumbing.CommitObject, plumbing.NewHash(h)); err != nil {
			return "", err
		}
	}
	return commitTreeOf(body)
}

// commitTreeOf reads "tree <40 hex digits>\n" at the start of a commit.
func commitTreeOf(body []byte) (string, error) {
	const head = "tree "
	if len(body) < len(head)+41 || string(body[:len(head)]) != head || body[len(head)+40] != '\n' {
		return "", fmt.Errorf("commit object without a tree line")
	}
	t := string(body[len(head) : len(head)+40])
	if _, err := hex.DecodeString(t); err != nil {
		return "", fmt.Errorf("commit object with a bad tree name %q", t)
	}
	return t, nil
}

// Reference reads a reference, following symbolic ones when resolved.
func (g *goRepo) Reference(name plumbing.ReferenceName, resolved bool) (*plumbing.Reference, error) {
	if resolved {
		return storer.ResolveReference(g.Storer, name)
	}
	return g.Storer.Reference(name)
}

// References iterates every reference, unsorted.
func (g *goRepo) References() (storer.ReferenceIter, error) { return g.Storer.IterReferences() }

// UsesGoGit reports whether in-process object reads are available (false
// means every read goes through the git binary).
func (r *Repo) UsesGoGit() bool { return r.goGit() != nil }

// Git runs git in the work tree root and returns its standard output.
func (r *Repo) Git(args ...string) ([]byte, error) {
	return r.run(r.Top, nil, args...)
}

// GitInput runs git with stdin and returns its standard output.
func (r *Repo) GitInput(stdin []byte, args ...string) ([]byte, error) {
	return r.run(r.Top, stdin, args...)
}

func (r *Repo) run(dir string, stdin []byte, args ...string) ([]byte, error) {
	return r.runEnv(dir, nil, stdin, args...)
}

// runEnv runs git with extra environment variables (for example a
// temporary GIT_INDEX_FILE).
func (r *Repo) runEnv(dir string, extra []string, stdin []byte, args ...string) ([]byte, error) {
	cmd := exec.Command("git", args...)
	if dir == "" {
		dir = r.GitDir // a bare repository
	}
	cmd.Dir = dir
	cmd.Env = gitEnv(r.env, extra)
	if stdin != nil {
		cmd.Stdin = bytes.NewReader(stdin)
	}
	var stdout, stderr bytes.Buffer
	cmd.Stdout = &stdout
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			return stdout.Bytes(), &GitError{Args: args, Stderr: stderr.String(), Code: ee.ExitCode()}
		}
		return nil, fmt.Errorf("run git: %w", err)
	}
	return stdout.Bytes(), nil
}

// gitEnv is the environment of every git process: the caller's, with
// git's messages fixed to the C locale. git-adr reads git's output and
// recognises some of its error messages, so they must not be translated;
// LANGUAGE would override LC_ALL for gettext, so it is removed. An extra
// "-NAME" removes NAME from the caller's (a mirror's processes drop the
// variables that place a repository: see mirrorEnv).
func gitEnv(extra ...[]string) []string {
	env := make([]string, 0, len(os.Environ())+4)
	for _, kv := range os.Environ() {
		if strings.HasPrefix(kv, "LANGUAGE=") || strings.HasPrefix(kv, "LC_ALL=") || strings.HasPrefix(kv, "LC_MESSAGES=") {
			continue
		}
		if name, _, _ := strings.Cut(kv, "="); dropped(extra, name) {
			continue
		}
		env = append(env, kv)
	}
	env = append(env, "LC_ALL=C")
	for _, e := range extra {
		for _, kv := range e {
			if !strings.HasPrefix(kv, "-") {
				env = append(env, kv)
			}
		}
	}
	return env
}

func dropped(extra [][]string, name string) bool {
	for _, e := range extra {
		for _, kv := range e {
			if len(kv) == len(name)+1 && kv[0] == '-' && kv[1:] == name {
				return true
			}
		}
	}
	return false
}

// AdrDir is the local-only state directory, $GIT_COMMON_DIR/adr. It never
// lives in the work tree.
func (r *Repo) AdrDir() string { return filepath.Join(r.CommonDir, "adr") }

// Abs turns a slash-separated path relative to Top into an absolute path.
func (r *Repo) Abs(rel string) string { return filepath.Join(r.Top, filepath.FromSlash(rel)) }

// Rel turns an absolute or working-directory-relative path into a
// slash-separated path relative to Top. It reports false when the path lies
// outside the work tree.
func (r *Repo) Rel(p string) (string, bool) {
	if !filepath.IsAbs(p) {
		p = filepath.Join(r.Top, filepath.FromSlash(r.Prefix), p)
	}
	rel, err := filepath.Rel(r.Top, p)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return "", false
	}
	rel = filepath.ToSlash(rel)
	if rel == "." {
		rel = ""
	}
	return rel, true
}
