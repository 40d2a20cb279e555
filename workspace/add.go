package workspace

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
	"time"

	"github.com/git-adr/git-adr/gitops"
	"github.com/git-adr/git-adr/internal/atomicfile"
	"github.com/git-adr/git-adr/internal/failpoint"
)

// AddRequest is a repository to add to a workspace file.
type AddRequest struct {
	// Target is a local repository's folder (relative to Dir) or a
	// remote repository's URL, as the user gave it.
	Target, Dir string
	// Name is the member's name ("" for its folder's or URL's last word,
	// made unique); Ref the ref read ("" for HEAD, or the work tree of a
	// local repository).
	Name, Ref string
	// Command is recorded in the file's lock for whoever finds it held.
	Command string
}

// ErrMadeMeanwhile means the workspace file an add was making appeared
// while it read (made by something that does not take its lock): nothing
// was written over it.
var ErrMadeMeanwhile = errors.New("was made while this add read it")

// addLockWait bounds the wait for another add to the same file.
const addLockWait = 10 * time.Second

// Add appends a [[repo]] naming req.Target to the workspace file at file
// (made when it is not there), under the file's lock (file.lock, as git
// locks its own files), so that adds at once all land: the file is read,
// the entry appended to its text (its comments and layout kept), the
// whole read back as [Load] reads it, and written whole through a
// temporary file. A file kept elsewhere and linked here is edited where
// it is. Nothing is written when the file does not load before or after,
// or names the repository already. It returns the member added, as
// the file now reads, and whether the file was made.
func Add(file string, req AddRequest) (added *Member, created bool, err error) {
	abs, real, lock, err := lockFile(file, req.Command)
	if err != nil {
		return nil, false, err
	}
	defer lock.Release()
	var old []byte
	var w *Workspace
	switch data, err := readFile(abs); {
	case errors.Is(err, fs.ErrNotExist):
		created = true
		w = &Workspace{Path: abs, Dir: filepath.Dir(abs)}
	case err != nil:
		return nil, false, withFile(err, file)
	default:
		old = data
		if w, err = decode(file, abs, data, os.TempDir()); err != nil {
			return nil, false, err
		}
	}
	entry, bad := w.entry(req)
	if bad != nil {
		bad.File = file
		return nil, false, bad
	}
	text := append(bytes.Clone(old), renderEntry(entry, created, len(old) > 0 && !bytes.HasSuffix(old, []byte("\n")))...)
	after, err := decode(file, abs, text, os.TempDir())
	if err != nil {
		return nil, false, err
	}
	// The kill test stops the add here, under the lock, nothing written.
	failpoint.Hit("workspace-add-write")
	// A file made meanwhile by what does not take its lock (an init, an
	// editor) is not written over.
	if err := writeEdit(real, text, created); err != nil {
		if errors.Is(err, fs.ErrExist) {
			return nil, false, fmt.Errorf("workspace %s: %w", file, ErrMadeMeanwhile)
		}
		return nil, false, err
	}
	return after.Member(entry.Name), created, nil
}

// writeEdit writes text, an edited workspace file, whole at real, keeping
// the file's mode; with create only where no file is.
func writeEdit(real string, text []byte, create bool) error {
	if create {
		return atomicfile.Create(real, text, 0o644)
	}
	mode := fs.FileMode(0o644)
	if fi, err := os.Stat(real); err == nil {
		mode = fi.Mode().Perm()
	}
	return atomicfile.Write(real, text, mode)
}

// lockFile takes the lock of the workspace file at file, for an edit:
// abs is the file as named (its paths are relative to that folder, as
// Load reads them), real the file it is (a link followed), where it is
// written and its lock (real.lock) taken.
func lockFile(file, command string) (abs, real string, lock *gitops.Lock, err error) {
	if abs, err = filepath.Abs(file); err != nil {
		return "", "", nil, err
	}
	real = abs
	if r, err := filepath.EvalSymlinks(abs); err == nil {
		real = r
	}
	lock, err = gitops.LockFileAt(real+".lock", gitops.LockOptions{Command: command, Timeout: addLockWait})
	return abs, real, lock, err
}

// withFile names file in a *Error readFile gave.
func withFile(err error, file string) error {
	var we *Error
	if errors.As(err, &we) {
		we.File = file
	}
	return err
}

