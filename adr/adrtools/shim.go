package adrtools

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/git-adr/git-adr/adr"
	"github.com/git-adr/git-adr/internal/atomicfile"
)

// Writes reports whether `adr ARGS` may write (and so takes the project
// lock in a repository): new, init, link and upgrade-repository.
func Writes(args []string) bool {
	if len(args) == 0 {
		return false
	}
	switch args[0] {
	case "new", "init", "link", "upgrade-repository":
		return true
	}
	return false
}

// BinDir is adr-config's `cd -L $(dirname $0) && pwd -L`: the logical
// directory of the adr that was run (argv0), found on PATH when run by
// name.
func BinDir(argv0 string) string {
	p := argv0
	if !strings.ContainsRune(p, filepath.Separator) {
		if lp, err := exec.LookPath(p); err == nil {
			p = lp
		}
	}
	dir := filepath.Dir(p)
	if !filepath.IsAbs(dir) {
		wd := os.Getenv("PWD")
		if wd == "" || !sameFile(wd, ".") {
			wd, _ = os.Getwd()
		}
		dir = filepath.Join(wd, dir)
	}
	return filepath.ToSlash(dir)
}

func sameFile(a, b string) bool {
	fa, err1 := os.Stat(a)
	fb, err2 := os.Stat(b)
	return err1 == nil && err2 == nil && os.SameFile(fa, fb)
}

// WriteFiles carries out the plan's folders and writes outside a
// repository, as adr-tools does: each file is written beside itself and
// renamed over it (`awk ... > FILE.tmp; mv FILE.tmp FILE`).
func (p Plan) WriteFiles() error {
	for _, d := range p.Mkdirs {
		if err := os.MkdirAll(d, 0o755); err != nil {
			return err
		}
	}
	for _, w := range p.Writes {
		err := os.MkdirAll(filepath.Dir(w.Path), 0o755)
		if err == nil {
			err = atomicfile.Write(w.Path, w.Data, 0o644)
		}
		if err != nil {
			return fmt.Errorf("write %s: %w", w.Path, err)
		}
	}
	return nil
}

// InWorkTree splits the plan at the work tree whose top is top, for a
// process whose working directory is wd: it makes the plan's folders
// inside the work tree and returns its writes there as changes relative
// to top (for one journalled changeset), and what lies outside (an
// .adr-dir that leads out of it) as a plan of its own, for
// [Plan.WriteFiles].
func (p Plan) InWorkTree(top, wd string) ([]adr.FileChange, Plan, error) {
	if q, err := filepath.EvalSymlinks(wd); err == nil {
		wd = q
	}
	if q, err := filepath.EvalSymlinks(top); err == nil {
		top = q
	}
	var changes []adr.FileChange
	var outside Plan
	for _, d := range p.Mkdirs {
		if _, ok := relInside(top, filepath.Join(wd, d)); !ok {
			outside.Mkdirs = append(outside.Mkdirs, d)
		} else if err := os.MkdirAll(d, 0o755); err != nil {
			return nil, Plan{}, err
		}
	}
	for _, w := range p.Writes {
		rel, ok := relInside(top, filepath.Join(wd, w.Path))
		if !ok {
			outside.Writes = append(outside.Writes, w)
			continue
		}
		changes = append(changes, adr.FileChange{Path: rel, Old: w.Old, New: w.Data})
	}
	return changes, outside, nil
}

func relInside(top, abs string) (string, bool) {
	rel, err := filepath.Rel(top, abs)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) || filepath.IsAbs(rel) {
		return "", false
	}
	return filepath.ToSlash(rel), true
}

// ShimOptions are the choices of [InstallShim].
type ShimOptions struct {
	// Copy copies the binary instead of linking to it (always on
	// Windows).
	Copy bool
	// Force replaces an adr or _adr_autocomplete that is not the shim.
	Force bool
}

// ShimResult is what [InstallShim] did (docs/json.md: install-adr-shim).
type ShimResult struct {
	// Installed are the files written or already in place.
	Installed []ShimFile `json:"installed"`
	// Target is the git-adr binary they run.
	Target string   `json:"target"`
	Notes  []string `json:"notes"`
}

