package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/git-adr/git-adr/adr"
	"github.com/git-adr/git-adr/workspace"
	"github.com/urfave/cli/v2"
)

// workspaceInitCommand is `git adr workspace init`.
func workspaceInitCommand(env *Env) *cli.Command {
	return &cli.Command{
		Name: "init", Usage: "write a workspace file naming the repositories cloned in a folder", ArgsUsage: "[DIR]",
		Description: `Looks for git repositories in DIR (default: the current folder) and the
folders below it, down to --depth levels, and writes a workspace file naming
each one that holds a decision log, by its path and its folder's name
(made unique). Hidden folders and links are not followed, nor the inside of
a repository found. With --urls each is named by its origin's URL instead
(credentials left out), for a file to share; sync mirrors them. The file is
DIR/` + workspace.DefaultFile + ` unless --file (or --workspace before the
command) says otherwise (it must be in DIR or above it; - prints it); one
that is there is kept unless --force.

Examples:
   git adr workspace init ~/src
   git adr --workspace ~/src/` + workspace.DefaultFile + ` context --task "retry failed payments"
   git adr workspace init --urls --file - . > team-workspace.toml`,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "file", Usage: "write the workspace file to `FILE` (- prints it)"},
			&cli.IntFlag{Name: "depth", Value: workspace.DefaultScanDepth, Usage: "look `N` folder levels below DIR"},
			&cli.BoolFlag{Name: "urls", Usage: "name each repository by its origin's URL, not its path"},
			&cli.BoolFlag{Name: "force", Usage: "replace the file if it is there"},
			&cli.BoolFlag{Name: "json", Usage: "print JSON (docs/commands/workspace.md gives its fields)"},
		},
		Action: func(c *cli.Context) error {
			if c.NArg() > 1 {
				return usagef("workspace init takes at most one DIR, got %d arguments", c.NArg())
			}
			o := workspaceInitOptions{dir: c.Args().First(), file: c.String("file"), depth: c.Int("depth"), urls: c.Bool("urls"), force: c.Bool("force"), json: c.Bool("json")}
			if o.file == "" {
				// git adr --workspace FILE workspace init: the flag names
				// the file to write (GIT_ADR_WORKSPACE does not: an
				// exported variable must not pick where a new file goes).
				o.file = env.Workspace
			}
			return runWorkspaceInit(env, o)
		},
	}
}

type workspaceInitOptions struct {
	dir, file         string
	depth             int
	urls, force, json bool
}

// wsInitJSON is what `workspace init --json` prints.
type wsInitJSON struct {
	// File is the workspace file written, as named.
	File string `json:"file"`
	// Repositories are those it names, in its order; LeftOut those found
	// and left out, with why.
	Repositories []wsInitRepoJSON `json:"repositories"`
	LeftOut      []wsLeftJSON     `json:"left_out"`
}

type wsInitRepoJSON struct {
	Name    string `json:"name"`
	Path    string `json:"path"`
	URL     string `json:"url,omitempty"`
	Records int    `json:"records"`
}

type wsLeftJSON struct {
	Path   string `json:"path"`
	Reason string `json:"reason"`
}

