package workspace

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"github.com/git-adr/git-adr/internal/lazyre"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/git-adr/git-adr/gitops"
	"github.com/git-adr/git-adr/internal/atomicfile"
	"github.com/git-adr/git-adr/internal/confine"
	"github.com/git-adr/git-adr/internal/failpoint"
)

// A mirror is shared by every workspace file that names its URL (ADR-0039),
// so no one file can tell which mirrors are unused. Each mirror keeps the
// workspace files that synced into it (users/ in its adr folder, written
// under its lock), and a prune removes a mirror none of them still names,
// as pre-commit's gc removes the repositories no configuration it has
// seen still uses (ADR-0052). A mirror that keeps no such folder (made
// before git-adr kept one) is of unknown use, and kept.

// usersDir, in a mirror's adr folder, holds one file per workspace file
// that synced into it: named by the hash of the workspace file's absolute
// path, holding that path.
const usersDir = "users"

// maxUserPath bounds a user file read.
const maxUserPath = 64 << 10

// mirrorRE matches the folder names mirrorName makes: nothing else in the
// cache folder is ever pruned.
var mirrorRE = lazyre.New(`^[0-9a-f]{16}-[A-Za-z0-9._-]+\.git$`)

// prunedPrefix names a mirror a prune has moved aside and is removing: a
// prune killed then leaves it, and the next one removes it.
const prunedPrefix = ".pruned-"

// noteUser records, in the mirror whose adr folder is adrDir, that the
// workspace file at path syncs into it; a file named through a link is
// recorded under both names (removing the link leaves the file, which
// still names the mirror). The caller holds the mirror's lock.
func noteUser(adrDir, path string) error {
	names := []string{path}
	if real, err := filepath.EvalSymlinks(path); err == nil && real != path {
		names = append(names, real)
	}
	dir := filepath.Join(adrDir, usersDir)
	if err := atomicfile.MkdirCache(dir, 0o755); err != nil {
		return err
	}
	for _, p := range names {
		f := filepath.Join(dir, userFile(p))
		if got, err := confine.ReadRegularFileUpTo(f, maxUserPath); err == nil && string(got) == p {
			continue
		}
		if err := atomicfile.Write(f, []byte(p), 0o644); err != nil {
			return err
		}
	}
	return nil
}

// userFile names the record of the workspace file at path.
func userFile(path string) string {
	sum := sha256.Sum256([]byte(path))
	return hex.EncodeToString(sum[:12])
}

// user is a workspace file a mirror recorded: its record's file and the
// path it holds.
type user struct{ file, path string }

// mirrorUsers reads the workspace files the mirror at dir recorded; known
// is false when it keeps no record at all. A record that is not a regular
// file, does not hold an absolute path or is still being written is
// passed over.
func mirrorUsers(dir string) (users []user, known bool) {
	ud := filepath.Join(dir, "adr", usersDir)
	ents, err := os.ReadDir(ud)
	if err != nil {
		return nil, false
	}
	for _, e := range ents {
		if strings.HasPrefix(e.Name(), ".") {
			continue // a record being written (atomicfile's temporary file)
		}
		f := filepath.Join(ud, e.Name())
		data, err := confine.ReadRegularFileUpTo(f, maxUserPath)
		if err != nil || !filepath.IsAbs(string(data)) {
			continue
		}
		users = append(users, user{f, string(data)})
	}
	return users, true
}

// PruneResult is what [Prune] did, or would do.
type PruneResult struct {
	// Removed are the mirrors removed (or, in a dry run, to be removed),
	// in name order.
	Removed []PrunedMirror
	// Kept counts the mirrors a workspace file names.
	Kept int
	// Unknown are the mirrors that recorded no workspace file (made
	// before git-adr recorded them): kept.
	Unknown []string
	// Busy are mirrors another git-adr holds (a sync fetching into one):
	// left for the next prune.
	Busy []BusyMirror
	// Unreadable are workspace files a mirror recorded that are there and
	// do not load: each mirror they may name is kept.
	Unreadable []PruneError
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

// PruneError is a recorded workspace file that exists and cannot be read
// as one: the mirrors that recorded it are kept.
type PruneError struct {
	File string
	Err  error
}

func (e *PruneError) Error() string {
	return fmt.Sprintf("a workspace file that synced into mirrors does not load, so they are kept: %v", e.Err)
}

func (e *PruneError) Unwrap() error { return e.Err }

// Prune removes the mirrors in cacheDir that no workspace file names: a
// mirror is kept when one of the workspace files that synced into it is
// still there and still names it, or when one of keep (loaded, and which
// need not have synced) names it. Each mirror is judged and removed
// under its lock (one a sync holds is kept), first moved aside in one
// rename so that no reader or sync ever finds it half removed; the
// records of workspace files that are gone or no longer name it are
// dropped. dryRun changes nothing and says what would go.
func Prune(cacheDir, command string, keep []*Workspace, dryRun bool) (*PruneResult, error) {
	res := &PruneResult{}
	named := map[string]bool{}
	for _, w := range keep {
		maps.Copy(named, w.mirrorNames())
	}
	entries, err := os.ReadDir(cacheDir)
	if errors.Is(err, fs.ErrNotExist) {
		return res, nil
	}
	if err != nil {
		return nil, err
	}
	j := &judge{cacheDir: cacheDir, loaded: map[string]*loadedFile{}}
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
			if err := j.pruneMirror(res, name, command, dryRun); err != nil {
				return res, err
			}
		}
	}
	return res, nil
}

