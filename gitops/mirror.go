package gitops

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"time"

	"github.com/git-adr/git-adr/internal/failpoint"
	"github.com/go-git/go-git/v5/plumbing"
)

// A mirror is a bare repository that holds one ref of a remote
// repository, fetched into it: git-adr reads its tree without a checkout
// (git adr workspace, ADR-0039).

// OpenMirror opens the bare repository at dir, creating it first (git init
// --bare) when dir does not exist. It is made beside dir and renamed into
// place, so that two processes creating one mirror at once both open the
// same whole repository.
func OpenMirror(dir string) (*Repo, error) {
	// Anything but a look that finds it makes it: a cache folder that
	// is a file is then named by mkdir, not taken for a damaged mirror.
	if _, err := os.Lstat(dir); err != nil {
		if err := os.MkdirAll(filepath.Dir(dir), 0o755); err != nil {
			return nil, err
		}
		sweepNewMirrors(filepath.Dir(dir))
		tmp, err := os.MkdirTemp(filepath.Dir(dir), newMirrorPattern)
		if err != nil {
			return nil, err
		}
		defer os.RemoveAll(tmp)
		if err := initMirror(tmp); err != nil {
			return nil, err
		}
		// The kill test stops git-adr here: the new mirror is made, not
		// yet in place, and left behind.
		failpoint.Hit("mirror-made")
		// Another process may have put its mirror in place first: then
		// the rename fails and that one is used.
		if err := os.Rename(tmp, dir); err != nil {
			if _, serr := os.Stat(dir); serr != nil {
				return nil, err
			}
		}
	}
	return OpenBare(dir)
}

// initMirror makes an empty bare repository in the empty folder dir, as
// `git init --bare --template=` makes one. On Linux, when nothing in the
// environment or git's configuration could make git's differ (another
// object or ref format, a shared repository), it is written here: the
// folders, HEAD and a config of the three keys git writes there, core.filemode
// probed as git probes it. A git init was a process a repository of a
// first sync, about 9 ms of CPU. Anywhere else git makes it.
func initMirror(dir string) error {
	if !initInProcess(dir) {
		// No template: a mirror needs none of its sample hooks or
		// description, and copying them took 40% of git init (50
		// inits: 1.12 s with, 0.66 s without).
		cmd := exec.Command("git", "init", "--bare", "-q", "--template=", "--", dir)
		cmd.Env = gitEnv(mirrorEnv)
		dieWithParent(cmd)
		if out, err := cmd.CombinedOutput(); err != nil {
			return &GitError{Args: cmd.Args[1:], Stderr: string(out), Code: exitCode(err)}
		}
		return nil
	}
	for _, sub := range []string{"objects/info", "objects/pack", "refs/heads", "refs/tags"} {
		if err := os.MkdirAll(filepath.Join(dir, filepath.FromSlash(sub)), 0o777); err != nil {
			return err
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "HEAD"), []byte("ref: refs/heads/master\n"), 0o666); err != nil {
		return err
	}
	config := filepath.Join(dir, "config")
	if err := os.WriteFile(config, nil, 0o666); err != nil {
		return err
	}
	// git's probe: the executable bit is kept when it can be flipped.
	filemode := false
	if st1, err := os.Lstat(config); err == nil && os.Chmod(config, st1.Mode()^0o100) == nil {
		if st2, err := os.Lstat(config); err == nil && st2.Mode() != st1.Mode() {
			filemode = os.Chmod(config, st1.Mode()) == nil
		}
	}
	body := fmt.Sprintf("[core]\n\trepositoryformatversion = 0\n\tfilemode = %t\n\tbare = true\n", filemode)
	return os.WriteFile(config, []byte(body), 0o666)
}

// initInProcess reports whether initMirror may write the repository at
// dir itself: on Linux (elsewhere git probes for case and symbolic links
// and may write more), with no GIT_DEFAULT_HASH or GIT_DEFAULT_REF_FORMAT
// and no configuration that could name an object or ref format or a
// shared repository.
func initInProcess(dir string) bool {
	if runtime.GOOS != "linux" || os.Getenv("GIT_DEFAULT_HASH") != "" || os.Getenv("GIT_DEFAULT_REF_FORMAT") != "" {
		return false
	}
	r := &Repo{GitDir: dir, CommonDir: dir}
	return !r.configMayMention("objectformat", "refformat", "sharedrepository")
}