// ShimFile is one file of the shim.
type ShimFile struct {
	Path string `json:"path"`
	// Kind is "symlink" or "copy".
	Kind string `json:"kind"`
	// Status is "written" or "unchanged".
	Status string `json:"status"`
}

// InTheWayError means a file the shim would write is already there and
// does not run the binary.
type InTheWayError struct {
	Path string
	// What is "a file" or "a link to ..." in words.
	What string
}

func (e *InTheWayError) Error() string {
	return fmt.Sprintf("%s is already there: %s that is not this git-adr", e.Path, e.What)
}

// InstallShim writes dir/adr and dir/_adr_autocomplete, links to (or
// copies of) the binary self, in the folder dir, which exists. Both files are
// checked before either is written: one in the way, not already the
// shim, is an [*InTheWayError] unless o.Force. The notes say when PATH
// does not find the shim's adr.
func InstallShim(dir, self string, o ShimOptions) (*ShimResult, error) {
	copyBin := o.Copy || runtime.GOOS == "windows"
	kind := "symlink"
	if copyBin {
		kind = "copy"
	}
	ext := ""
	if runtime.GOOS == "windows" {
		ext = ".exe"
	}
	res := &ShimResult{Target: self, Installed: []ShimFile{}, Notes: []string{}}
	names := []string{"adr" + ext, "_adr_autocomplete" + ext}
	for _, name := range names {
		p := filepath.Join(dir, name)
		if _, err := os.Lstat(p); err != nil {
			continue
		}
		if !isShim(p, self, copyBin) && !o.Force {
			what := "a file"
			if t, err := os.Readlink(p); err == nil {
				what = fmt.Sprintf("a link to %q", t)
			}
			return nil, &InTheWayError{Path: p, What: what}
		}
	}
	for _, name := range names {
		p := filepath.Join(dir, name)
		f := ShimFile{Path: p, Kind: kind, Status: "unchanged"}
		if !isShim(p, self, copyBin) {
			if err := writeShim(p, self, copyBin); err != nil {
				return nil, fmt.Errorf("write %s: %w", p, err)
			}
			f.Status = "written"
		}
		res.Installed = append(res.Installed, f)
	}
	if found, err := exec.LookPath("adr"); err != nil {
		res.Notes = append(res.Notes, dir+" is not on PATH: add it to run adr")
	} else if fp, _ := filepath.EvalSymlinks(found); fp != self && !sameFile(found, filepath.Join(dir, names[0])) {
		res.Notes = append(res.Notes, fmt.Sprintf("PATH finds %s first: put %s before its directory in PATH", found, dir))
	}
	return res, nil
}

// isShim reports whether p already runs self: a link to it, or (for a
// copy) the same bytes.
func isShim(p, self string, copyBin bool) bool {
	fi, err := os.Lstat(p)
	if err != nil {
		return false
	}
	if fi.Mode()&fs.ModeSymlink != 0 {
		if copyBin {
			return false
		}
		t, err := filepath.EvalSymlinks(p)
		return err == nil && t == self
	}
	if !copyBin || !fi.Mode().IsRegular() {
		return false
	}
	a, err1 := os.ReadFile(p)
	b, err2 := os.ReadFile(self)
	return err1 == nil && err2 == nil && bytes.Equal(a, b)
}

// writeShim puts a link or a copy at p, replacing what is there only once
// the new one is complete.
func writeShim(p, self string, copyBin bool) error {
	tmp := p + ".git-adr-tmp"
	os.Remove(tmp)
	if !copyBin {
		if err := os.Symlink(self, tmp); err != nil {
			return err
		}
	} else {
		in, err := os.Open(self)
		if err != nil {
			return err
		}
		defer in.Close()
		out, err := os.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o755)
		if err != nil {
			return err
		}
		_, err = io.Copy(out, in)
		if cerr := out.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			os.Remove(tmp)
			return err
		}
	}
	if err := os.Rename(tmp, p); err != nil {
		os.Remove(tmp)
		if errors.Is(err, fs.ErrExist) {
			return fmt.Errorf("%s is in the way", p)
		}
		return err
	}
	return nil
}
