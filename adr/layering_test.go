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
