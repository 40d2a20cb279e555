package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/git-adr/git-adr/adr"
	"github.com/git-adr/git-adr/adr/view"
	"github.com/rogpeppe/go-internal/testscript"
)

// viewBuild is the scenario command
//
//	view-build [-root DIR] [-plan ID] [-rev N] [-domain D | -sources A,B] [-dep ID]... DRAFT.json
//
// It publishes a CURRENT pair the way summary publication does: it loads
// the log of the current directory's work tree, reads a view.Draft from
// DRAFT.json, calls view.Build for the root (the first one unless -root
// names it) and writes CURRENT.md and CURRENT.sources.json. Scenarios get
// real hashes from the real code path without a model.
func viewBuild(ts *testscript.TestScript, neg bool, args []string) {
	fl := flag.NewFlagSet("view-build", flag.ContinueOnError)
	rootDir := fl.String("root", "", "root")
	plan := fl.String("plan", "s-0123456789", "plan ID")
	rev := fl.Int("rev", 1, "plan revision")
	domain := fl.String("domain", "", "domain selection")
	sources := fl.String("sources", "", "exact sources")
	var deps stringList
	fl.Var(&deps, "dep", "dependency (repeatable)")
	if err := fl.Parse(args); err != nil || fl.NArg() != 1 {
		ts.Fatalf("usage: view-build [-root DIR] [-plan ID] [-rev N] [-domain D | -sources A,B] [-dep ID]... DRAFT.json")
	}
	err := func() error {
		dir := ts.MkAbs(".")
		l, err := adr.Load(os.DirFS(dir), adr.LoadOptions{})
		if err != nil {
			return err
		}
		root, err := l.RootFor(*rootDir)
		if err != nil {
			return err
		}
		var d view.Draft
		data, err := os.ReadFile(ts.MkAbs(fl.Arg(0)))
		if err != nil {
			return err
		}
		if err := json.Unmarshal(data, &d); err != nil {
			return err
		}
		var ids []string
		if *sources != "" {
			ids = strings.Split(*sources, ",")
		}
		sel := view.NewSelection(*domain, ids)
		var ds []*adr.Record
		for _, id := range deps {
			r, err := l.Resolve(id)
			if err != nil {
				return err
			}
			ds = append(ds, r)
		}
		m, cur, err := view.Build(l, root, sel, view.Members(l, root, sel), ds, d, *plan, *rev, "git-adr test")
		if err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(dir, filepath.FromSlash(m.Summary.Path)), cur, 0o644); err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dir, filepath.FromSlash(root.Join(view.ManifestFile))), m.Encode(), 0o644)
	}()
	switch {
	case err != nil && !neg:
		ts.Fatalf("view-build: %v", err)
	case err == nil && neg:
		ts.Fatalf("view-build succeeded unexpectedly")
	case err != nil:
		fmt.Fprintf(ts.Stderr(), "view-build: %v\n", err)
	}
}

type stringList []string

func (s *stringList) String() string     { return strings.Join(*s, ",") }
func (s *stringList) Set(v string) error { *s = append(*s, v); return nil }
