package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/git-adr/git-adr/adr"
	"github.com/git-adr/git-adr/adr/adrtools"
)

type shimOptions struct {
	copy, force, json bool
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
	res, err := adrtools.InstallShim(abs, self, adrtools.ShimOptions{Copy: o.copy, Force: o.force})
	var ie *adrtools.InTheWayError
	if errors.As(err, &ie) {
		return failf("%v", ie).hint("remove it, or replace it with `git adr install-adr-shim --force " + adr.ShellWord(dir) + "`")
	}
	if err != nil {
		return err
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
