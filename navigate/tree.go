package navigate

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/git-adr/git-adr/gitops"
)

// Errors returned (wrapped) by [Tree] methods.
var (
	// ErrOutside means a path leads outside the tree: "..", an absolute
	// path elsewhere, or a symbolic link pointing out. It is
	// gitops.ErrOutside: nav confines paths with the same layer as every
	// other read.
	ErrOutside = gitops.ErrOutside
	// ErrGitDir means a path names .git or something inside it.
	ErrGitDir = errors.New("inside .git")
	// ErrNotFound means nothing exists at the path.
	ErrNotFound = errors.New("no such file or directory")
	// ErrIsDir means a file was expected and the path is a directory.
	ErrIsDir = errors.New("is a directory")
	// ErrNotDir means a directory was expected and the path is not one.
	ErrNotDir = errors.New("not a directory")
	// ErrNotRegular means the path is a device, socket or pipe
	// (gitops.ErrSpecialFile).
	ErrNotRegular = gitops.ErrSpecialFile
	// ErrBinary means a file holds a NUL byte.
	ErrBinary = errors.New("binary file")
	// ErrNotUTF8 means a file is not valid UTF-8.
	ErrNotUTF8 = errors.New("not UTF-8 text")
	// ErrTooLarge means a file is over [MaxFileBytes].
	ErrTooLarge = errors.New("file too large")
	// ErrLineTooLong means one line alone is over [MaxReadBytes].
	ErrLineTooLong = errors.New("line too long")
	// ErrPastEnd means a start line is past the last line of the file.
	ErrPastEnd = errors.New("past the end of the file")
)

// ArgError is an invalid argument, named as in the JSON shapes
// ("start_line", "glob", ...), with the value as given.
type ArgError struct {
	Arg     string
	Value   string // already quoted or formatted for display
	Problem string
}

func (e *ArgError) Error() string {
	return fmt.Sprintf("%s %s: %s", e.Arg, e.Value, e.Problem)
}

// wrapped is an error with its own message that still matches a sentinel.
type wrapped struct {
	msg string
	err error
}

func (w *wrapped) Error() string { return w.msg }
func (w *wrapped) Unwrap() error { return w.err }

// Tree is a directory tree opened for bounded navigation, seen from a
// current directory inside it: relative paths given to its methods start
// there, and paths in results are shown relative to it ("../x" for a path
// beside it), as git grep shows them.
type Tree struct {
	fs   *gitops.ConfinedFS
	root *os.Root // fs.Root()
	cwd  string   // slash-separated, relative to the top; "." for the top
}

// Open opens the tree rooted at dir.
func Open(dir string) (*Tree, error) {
	c, err := gitops.OpenFS(dir)
	if err != nil {
		return nil, err
	}
	return &Tree{fs: c, root: c.Root(), cwd: "."}, nil
}

// At returns a view of the same tree whose current directory is dir, a
// slash-separated path relative to the top ("" or "." for the top). The
// view shares the tree's handle: close the tree, not the view.
func (t *Tree) At(dir string) (*Tree, error) {
	v := *t
	v.cwd = "."
	rel, err := v.Resolve(dir)
	if err != nil {
		return nil, err
	}
	v.cwd = rel
	return &v, nil
}

// Close releases the tree's directory handle.
func (t *Tree) Close() error { return t.fs.Close() }

// Resolve turns p into a clean, slash-separated path relative to the top
// ("." for the top itself). A relative p starts at the current directory;
// an absolute p must lie inside the top. Resolve is lexical: it does not
// look at symbolic links (every method checks those when it opens the
// path).
func (t *Tree) Resolve(p string) (string, error) {
	if strings.ContainsRune(p, 0) {
		return "", &ArgError{Arg: "path", Value: fmt.Sprintf("%q", p), Problem: "contains a NUL byte"}
	}
	var rel string
	if filepath.IsAbs(p) {
		r, ok := t.fs.Within(p)
		if !ok {
			return "", fmt.Errorf("%q: %w", p, ErrOutside)
		}
		rel = r
	} else {
		rel = path.Join(t.cwd, filepath.ToSlash(p))
	}
	if rel == ".." || strings.HasPrefix(rel, "../") || path.IsAbs(rel) {
		return "", fmt.Errorf("%q: %w", p, ErrOutside)
	}
	if rel == "" {
		rel = "."
	}
	for _, el := range strings.Split(rel, "/") {
		if el == ".git" {
			return "", fmt.Errorf("%q: %w", p, ErrGitDir)
		}
	}
	return rel, nil
}

// show turns a path relative to the top into one relative to the current
// directory.
func (t *Tree) show(rel string) string {
	if t.cwd == "." {
		return rel
	}
	r, err := filepath.Rel(filepath.FromSlash(t.cwd), filepath.FromSlash(rel))
	if err != nil {
		return rel
	}
	return filepath.ToSlash(r)
}

// locate resolves p (relative to the current directory or absolute) and
// follows its symbolic links (gitops.ConfinedFS.Resolve), refusing any
// that lead outside the tree or into .git. It returns the lexical path and
// the real path to open through the root, both relative to the top.
// Errors quote p as given; a missing path behind a link that leads out is
// refused as outside, so that answers do not tell which files exist
// elsewhere.
func (t *Tree) locate(p string) (lexical, real string, err error) {
	lexical, err = t.Resolve(p)
	if err != nil {
		return "", "", err
	}
	real, err = t.fs.Resolve(lexical)
	if errors.Is(err, gitops.ErrOutside) {
		return lexical, "", &wrapped{fmt.Sprintf("%q goes through a symbolic link that leads outside the repository", p), ErrOutside}
	}
	if err != nil {
		return lexical, "", fmt.Errorf("%q: %w", p, errors.Unwrap(err))
	}
	for _, el := range strings.Split(real, "/") {
		if el == ".git" {
			return lexical, "", &wrapped{fmt.Sprintf("%q goes through a symbolic link into .git", p), ErrGitDir}
		}
	}
	if _, err := t.root.Lstat(real); errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR) { // ENOTDIR: "file.go/x"
		return lexical, "", fmt.Errorf("%q: %w", p, ErrNotFound)
	}
	return lexical, real, nil
}

// open opens a real path (see locate) through the root, which refuses
// anything a concurrent change might have turned into an escape. want is
// the kind the caller needs: a directory, or else a regular file. Special
// files are refused before they are opened (opening a FIFO blocks until a
// writer comes, opening a device may act on it), and the open does not
// block should one be swapped in after the check.
func (t *Tree) open(p, real string, wantDir bool) (*os.File, error) {
	fi, err := t.root.Stat(real)
	if err == nil {
		switch {
		case wantDir && !fi.IsDir():
			return nil, fmt.Errorf("%q: %w", p, ErrNotDir)
		case !wantDir && fi.IsDir():
			return nil, fmt.Errorf("%q: %w", p, ErrIsDir)
		case !fi.IsDir() && !fi.Mode().IsRegular():
			return nil, fmt.Errorf("%q is a %s: %w", p, kind(fi.Mode()), ErrNotRegular)
		}
	}
	f, err := gitops.OpenNonBlocking(t.root, real)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("%q: %w", p, ErrNotFound)
		}
		return nil, fmt.Errorf("%q: %w", p, err)
	}
	return f, nil
}

// kind names a special file's type for messages.
func kind(m fs.FileMode) string { return gitops.FileKind(m) }
