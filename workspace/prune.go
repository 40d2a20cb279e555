package workspace

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/git-adr/git-adr/gitops"
	"github.com/git-adr/git-adr/internal/confine"
	"github.com/git-adr/git-adr/internal/failpoint"
)

// A mirror is shared by every workspace file that names its URL (ADR-0039),
// so no one file can tell which mirrors are unused: the cache folder keeps
// a list of the workspace files that synced into it, and a prune keeps
// every mirror that one of them still names, as pre-commit's gc keeps the
// repositories of the configurations it has seen (ADR-0052).

// filesList is the list, in the cache folder: one workspace file's
// absolute path a line, quoted as Go quotes a string (a path may hold a
// newline). It is only ever appended to, whole lines in one write, so two
// syncs that add to it at once both land.
const filesList = ".workspace-files"

// maxFilesList bounds the list read: about forty thousand workspace files.
const maxFilesList = 4 << 20

// mirrorRE matches the folder names mirrorName makes: nothing else in the
// cache folder is ever pruned.
var mirrorRE = regexp.MustCompile(`^[0-9a-f]{16}-[A-Za-z0-9._-]+\.git$`)

// prunedPrefix names a mirror a prune has moved aside and is removing: a
// prune killed then leaves it, and the next one removes it.
const prunedPrefix = ".pruned-"

