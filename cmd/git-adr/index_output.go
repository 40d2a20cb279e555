package main

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/git-adr/git-adr/adr"
	"github.com/git-adr/git-adr/gitops"
)

// runIndexOutput is `git adr index --stdout | --output PATH` with
// --intro, --outro and --prefix.
func runIndexOutput(env *Env, o indexOptions) error {
	switch {
	case o.check:
		return usagef("--check compares each root's INDEX.md; it does not go with --stdout, --output, --intro, --outro or --prefix").hint("run `git adr index --check` on its own")
	case o.stdout && o.output != "":
		return usagef("--stdout and --output both say where the index goes; give one")
	case !o.stdout && o.output == "":
		return usagef("--intro, --outro and --prefix shape an index that is printed or written elsewhere: add --stdout or --output PATH").
			hint("INDEX.md itself always holds the records alone, so that new, link and decide keep it current")
	case o.stdout && o.json:
		return usagef("--stdout prints the index itself; --json goes with --output")
	}
	var opts adr.IndexOptions
	var err error
	if opts.Intro, err = readMarkdownFile(env, "--intro", o.intro); err != nil {
		return err
	}
	if opts.Outro, err = readMarkdownFile(env, "--outro", o.outro); err != nil {
		return err
	}
	opts.Prefix = o.prefix
	if o.output != "" {
		if err := env.lockWrites(); err != nil {
			return err
		}
	}
	l, err := env.LogWithoutTexts()
	if err != nil {
		return err
	}
	if err := env.requireRoots(l); err != nil {
		return err
	}
	var roots []*adr.Root
	for _, r := range l.Roots {
		if r.Exists {
			roots = append(roots, r)
		}
	}
	if o.stdout {
		for i, root := range roots {
			if i > 0 {
				fmt.Fprintln(env.Out)
			}
			env.Out.Write(adr.RenderIndexWith(root, l, opts))
		}
		return nil
	}
	if len(roots) != 1 {
		var dirs []string
		for _, r := range roots {
			dirs = append(dirs, r.Dir())
		}
		return usagef("--output writes one root's index, and the log has %d: %s", len(roots), strings.Join(dirs, ", ")).
			hint("name the root: `git adr --root DIR index --output " + adr.ShellWord(o.output) + "`")
	}
	return writeIndexOutput(env, l, roots[0], o, opts)
}

// readMarkdownFile reads an --intro or --outro file (a regular file; a
// pipe or device is refused).
func readMarkdownFile(env *Env, flag, name string) ([]byte, error) {
	if name == "" {
		return nil, nil
	}
	p := name
	if !filepath.IsAbs(p) && env.Dir != "" {
		p = filepath.Join(env.Dir, p)
	}
	data, err := gitops.ReadRegularFile(p)
	if err != nil {
		return nil, usagef("%s %q cannot be read: %v", flag, name, pathErrReason(err)).hint("name a Markdown file")
	}
	return data, nil
}

func writeIndexOutput(env *Env, l *adr.Log, root *adr.Root, o indexOptions, opts adr.IndexOptions) error {
	repo, err := env.Repo()
	if err != nil {
		return err
	}
	out := o.output
	if !filepath.IsAbs(out) {
		base := env.Dir
		if base == "" {
			base, _ = os.Getwd()
		} else if !filepath.IsAbs(base) {
			wd, _ := os.Getwd()
			base = filepath.Join(wd, base)
		}
		out = filepath.Join(base, out)
	}
	rel, inside := repo.Rel(out)
	if inside && rel == root.Join(root.IndexName()) {
		return usagef("--output %q is the root's own %s, which `git adr index` writes from the records alone", o.output, root.IndexName()).
			hint("write the shaped index elsewhere (a README with an adr-log section, or another file)")
	}
	cur, err := gitops.ReadRegularFile(out)
	exists := err == nil
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return failf("--output %q cannot be read: %v", o.output, pathErrReason(err))
	}
	next, err := adr.IndexOutput(cur, exists, filepath.Dir(out), repo.Abs, root, l, opts)
	if errors.Is(err, adr.ErrNotIndexOutput) {
		return failf("%s exists, %v", o.output, err).
			hint("add the lines `<!-- adrlog -->` and `<!-- adrlogstop -->` where the list goes, or name another file")
	}
	if err != nil {
		return err
	}
	display := o.output
	status := "unchanged"
	if !exists || !bytes.Equal(cur, next) {
		status = "written"
		if inside {
			var old []byte
			if exists {
				old = cur
			}
			if err := applyChanges(env, []adr.FileChange{{Path: rel, Old: old, New: next}}); err != nil {
				return err
			}
			display = env.display(rel)
		} else if err := replaceFile(out, next); err != nil {
			return failf("write %s: %v", o.output, err)
		}
	} else if inside {
		display = env.display(rel)
	}
	if o.json {
		p := filepath.ToSlash(out)
		if inside {
			p = rel
		}
		return writeJSON(env.Out, []indexResult{{Root: root.Dir(), Path: p, Status: status}})
	}
	if status == "written" {
		fmt.Fprintf(env.Out, "wrote %s\n", adr.Escape(display))
	} else {
		fmt.Fprintf(env.Out, "%s is up to date\n", adr.Escape(display))
	}
	return nil
}