// newMirrorPattern names a mirror being made, beside where it goes.
const newMirrorPattern = ".new-*.git"

// staleNewMirror is the age past which a mirror being made was left by
// a process that died (a git init takes well under a second).
const staleNewMirror = time.Hour

// swept holds the folders sweepNewMirrors has swept in this process: a
// first sync makes every mirror, and one sweep each is enough.
var swept sync.Map

// sweepNewMirrors removes the mirrors being made in dir that a killed
// sync left there: they are never renamed into place, and would pile up.
// One younger than staleNewMirror may be another sync's, and is left.
func sweepNewMirrors(dir string) {
	if _, done := swept.LoadOrStore(dir, true); done {
		return
	}
	old, _ := filepath.Glob(filepath.Join(dir, newMirrorPattern))
	for _, p := range old {
		if fi, err := os.Lstat(p); err == nil && fi.IsDir() && time.Since(fi.ModTime()) > staleNewMirror {
			os.RemoveAll(p)
		}
	}
}

// OpenBare opens the bare repository at dir; anything else (a work tree, no
// repository) is an error wrapping [ErrNotRepository]. A mirror git-adr
// made (a folder named *.git of this user holding HEAD, objects and refs,
// and no .git) is opened in process: a workspace opens every mirror for
// every command, and a git process each cost more than reading them.
func OpenBare(dir string) (*Repo, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	// A mirror is a folder git-adr made; a link there would have a sync
	// fetch into, and a read read, whatever repository it leads to (the
	// folder holding the mirrors may itself be a link).
	if fi, err := os.Lstat(abs); err == nil && fi.Mode()&fs.ModeSymlink != 0 {
		to, _ := os.Readlink(abs)
		return nil, &MirrorError{Dir: abs, Problem: fmt.Sprintf("is a link to %q, not a folder git-adr made", to)}
	}
	if plainMirror(abs) {
		return &Repo{GitDir: abs, CommonDir: abs, Bare: true, env: mirrorEnv}, nil
	}
	r := &Repo{env: mirrorEnv}
	out, err := r.run(abs, nil, "rev-parse", "--path-format=absolute", "--git-dir", "--git-common-dir", "--is-bare-repository")
	lines := strings.Split(strings.TrimRight(string(out), "\n"), "\n")
	if err != nil || len(lines) != 3 || lines[2] != "true" {
		if fi, serr := os.Stat(abs); serr == nil && fi.IsDir() && runtime.GOOS != "windows" && !ownedByMe(abs) {
			// git's safe.directory refused it: that said "not synced
			// yet" to a reader, and nothing useful to a sync.
			return nil, &MirrorError{Dir: abs, Problem: "is owned by another user, and git's safe.directory does not admit it"}
		}
		if _, serr := os.Lstat(abs); serr == nil {
			// There, but not a repository: a mirror cut short or
			// damaged, which a sync cannot fetch into.
			return nil, &MirrorError{Dir: abs, Problem: "is not a bare repository git can open", Err: ErrNotRepository}
		}
		return nil, fmt.Errorf("%q is not a bare repository: %w", dir, ErrNotRepository)
	}
	r.GitDir, r.CommonDir, r.Bare = lines[0], lines[1], true
	return r, nil
}