// judge remembers, for one prune, what each workspace file names.
type judge struct {
	cacheDir string
	loaded   map[string]*loadedFile
}

// loadedFile is a workspace file as a prune read it: the mirrors it
// names (none when it is gone), or why it does not load.
type loadedFile struct {
	err   error
	names map[string]bool
}

func (j *judge) load(path string) *loadedFile {
	if lf, ok := j.loaded[path]; ok {
		return lf
	}
	lf := &loadedFile{}
	if w, err := Load(path, j.cacheDir); err == nil {
		lf.names = w.mirrorNames()
	} else if _, serr := os.Stat(path); !errors.Is(serr, fs.ErrNotExist) {
		lf.err = err
	}
	j.loaded[path] = lf
	return lf
}

// mirrorNames are the folder names of the mirrors w's remote members use.
func (w *Workspace) mirrorNames() map[string]bool {
	names := map[string]bool{}
	for _, m := range w.Members {
		if m.Remote() {
			names[filepath.Base(m.Mirror)] = true
		}
	}
	return names
}

// pruneMirror judges the mirror cacheDir/name by the workspace files it
// recorded and removes it when none names it. Outside a dry run the
// judgement is made under the mirror's lock, which a sync holds while it
// records its file: no sync can record itself between the judgement and
// the removal.
func (j *judge) pruneMirror(res *PruneResult, name, command string, dryRun bool) error {
	dir := filepath.Join(j.cacheDir, name)
	// Two prunes meet here in the race test, before either takes the
	// mirror's lock.
	failpoint.Hit("prune-mirror")
	var lock *gitops.Lock
	if !dryRun {
		r, err := gitops.OpenBare(dir)
		if err == nil {
			defer r.Close()
			// The race test stops a prune here, the mirror opened, while
			// another prune removes it.
			failpoint.Hit("prune-opened")
			if lock, err = r.Lock(gitops.LockOptions{Command: command}); err != nil {
				var le *gitops.LockError
				switch {
				case errors.As(err, &le):
					res.Busy = append(res.Busy, BusyMirror{name, err})
					return nil
				case errors.Is(err, fs.ErrNotExist):
					return nil // moved aside by another prune since it was listed
				}
				return fmt.Errorf("lock the mirror %s: %w", dir, err)
			}
			// The lock file goes with the folder when it is moved
			// aside; letting go of it then removes nothing and closes
			// its handle.
			defer lock.Release()
		}
		// A folder git cannot open as a repository is nobody's mirror
		// (a sync refuses it): judged as it is, without a lock.
	}
	users, known := mirrorUsers(dir)
	if !known && gitops.IsMirror(dir) {
		res.Unknown = append(res.Unknown, name)
		return nil
	}
	keep := false
	var stale []string
	for _, u := range users {
		lf := j.load(u.path)
		switch {
		case lf.err != nil:
			keep = true
			if !slices.ContainsFunc(res.Unreadable, func(e PruneError) bool { return e.File == u.path }) {
				res.Unreadable = append(res.Unreadable, PruneError{File: u.path, Err: lf.err})
			}
		case lf.names[name]:
			keep = true
		default:
			stale = append(stale, u.file) // gone, or no longer names it
		}
	}
	// The race test stops a prune here, its judgement made under the
	// mirror's lock, while a sync of a workspace file the mirror did not
	// record opens it and waits for the lock.
	failpoint.Hit("prune-chosen")
	if keep {
		res.Kept++
		if !dryRun {
			for _, f := range stale {
				os.Remove(f)
			}
		}
		return nil
	}
	pm := PrunedMirror{Name: name, Source: mirrorSource(dir), Bytes: treeSize(dir)}
	if dryRun {
		res.Removed = append(res.Removed, pm)
		return nil
	}
	var rnd [6]byte
	rand.Read(rnd[:])
	aside := filepath.Join(j.cacheDir, prunedPrefix+hex.EncodeToString(rnd[:])+"-"+name)
	if err := os.Rename(dir, aside); err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil // another prune's, at once
		}
		return fmt.Errorf("remove the mirror %s: %w", dir, err)
	}
	// The kill test stops a prune here: the mirror is aside, not removed.
	failpoint.Hit("prune-aside")
	res.Removed = append(res.Removed, pm)
	if err := os.RemoveAll(aside); err != nil {
		return fmt.Errorf("remove the mirror %s (moved aside to %s): %w", dir, aside, err)
	}
	return nil
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