func runWorkspaceInit(env *Env, o workspaceInitOptions) error {
	if o.json && o.file == "-" {
		return usagef("--json and --file - both print to stdout; name a file")
	}
	if o.depth < 1 {
		return usagef("--depth %d: look at least 1 level below DIR", o.depth)
	}
	if o.dir == "" {
		o.dir = "."
	}
	shown := o.file // the file as the user names it
	if shown == "" {
		shown = filepath.Join(o.dir, workspace.DefaultFile)
	}
	at := env.underDir
	dir := at(o.dir)
	if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
		return usagef("%q is not a folder", o.dir).hint("name the folder that holds your clones: git adr workspace init DIR")
	}
	// The file's folder, which its paths are relative to; shownDir as
	// the user names it.
	fileDir, shownDir := dir, o.dir
	if o.file != "" && o.file != "-" {
		fileDir, shownDir = filepath.Dir(at(o.file)), filepath.Dir(o.file)
	}
	if o.file != "-" && !o.force {
		if _, err := os.Lstat(at(shown)); err == nil {
			return errThere(shown)
		}
	}
	found, err := workspace.Scan(fileDir, dir, workspace.ScanOptions{Depth: o.depth, URLs: o.urls})
	if err != nil {
		if fi, serr := os.Stat(fileDir); serr != nil || !fi.IsDir() {
			return usagef("--file %q: its folder is not there", o.file)
		}
		return usagef("%v", err).hint("keep the workspace file in DIR or a folder above it, as --file " + filepath.Join(o.dir, workspace.DefaultFile) + " does")
	}
	warnLeftOut(env, found)
	named := 0
	for _, s := range found {
		if s.Left == "" {
			named++
		}
	}
	if len(found) == 0 {
		return failf("no git repository in %s, %s", o.dir, plural(o.depth, "level")+" down").
			hint(fmt.Sprintf("look deeper with --depth %d, or name the folder that holds your clones", o.depth+1))
	}
	if named == 0 {
		return failf("no repository with a decision log in %s (%s looked at)", o.dir, repositories(len(found))).
			hint("`git adr -C " + shellQuote(filepath.Join(shownDir, filepath.FromSlash(found[0].Path))) + " list` shows what git-adr finds in the first; an .adr.toml there can name its log's folder")
	}
	data := workspace.Render(found, o.urls)
	if o.file == "-" {
		_, err := env.Out.Write(data)
		return err
	}
	if err := workspace.Create(at(shown), data, o.force); err != nil {
		if errors.Is(err, fs.ErrExist) {
			return errThere(shown) // made since it was looked for
		}
		if lerr := fileLockErr(err); lerr != nil {
			return lerr
		}
		if werr := wsErr(err); werr != err {
			return werr
		}
		return failf("write %s: %v", shown, err)
	}
	if o.json {
		out := wsInitJSON{File: shown, Repositories: []wsInitRepoJSON{}, LeftOut: []wsLeftJSON{}}
		for _, s := range found {
			if s.Left != "" {
				out.LeftOut = append(out.LeftOut, wsLeftJSON{Path: s.Path, Reason: s.Left})
				continue
			}
			r := wsInitRepoJSON{Name: s.Name, Path: s.Path, Records: s.Records}
			if o.urls {
				r.URL = s.URL
			}
			out.Repositories = append(out.Repositories, r)
		}
		return writeJSON(env.Out, out)
	}
	rows := make([][4]string, 0, named)
	for _, s := range found {
		if s.Left != "" {
			continue
		}
		read, source := "work tree", s.Path
		if o.urls {
			read, source = "not synced yet", (&workspace.Member{URL: s.URL}).Source()
		}
		rows = append(rows, [4]string{adr.Escape(s.Name), fmt.Sprint(s.Records), read, adr.Escape(source)})
	}
	bw := bulkWriter(env.Out)
	writeColumns(bw, rows)
	fmt.Fprintf(bw, "wrote %s (%s)\n", adr.Escape(shown), repositories(named))
	if o.urls {
		fmt.Fprintf(bw, "next: git adr workspace sync %s\n", adr.Escape(shellQuote(shown)))
	} else {
		fmt.Fprintf(bw, "next: git adr --workspace %s context --task \"...\"\n", adr.Escape(shellQuote(shown)))
	}
	return bw.Flush()
}

// warnLeftOut says which repositories found are not in the file, and
// why: one line a reason, naming the first few.
func warnLeftOut(env *Env, found []workspace.Scanned) {
	var reasons []string
	by := map[string][]string{}
	for _, s := range found {
		if s.Dropped != "" && s.Left == "" {
			fmt.Fprintf(env.Err, "git-adr: warning: %s: its origin's %s left out of the URL written\n", adr.Escape(s.Path), s.Dropped)
		}
		if s.Left == "" {
			continue
		}
		if by[s.Left] == nil {
			reasons = append(reasons, s.Left)
		}
		by[s.Left] = append(by[s.Left], s.Path)
	}
	for _, r := range reasons {
		paths := by[r]
		if len(paths) == 1 {
			fmt.Fprintf(env.Err, "git-adr: warning: left out %s: %s\n", adr.Escape(paths[0]), adr.Escape(r))
			continue
		}
		if len(paths) > maxNamedUnavailable {
			paths = append(paths[:maxNamedUnavailable:maxNamedUnavailable], fmt.Sprintf("and %d more", len(paths)-maxNamedUnavailable))
		}
		fmt.Fprintf(env.Err, "git-adr: warning: left out %d repositories, %s: %s\n", len(by[r]), adr.Escape(r), adr.Escape(strings.Join(paths, ", ")))
	}
}

// repositories is "1 repository" or "N repositories".
func repositories(n int) string {
	if n == 1 {
		return "1 repository"
	}
	return fmt.Sprintf("%d repositories", n)
}

// errThere is the workspace file init would write, already there.
func errThere(shown string) error {
	return failf("%s is there already", shown).hint("edit it, name another with --file FILE, or replace it with --force")
}