// mirrorEnv has every git process run in a mirror find it from its
// folder alone, as git would with a clean environment: the variables
// that place a repository or change what git finds in it (GIT_DIR, set
// inside git's hooks and by tools that run git-adr, and its kin: git
// rev-parse --local-env-vars less the user's configuration, plus
// GIT_NAMESPACE) name the repository the command was run from, never a
// mirror, and would otherwise send a fetch's refs and objects there (git
// init refuses GIT_WORK_TREE outright). git's ownership check
// (safe.directory), which an explicit GIT_DIR would skip, still applies.
var mirrorEnv = []string{"-GIT_DIR", "-GIT_WORK_TREE", "-GIT_IMPLICIT_WORK_TREE", "-GIT_COMMON_DIR",
	"-GIT_OBJECT_DIRECTORY", "-GIT_ALTERNATE_OBJECT_DIRECTORIES", "-GIT_INDEX_FILE", "-GIT_GRAFT_FILE",
	"-GIT_NO_REPLACE_OBJECTS", "-GIT_REPLACE_REF_BASE", "-GIT_PREFIX", "-GIT_INTERNAL_SUPER_PREFIX",
	"-GIT_SHALLOW_FILE", "-GIT_NAMESPACE"}

// FetchRef fetches ref (a branch, a tag or a full ref name) of the
// repository at url into the local ref into, forced, and only its tip
// commit (a shallow fetch, ADR-0045): a workspace reads the tip's tree
// and nothing of the history, which in most repositories is most of
// what a whole fetch transfers. Only objects the mirror lacks are
// transferred. Tags are not fetched; nothing else changes. A ref the
// remote lacks is a *GitError naming it. A transport that cannot fetch
// shallow (git's dumb HTTP) fetches the whole history instead.
//
// The caller holds the mirror's lock ([Repo.Lock]): a lock file of git's
// found in the mirror then is one a killed fetch left (shallow.lock,
// packed-refs.lock, the ref's), which would fail every later fetch, and
// is removed first.
func (r *Repo) FetchRef(url, ref, into string) error {
	if strings.HasPrefix(url, "-") || strings.HasPrefix(ref, "-") {
		return fmt.Errorf("fetch %q %q: %w", url, ref, ErrNotFound)
	}
	if what := foreignMirrorConfig(r.GitDir); what != "" {
		return &MirrorError{Dir: r.GitDir, Problem: what}
	}
	locks := []string{"shallow.lock", "packed-refs.lock"}
	if strings.HasPrefix(into, "refs/") && filepath.IsLocal(into) {
		locks = append(locks, filepath.FromSlash(into)+".lock")
	}
	for _, lock := range locks {
		if err := os.Remove(filepath.Join(r.GitDir, lock)); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
	}
	empty := noObjects(r.CommonDir)
	err := r.fetchRef("--depth=1", url, ref, into, empty)
	var ge *GitError
	if errors.As(err, &ge) && strings.Contains(ge.Stderr, "does not support shallow") {
		err = r.fetchRef("", url, ref, into, empty)
	}
	return err
}

// fetchRef fetches ref into into, with option (one, or ""). A fetch into
// a mirror that held no object (empty) runs no automatic maintenance.
func (r *Repo) fetchRef(option, url, ref, into string, empty bool) error {
	// No hook runs in a mirror (git runs reference-transaction and
	// pre-auto-gc hooks in a fetch; a mirror's hooks folder is nobody's
	// to fill), and never the ext transport, whatever the user's config
	// allows (a workspace file refuses it before; this is the last word).
	args := []string{"-c", "core.hooksPath=" + os.DevNull, "-c", "protocol.ext.allow=never"}
	if empty {
		// git runs `git maintenance run --auto` after every fetch: a
		// process that packs loose objects past gc.auto (6,700) and
		// packs past gc.autoPackLimit (50). A fetch into an empty
		// mirror leaves one pack, or fewer loose objects than
		// fetch.unpackLimit (100): there is nothing to do, and the
		// process was about 3% of a first sync's CPU. The next fetch
		// runs it as git does.
		args = append(args, "-c", "maintenance.auto=false")
	}
	args = append(args, "fetch", "--quiet", "--no-tags", "--no-write-fetch-head")
	if option != "" {
		args = append(args, option)
	}
	args = append(args, "--end-of-options", url, "+"+ref+":"+into)
	err := r.fetch(args)
	var ge *GitError
	if errors.As(err, &ge) && (strings.Contains(ge.Stderr, "bad object "+into+"\n") ||
		strings.Contains(ge.Stderr, "unable to resolve reference '"+into+"'")) {
		// A tip naming an object the mirror lacks, or no object at all
		// (a damaged mirror), stops every fetch into it for good (a
		// whole fetch says "bad object", a shallow one that the ref is
		// broken): the tip is dropped (the caller holds the mirror's
		// lock) and the ref fetched whole again.
		if _, derr := r.run(r.GitDir, nil, "update-ref", "-d", "--no-deref", into); derr != nil {
			os.Remove(filepath.Join(r.GitDir, filepath.FromSlash(into)))
		}
		err = r.fetch(args)
	}
	return err
}

