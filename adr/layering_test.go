package adr_test

import (
	"go/parser"
	gotoken "go/token"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

const module = "github.com/git-adr/git-adr/"

// imports lists "file: import path" for every import of the Go files
// (tests included) under dir, relative to this package's folder.
func imports(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && d.Name() == "testdata" {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(p, ".go") {
			return nil
		}
		f, err := parser.ParseFile(gotoken.NewFileSet(), p, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		for _, im := range f.Imports {
			path, _ := strconv.Unquote(im.Path.Value)
			out = append(out, p+": "+path)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// The decision log depends on no navigation and no command line: ranking
// lives in retrieve/, the measure of an MCP message is passed in, and
// only cmd parses flags (docs/architecture.md).
func TestDecisionLogLayering(t *testing.T) {
	for _, im := range imports(t, ".") {
		_, path, _ := strings.Cut(im, ": ")
		if strings.HasPrefix(path, module+"navigate") || strings.HasPrefix(path, module+"cmd") || strings.HasPrefix(path, "github.com/urfave/cli") {
			t.Errorf("%s: adr/ imports no navigation, command or CLI package", im)
		}
	}
}

// The packages adr/ and navigate/ share are leaves: they import no other
// package of git-adr (their tests may use test helpers), so sharing them
// makes neither depend on the other.
func TestSharedLeaves(t *testing.T) {
	for _, dir := range []string{"../retrieve", "../internal/jsoncost"} {
		if _, err := os.Stat(dir); err != nil {
			t.Fatalf("shared leaf %s: %v", dir, err)
		}
		for _, im := range imports(t, dir) {
			file, path, _ := strings.Cut(im, ": ")
			if strings.HasSuffix(file, "_test.go") {
				continue
			}
			if rest, ok := strings.CutPrefix(path, module); ok && !strings.HasPrefix(rest, strings.TrimPrefix(dir, "../")) {
				t.Errorf("%s: a shared leaf imports %s", im, path)
			}
		}
	}
}

// docs/architecture.md names every package of the module and every file
// of package adr, so a package or a file added without its place on the
// map fails here instead of going unnoticed.
func TestArchitectureNamesEverything(t *testing.T) {
	doc, err := os.ReadFile("../docs/architecture.md")
	if err != nil {
		t.Fatal(err)
	}
	text := string(doc)
	pkgs := map[string]bool{}
	err = filepath.WalkDir("..", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".") && p != "..") {
			return filepath.SkipDir
		}
		if !d.IsDir() && strings.HasSuffix(p, ".go") && !strings.HasSuffix(p, "_test.go") {
			pkgs[filepath.ToSlash(filepath.Dir(p))] = true
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for dir := range pkgs {
		rel := strings.TrimPrefix(dir, "../")
		switch {
		case dir == "..":
			continue
		case strings.HasPrefix(rel, "scripts/bench"):
			if !strings.Contains(text, "`scripts/bench*`") {
				t.Errorf("docs/architecture.md does not name scripts/bench* (%s)", rel)
			}
		case !strings.Contains(text, "`"+rel+"`") && !strings.Contains(text, "`"+rel+"/`") && !strings.Contains(text, rel+" ") && !strings.Contains(text, rel+":"):
			t.Errorf("docs/architecture.md does not name package %s", rel)
		}
	}
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		if !strings.HasSuffix(f, "_test.go") && !strings.Contains(text, "`"+f+"`") {
			t.Errorf("docs/architecture.md does not name adr/%s (the adr table of the packages section)", f)
		}
	}
}