// Register adds the workspace file to its cache folder's list of files
// whose mirrors a prune keeps, unless it is there already or names no
// remote repository. A file named through a link is listed under both
// names: removing the link leaves the file, which still names its
// mirrors.
func (w *Workspace) Register() error {
	if !slices.ContainsFunc(w.Members, (*Member).Remote) {
		return nil
	}
	files, err := registered(w.CacheDir)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	var lines []byte
	names := []string{w.Path}
	if real, err := filepath.EvalSymlinks(w.Path); err == nil && real != w.Path {
		names = append(names, real)
	}
	for _, p := range names {
		if !slices.Contains(files, p) {
			lines = append(lines, strconv.Quote(p)+"\n"...)
		}
	}
	if len(lines) == 0 {
		return nil
	}
	if err := os.MkdirAll(w.CacheDir, 0o755); err != nil {
		return err
	}
	root, err := os.OpenRoot(w.CacheDir)
	if err != nil {
		return err
	}
	defer root.Close()
	// A link there would have the line appended to whatever it names.
	if fi, err := root.Lstat(filesList); err == nil && !fi.Mode().IsRegular() {
		return fmt.Errorf("%s is a %s, not the list of workspace files git-adr keeps", filepath.Join(w.CacheDir, filesList), confine.FileKind(fi.Mode()))
	}
	f, err := root.OpenFile(filesList, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		return err
	}
	if _, err := f.Write(lines); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// registered reads the cache folder's list of workspace files, each once,
// in the order they were added. A line that is not a quoted absolute path
// (a write cut short by a crash) is passed over.
func registered(cacheDir string) ([]string, error) {
	data, err := confine.ReadRegularFileUpTo(filepath.Join(cacheDir, filesList), maxFilesList)
	if err != nil {
		return nil, err
	}
	var out []string
	for line := range bytes.Lines(data) {
		p, err := strconv.Unquote(strings.TrimSuffix(string(line), "\n"))
		if err != nil || !filepath.IsAbs(p) || slices.Contains(out, p) {
			continue
		}
		out = append(out, p)
	}
	return out, nil
}

// PruneResult is what [Prune] did, or would do.
type PruneResult struct {
	// Removed are the mirrors removed (or, in a dry run, to be removed),
	// in name order.
	Removed []PrunedMirror
	// Kept counts the mirrors some workspace file names; Files the
	// workspace files read, Gone those listed that are no longer there.
	Kept, Files, Gone int
	// Busy are mirrors no file names that another git-adr holds (a sync
	// fetching into one): left for the next prune.
	Busy []BusyMirror
}

// PrunedMirror is a mirror removed: its folder's name, the URL it
// mirrored ("" when it does not say) and the bytes it held.
type PrunedMirror struct {
	Name, Source string
	Bytes        int64
}

// BusyMirror is a mirror left because its lock is held.
type BusyMirror struct {
	Name string
	Err  error
}

// PruneError is a listed workspace file that exists and cannot be read as
// one: the mirrors it names are unknown, so nothing is pruned.
type PruneError struct {
	File string
	Err  error
}

func (e *PruneError) Error() string {
	return fmt.Sprintf("which mirrors a listed workspace file names is unknown, so none is removed: %v", e.Err)
}

func (e *PruneError) Unwrap() error { return e.Err }

// Prune removes the mirrors in cacheDir that no workspace file names: the
// files listed there by the syncs that used it, and also the ones given
// (which a prune keeps whether or not they were synced). A listed file
// that no longer exists names nothing. Each mirror is removed under its
// lock (a sync fetching into it keeps it), first moved aside in one rename
// so that no reader or sync ever finds it half removed. dryRun removes
// nothing and says what would go.
func Prune(cacheDir, command string, also []string, dryRun bool) (*PruneResult, error) {
	res := &PruneResult{}
	files, err := registered(cacheDir)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	for _, p := range also {
		if abs, err := filepath.Abs(p); err == nil && !slices.Contains(files, abs) {
			files = append(files, abs)
		}
	}
	named := map[string]bool{}
	for _, f := range files {
		w, err := Load(f, cacheDir)
		if err != nil {
			if _, serr := os.Stat(f); errors.Is(serr, fs.ErrNotExist) {
				res.Gone++
				continue
			}
			return nil, &PruneError{File: f, Err: err}
		}
		res.Files++
		for _, m := range w.Members {
			if m.Remote() {
				named[filepath.Base(m.Mirror)] = true
			}
		}
	}
	// The race test stops a prune here, its choice made, while a sync of
	// a workspace file it did not read opens a mirror it chose.
	failpoint.Hit("prune-chosen")
	entries, err := os.ReadDir(cacheDir)
	if errors.Is(err, fs.ErrNotExist) {
		return res, nil
	}
	if err != nil {
		return nil, err
	}
	for _, e := range entries {
		name := e.Name()
		dir := filepath.Join(cacheDir, name)
		switch {
		case strings.HasPrefix(name, prunedPrefix) && e.IsDir():
			if !dryRun {
				os.RemoveAll(dir) // a killed prune's
			}
		case !mirrorRE.MatchString(name) || !e.IsDir():
			// Not a folder git-adr made (a link is never one): left alone.
		case named[name]:
			res.Kept++
		default:
			pm := PrunedMirror{Name: name, Source: mirrorSource(dir), Bytes: treeSize(dir)}
			if dryRun {
				res.Removed = append(res.Removed, pm)
				continue
			}
			if err := removeMirror(cacheDir, name, command); err != nil {
				if errors.Is(err, fs.ErrNotExist) {
					continue // another prune's, at once
				}
				var le *gitops.LockError
				if errors.As(err, &le) {
					res.Busy = append(res.Busy, BusyMirror{name, err})
					continue
				}
				return res, fmt.Errorf("remove the mirror %s: %w", dir, err)
			}
			res.Removed = append(res.Removed, pm)
		}
	}
	return res, nil
}

// removeMirror removes the mirror cacheDir/name under its lock: it is
// renamed aside at once (a sync that opened it before finds it gone once
// it holds the lock, and makes it again), then removed. A folder that is
// not a repository git can open has no lock to take, and nobody can use
// it: it is removed as it is.
func removeMirror(cacheDir, name, command string) error {
	dir := filepath.Join(cacheDir, name)
	if r, err := gitops.OpenBare(dir); err == nil {
		defer r.Close()
		lock, err := r.Lock(gitops.LockOptions{Command: command})
		if err != nil {
			return err
		}
		// The lock file goes with the folder; letting go of it after the
		// rename removes nothing and closes its handle.
		defer lock.Release()
	}
	var rnd [6]byte
	rand.Read(rnd[:])
	aside := filepath.Join(cacheDir, prunedPrefix+hex.EncodeToString(rnd[:])+"-"+name)
	if err := os.Rename(dir, aside); err != nil {
		return err // fs.ErrNotExist: another prune moved it first
	}
	// The kill test stops a prune here: the mirror is aside, not removed.
	failpoint.Hit("prune-aside")
	return os.RemoveAll(aside)
}

// treeSize is the bytes the regular files under dir hold (links not
// followed).
func treeSize(dir string) int64 {
	var n int64
	filepath.WalkDir(dir, func(_ string, d fs.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			if fi, err := d.Info(); err == nil {
				n += fi.Size()
			}
		}
		return nil
	})
	return n
}