// noObjects reports whether the object store of the repository at dir
// holds nothing: no pack, and no folder of loose objects.
func noObjects(dir string) bool {
	objects, err := os.ReadDir(filepath.Join(dir, "objects"))
	if err != nil {
		return false
	}
	for _, e := range objects {
		switch e.Name() {
		case "info":
		case "pack":
			if packs, err := os.ReadDir(filepath.Join(dir, "objects", "pack")); err != nil || len(packs) > 0 {
				return false
			}
		default:
			return false
		}
	}
	return true
}

// fetch runs one git fetch in the mirror.
func (r *Repo) fetch(args []string) error {
	cmd := exec.Command("git", args...)
	cmd.Dir = r.GitDir
	// git finds the mirror from its folder; were the folder no longer a
	// repository (a prune moved it aside under a sync that had opened
	// it), git must not look above it and fetch into a repository that
	// holds the cache folder (a home folder kept in git).
	cmd.Env = gitEnv(mirrorEnv, []string{"-GIT_CEILING_DIRECTORIES", "GIT_CEILING_DIRECTORIES=" + filepath.Dir(r.GitDir)})
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	// A fetch must not outlive the sync that holds the mirror's lock: if
	// git-adr is killed, so is git (where the system can say so), and the
	// next sync finds no fetch of a dead one still writing. git moves the
	// ref only once every object it names is in the mirror, so a fetch
	// cut short leaves the tip where it was.
	dieWithParent(cmd)
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("run git: %w", err)
	}
	// The kill test stops git-adr here, the fetch under way.
	failpoint.Hit("mirror-fetching")
	if err := cmd.Wait(); err != nil {
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			return &GitError{Args: args, Stderr: stderr.String(), Code: ee.ExitCode()}
		}
		return fmt.Errorf("run git: %w", err)
	}
	return nil
}

// MirrorError is a mirror that is not as git-adr made it: a link, or a
// config holding what git-adr never writes there (git would act on it in
// a fetch: core.hooksPath, core.sshCommand, url.*.insteadOf,
// credential.helper, an include, ...). It is neither fetched into nor
// read until it is made again.
type MirrorError struct {
	// Dir is the mirror; Problem says what is wrong with it.
	Dir, Problem string
	// Err, when set, is the sentinel the problem also is
	// ([ErrNotRepository]).
	Err error
}

func (e *MirrorError) Error() string {
	return fmt.Sprintf("mirror %s: %s", e.Dir, e.Problem)
}

func (e *MirrorError) Unwrap() error { return e.Err }

// mirrorKeys are the keys git init --bare writes in a mirror's config,
// on any system: nothing in them makes git run a program.
var mirrorKeys = map[string]bool{
	"core.repositoryformatversion": true, "core.filemode": true, "core.bare": true,
	"core.ignorecase": true, "core.precomposeunicode": true, "core.symlinks": true,
	"core.logallrefupdates": true, "extensions.objectformat": true,
	// config.worktree is refused below, so this adds no key.
	"extensions.worktreeconfig": true,
}

