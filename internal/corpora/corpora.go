// Package corpora finds the shared ADR corpora that tests, benchmarks and
// the labelled evaluation read: real logs of several styles and languages,
// kept beside the repository (never in it).
package corpora

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Dir is the folder of the shared corpora: $GIT_ADR_CORPORA, or
// ../shared/corpora beside the module root at or above dir.
func Dir(dir string) (string, error) {
	if d := os.Getenv("GIT_ADR_CORPORA"); d != "" {
		return d, nil
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			d := filepath.Join(dir, "..", "shared", "corpora")
			if _, err := os.Stat(d); err != nil {
				return "", fmt.Errorf("shared corpora not found at %s (set GIT_ADR_CORPORA)", d)
			}
			return d, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", fmt.Errorf("module root not found")
		}
		dir = parent
	}
}

// Markdown is the text of every Markdown file under dir, in walk order.
func Markdown(dir string) ([]string, error) {
	var texts []string
	err := filepath.WalkDir(dir, func(p string, e fs.DirEntry, err error) error {
		if err != nil || e.IsDir() || !strings.HasSuffix(p, ".md") {
			return err
		}
		data, err := os.ReadFile(p)
		if err == nil {
			texts = append(texts, string(data))
		}
		return err
	})
	return texts, err
}

// Texts is Markdown of the shared corpora, for a test or benchmark: it is
// skipped when there are none, and fails when they are there but cannot
// be read.
func Texts(tb testing.TB) []string {
	tb.Helper()
	wd, err := os.Getwd()
	if err != nil {
		tb.Fatal(err)
	}
	dir, err := Dir(wd)
	if err != nil {
		tb.Skip(err)
	}
	texts, err := Markdown(dir)
	if err != nil || len(texts) == 0 {
		tb.Fatalf("no Markdown file read under %s: %v", dir, err)
	}
	return texts
}
