package main

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
	"github.com/urfave/cli/v2"
)

type shimOptions struct {
	copy, force, json bool
}

// shimResult is the JSON of install-adr-shim (docs/json.md).
type shimResult struct {
	// Installed are the files written or already in place.
	Installed []shimFile `json:"installed"`
	// Target is the git-adr binary they run.
	Target string   `json:"target"`
	Notes  []string `json:"notes"`
}

type shimFile struct {
	Path string `json:"path"`
	// Kind is "symlink" or "copy".
	Kind string `json:"kind"`
	// Status is "written" or "unchanged".
	Status string `json:"status"`
}

func installAdrShimCommand(env *Env) *cli.Command {
	var o shimOptions
	return &cli.Command{
		Name:      "install-adr-shim",
		Usage:     "make `adr` (adr-tools 3.0.0) run git-adr: writes DIR/adr and DIR/_adr_autocomplete",
		ArgsUsage: "DIR",
		Description: `Writes DIR/adr and DIR/_adr_autocomplete, symbolic links to this git-adr
(copies with --copy, and always on Windows). Run under those names, git-adr
is adr-tools 3.0.0: the same commands, flags, output and files, byte for
byte, and adr-tools' own test suite passes against it. ADR_SPELLING=superseded
writes Debian's "Supersedes"/"Superseded by" instead of adr-tools'
"Supercedes"/"Superceded by".

DIR is created when missing. A file already there that is not this shim is
left alone unless --force. DIR must come before any other adr on PATH.

Examples:
   git adr install-adr-shim ~/.local/bin
   git adr install-adr-shim --copy /opt/adr/bin`,
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "copy", Usage: "copy the binary instead of linking to it", Destination: &o.copy},
			&cli.BoolFlag{Name: "force", Usage: "replace an adr or _adr_autocomplete that is not this shim", Destination: &o.force},
			&cli.BoolFlag{Name: "json", Usage: "print {installed, target, notes} as JSON", Destination: &o.json},
		},
		Action: func(c *cli.Context) error {
			if c.NArg() != 1 || strings.TrimSpace(c.Args().First()) == "" {
				return usagef("install-adr-shim needs one DIR, got %d arguments", c.NArg()).hint("for example `git adr install-adr-shim ~/.local/bin`")
			}
			return runInstallAdrShim(env, c.Args().First(), o)
		},
	}
}

func runInstallAdrShim(env *Env, dir string, o shimOptions) error {
	self, err := os.Executable()
	if err != nil {
		return failf("cannot find this git-adr binary: %v", err)
	}
	if p, err := filepath.EvalSymlinks(self); err == nil {
		self = p
	}
	if !filepath.IsAbs(dir) && env.Dir != "" {
		dir = filepath.Join(env.Dir, dir)
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return usagef("DIR %q: %v", dir, err)
	}
	if fi, err := os.Stat(abs); err == nil && !fi.IsDir() {
		return usagef("%q is not a directory", dir).hint("name the directory to put adr in, for example ~/.local/bin")
	}
	if err := os.MkdirAll(abs, 0o755); err != nil {
		return failf("create %q: %v", dir, err)
	}
	copyBin := o.copy || runtime.GOOS == "windows"
	kind := "symlink"
	if copyBin {
		kind = "copy"
	}
	ext := ""
	if runtime.GOOS == "windows" {
		ext = ".exe"
	}
	res := shimResult{Target: self, Installed: []shimFile{}, Notes: []string{}}
	names := []string{"adr" + ext, "_adr_autocomplete" + ext}
	// Check both before writing either.
	for _, name := range names {
		p := filepath.Join(abs, name)
		if _, err := os.Lstat(p); err != nil {
			continue
		}
		if !isShim(p, self, copyBin) && !o.force {
			what := "a file"
			if t, err := os.Readlink(p); err == nil {
				what = fmt.Sprintf("a link to %q", t)
			}
			return failf("%s is already there: %s that is not this git-adr", p, what).
				hint("remove it, or replace it with `git adr install-adr-shim --force " + adr.ShellWord(dir) + "`")
		}
	}
	for _, name := range names {
		p := filepath.Join(abs, name)
		f := shimFile{Path: p, Kind: kind, Status: "unchanged"}
		if !isShim(p, self, copyBin) {
			if err := writeShim(p, self, copyBin); err != nil {
				return failf("write %s: %v", p, err)
			}
			f.Status = "written"
		}
		res.Installed = append(res.Installed, f)
	}
	if found, err := exec.LookPath("adr"); err != nil {
		res.Notes = append(res.Notes, abs+" is not on PATH: add it to run adr")
	} else if fp, _ := filepath.EvalSymlinks(found); fp != self && !sameFile(found, filepath.Join(abs, names[0])) {
		res.Notes = append(res.Notes, fmt.Sprintf("PATH finds %s first: put %s before its directory in PATH", found, abs))
	}
	if o.json {
		return writeJSON(env.Out, res)
	}
	for _, f := range res.Installed {
		verb := "installed"
		if f.Status == "unchanged" {
			verb = "already installed"
		}
		fmt.Fprintf(env.Out, "%s %s (%s of %s)\n", verb, adr.Escape(f.Path), f.Kind, adr.Escape(self))
	}
	env.notes(res.Notes)
	return nil
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

func sameFile(a, b string) bool {
	fa, err1 := os.Stat(a)
	fb, err2 := os.Stat(b)
	return err1 == nil && err2 == nil && os.SameFile(fa, fb)
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