// entry is the [[repo]] req asks for, checked against the members w
// has: a local repository's top inside the workspace folder or a URL git
// fetches by itself, a repository it does not name yet, a name no member
// has. The error is the workspace file's (its File left to the caller).
func (w *Workspace) entry(req AddRequest) (*fileRepo, *Error) {
	add := &fileRepo{Ref: req.Ref}
	bad := func(hint, format string, args ...any) *Error {
		return &Error{Msg: fmt.Sprintf(format, args...), Hint: hint}
	}
	if req.Ref != "" && !validRef(req.Ref) {
		return nil, bad("name a branch, a tag or a full ref, for example --ref main", "ref %q is not a ref name", req.Ref)
	}
	target := req.Target
	local := filepath.Join(req.Dir, target)
	if filepath.IsAbs(target) {
		local = target
	}
	fi, statErr := os.Stat(local)
	switch {
	case statErr != nil && !looksLikeURL(target):
		return nil, bad("name a local clone's folder, or a remote repository's URL (https://, ssh://, host:path, file://)", "%q is neither a folder here nor a URL", target)
	case looksLikeURL(target) || statErr != nil:
		if msg := badURL(target); msg != "" {
			return nil, bad("use an https://, ssh:// or file:// URL, or host:path", "url %q %s", target, msg)
		}
		add.URL = target
	case !fi.IsDir():
		return nil, bad("name a repository's folder, or its URL", "%q is a file", target)
	default:
		top, err := realAbs(w.Dir)
		if err != nil {
			return nil, bad("", "%v", err)
		}
		p, err := realAbs(local)
		if err != nil {
			return nil, bad("", "%v", err)
		}
		if !inside(top, p) {
			return nil, bad(fmt.Sprintf("mirror it by its URL instead: git adr workspace add file://%s", filepath.ToSlash(p)), "%s is outside %s, the workspace file's folder (a workspace names its local repositories by paths inside its folder)", target, w.Dir)
		}
		rel, _ := filepath.Rel(top, p)
		add.Path = filepath.ToSlash(rel)
		m := &Member{Path: p, Given: add.Path}
		r, err := m.openLocal()
		if err != nil {
			return nil, bad("clone the repository there, or name the folder a clone is in", "%v", err)
		}
		r.Close()
	}
	taken := map[string]bool{}
	for _, m := range w.Members {
		taken[strings.ToLower(m.Name)] = true
		if add.Path != "" && m.Given == add.Path && m.Ref == add.Ref || add.URL != "" && m.URL == add.URL && m.Ref == add.Ref {
			return nil, bad("`git adr workspace ls` lists the repositories it names", "names %s already, as repo %q", m.Source(), m.Name)
		}
	}
	switch {
	case req.Name != "":
		if len(req.Name) > maxName || !nameRE.MatchString(req.Name) {
			return nil, bad(fmt.Sprintf("for example --name %s", suggestName(req.Name)), "name %q: at most %d letters, digits, '.', '_' and '-' (it qualifies IDs as NAME:ADR-0001)", req.Name, maxName)
		}
		if taken[strings.ToLower(req.Name)] {
			return nil, bad("choose another with --name", "the name %q is taken", req.Name)
		}
		add.Name = req.Name
	case add.Path != "":
		add.Name = uniqueName(taken, filepath.Join(w.Dir, filepath.FromSlash(add.Path)))
	default:
		add.Name = uniqueName(taken, "/"+urlBase(add.URL))
	}
	return add, nil
}

// looksLikeURL reports whether target is written as a URL: a scheme
// (scheme://, or a remote helper's TRANSPORT::) or git's scp-like
// host:path (a colon before any slash).
func looksLikeURL(target string) bool {
	if strings.Contains(target, "://") || strings.Contains(target, "::") {
		return true
	}
	colon := strings.IndexByte(target, ':')
	return colon > 0 && !strings.Contains(target[:colon], "/")
}

// urlBase is the last word of a repository's URL, without ".git": the
// name a clone of it would have.
func urlBase(u string) string {
	u = strings.TrimRight(u, "/")
	if i := strings.LastIndexAny(u, "/:"); i >= 0 {
		u = u[i+1:]
	}
	u = strings.TrimSuffix(path.Base(u), ".git")
	if u == "" || u == "." || u == "/" {
		return "repo"
	}
	return u
}

// renderEntry is the text of one [[repo]] to append: after the file's
// header when the file is new, after a blank line otherwise (and a
// newline first when the file did not end with one).
func renderEntry(a *fileRepo, newFile, needsNewline bool) []byte {
	var b bytes.Buffer
	switch {
	case newFile:
		b.WriteString(fileHeader)
	case needsNewline:
		b.WriteString("\n\n")
	default:
		b.WriteString("\n")
	}
	encodeRepos(&b, []fileRepo{*a})
	return b.Bytes()
}