// foreignMirrorConfig says what in the mirror at dir git-adr did not put
// there and git would act on, or "": a config key git init does not
// write (or a line this reader cannot place, a subsection, an include),
// a config that does not say bare = true (a repository's own .git), or a
// commondir or config.worktree file (git would read more config there).
func foreignMirrorConfig(dir string) string {
	const gitSpace = " \t\r"
	for _, name := range []string{"commondir", "config.worktree"} {
		if _, err := os.Lstat(filepath.Join(dir, name)); err == nil {
			return "it holds a " + name + " file, which git-adr never writes there"
		}
	}
	data, err := os.ReadFile(filepath.Join(dir, "config"))
	if err != nil {
		return "it has no readable config"
	}
	foreign := func(what string) string { return "its config holds " + what + ", which git-adr never writes there" }
	section, bare := "", false
	for _, line := range strings.Split(string(data), "\n") {
		line = strings.Trim(line, gitSpace)
		if line == "" || line[0] == '#' || line[0] == ';' {
			continue
		}
		if line[0] == '[' {
			head, rest, _ := strings.Cut(line[1:], "]")
			rest = strings.Trim(rest, gitSpace)
			if strings.ContainsAny(head, " \t\"") || rest != "" && rest[0] != '#' && rest[0] != ';' {
				return foreign(fmt.Sprintf("%q", line))
			}
			section = strings.ToLower(head)
			continue
		}
		key, value, _ := strings.Cut(line, "=")
		key = section + "." + strings.ToLower(strings.Trim(key, gitSpace))
		if !mirrorKeys[key] || strings.HasSuffix(line, "\\") {
			return foreign(key)
		}
		if key == "core.bare" {
			bare = strings.Trim(value, gitSpace) == "true"
		}
	}
	if !bare {
		return "its config does not say bare = true (it is not a mirror git-adr made)"
	}
	return ""
}

// plainMirror reports whether abs looks like a bare repository git-adr
// created: anything less plain is left to git rev-parse, which applies
// git's own rules (safe.directory among them).
func plainMirror(abs string) bool {
	if !strings.HasSuffix(abs, ".git") {
		return false
	}
	fi, err := os.Stat(abs)
	if err != nil || !fi.IsDir() || !ownedByMe(abs) {
		return false
	}
	for _, name := range []string{"HEAD", "objects", "refs", "config"} {
		if _, err := os.Stat(filepath.Join(abs, name)); err != nil {
			return false
		}
	}
	_, err = os.Stat(filepath.Join(abs, ".git"))
	return errors.Is(err, os.ErrNotExist)
}

// IsMirror reports whether the folder dir holds a repository (its HEAD
// and objects): a prune tells a mirror that recorded no workspace file
// from a folder that is nobody's mirror.
func IsMirror(dir string) bool {
	for _, name := range []string{"HEAD", "objects"} {
		if _, err := os.Lstat(filepath.Join(dir, name)); err != nil {
			return false
		}
	}
	return true
}

// RefHash is the object a full ref name points at, read in process when
// go-git can, through git otherwise; a missing ref wraps [ErrNotFound].
func (r *Repo) RefHash(name string) (string, error) {
	if g := r.goGit(); g != nil {
		ref, err := g.Reference(plumbing.ReferenceName(name), true)
		if err == nil {
			return ref.Hash().String(), nil
		}
		if errors.Is(err, plumbing.ErrReferenceNotFound) {
			return "", fmt.Errorf("%q: %w", name, ErrNotFound)
		}
	}
	return r.ResolveRef(name)
}

// RefTree is the commit a ref names (a full name, such as
// refs/adr-workspace/main) and its tree as a file system, read in process
// when go-git can, through git otherwise.
func (r *Repo) RefTree(name string) (commit string, fsys fs.FS, err error) {
	if g := r.goGit(); g != nil {
		if ref, err := g.Reference(plumbing.ReferenceName(name), true); err == nil {
			c := ref.Hash().String()
			if t, err := r.commitTree(c); err == nil {
				if _, ok := r.treeEntries(t); ok {
					return c, newLazyFS(r.treeLister(t), r.readBlob), nil
				}
			}
		}
	}
	c, err := r.ResolveRef(name + "^{commit}")
	if err != nil {
		return "", nil, err
	}
	fsys, err = r.TreeFS(c)
	return c, fsys, err
}

func exitCode(err error) int {
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		return ee.ExitCode()
	}
	return -1
}
