package adr

import (
	"fmt"
	"io/fs"
	"strings"
)

// InitPlan is what `git adr init` writes: an .adr.toml pinning the roots
// it finds (or doc/adr), a first record in each empty root, and an
// .adr-dir where adr-tools needs one.
type InitPlan struct {
	// Changes are the files to write, the .adr.toml first.
	Changes []FileChange
	// Pinned are the roots that have records, in order.
	Pinned []PinnedRoot
	// Created are the records and the .adr-dir written, in order.
	Created []string
}

// PinnedRoot is a root with records that .adr.toml pins as it is.
type PinnedRoot struct {
	Root    string `json:"root"`
	Records int    `json:"records"`
	Style   string `json:"style"`
}

// InitOptions are the choices of [PlanInit].
type InitOptions struct {
	// Roots are the roots named (--dir), relative to the work tree's top;
	// none: discovered with the rules of every command, else doc/adr.
	Roots []string
	// Cwd is the working directory relative to the top.
	Cwd string
	// Style is the style of new records ("": each root's own, nygard for
	// an empty one).
	Style Style
	// Today is the date of the first records.
	Today string
}

// PlanInit plans `git adr init` in the work tree wt, which has no
// .adr.toml yet. A root that is a
// single-file log without records cannot be started (a [*SectionError]);
// on an error the plan holds the roots pinned before it.
func PlanInit(wt fs.FS, o InitOptions) (*InitPlan, error) {
	l, err := LoadWithConfig(wt, &Config{}, LoadOptions{Roots: o.Roots, Cwd: o.Cwd, AllowMissing: true})
	if err != nil {
		return nil, err
	}
	if len(l.Roots) == 0 {
		if l, err = LoadWithConfig(wt, &Config{}, LoadOptions{Roots: []string{"doc/adr"}, AllowMissing: true}); err != nil {
			return nil, err
		}
	}
	p := &InitPlan{}
	var changes []FileChange
	var cfg strings.Builder
	cfg.WriteString("# git-adr configuration; every key is described in docs/configuration.md\n")
	// adr-tools finds a log outside doc/adr through .adr-dir: one is
	// written for the first nygard root there, pinned or new.
	adrDir := func(root *Root, s Style) {
		if s != StyleNygard || root.Path == "doc/adr" {
			return
		}
		if _, err := fs.Lstat(wt, ".adr-dir"); err == nil {
			return
		}
		for _, c := range changes {
			if c.Path == ".adr-dir" {
				return
			}
		}
		changes = append(changes, FileChange{Path: ".adr-dir", New: []byte(root.Dir() + "\n")})
		p.Created = append(p.Created, ".adr-dir")
	}
	for _, root := range l.Roots {
		if root.File {
			// A single-file log is pinned as it is: it has no style of
			// new records, and git-adr writes none into it.
			if len(root.Records) == 0 {
				return p, WritableRoot(root, "init")
			}
			fmt.Fprintf(&cfg, "\n[[roots]]\npath = %q\n", root.Dir())
			p.Pinned = append(p.Pinned, PinnedRoot{Root: root.Dir(), Records: len(root.Records), Style: string(root.Style)})
			continue
		}
		s := root.Style
		if o.Style != "" {
			s = o.Style
		}
		if len(root.Records) == 0 && o.Style == "" {
			s = StyleNygard
		}
		fmt.Fprintf(&cfg, "\n[[roots]]\npath = %q\nstyle = %q\n", root.Dir(), s)
		if root.Name != "" {
			fmt.Fprintf(&cfg, "name = %q\n", root.Name)
		}
		if len(root.Records) > 0 {
			p.Pinned = append(p.Pinned, PinnedRoot{Root: root.Dir(), Records: len(root.Records), Style: string(s)})
			adrDir(root, s)
			continue
		}
		root.Style = s
		rec, ch, _, err := l.NewRecord(NewOptions{
			Title: "Record architecture decisions", Root: root, Style: s, Status: Accepted,
			Date: o.Today, Number: 1, Body: InitBody(s),
		})
		if err != nil {
			return p, err
		}
		changes = append(changes, ch...)
		p.Created = append(p.Created, rec.Path)
		adrDir(root, s)
	}
	p.Changes = append([]FileChange{{Path: ConfigFile, New: []byte(cfg.String())}}, changes...)
	return p, nil
}
