package main

import (
	"errors"
	"os"
	"path/filepath"

	"github.com/git-adr/git-adr/adr"
	"github.com/git-adr/git-adr/gitops"
	"github.com/git-adr/git-adr/internal/atomicfile"
)

// namedFile is a file at a path the user named (--output, --man-dir).
type namedFile struct {
	Path string // as given, absolute or relative to the working directory (or -C)
	Data []byte
}

// writeNamedFiles writes files the user named. Those inside this
// repository's work tree go through the project lock and one journalled
// changeset, like every work-tree write; the others (and all of them
// outside any repository) are replaced whole in place. It returns how
// many files changed; a file that already holds its data is left alone.
func writeNamedFiles(env *Env, files []namedFile) (int, error) {
	writes := make([]adr.NamedWrite, len(files))
	for i, f := range files {
		writes[i] = adr.NamedWrite{Path: absNamed(env, f.Path), Data: f.Data}
	}
	var rel func(string) (string, bool)
	if repo, err := env.Repo(); err == nil {
		rel = repo.Rel
		// The lock comes before reading what the command changes.
		for _, w := range writes {
			if _, ok := repo.Rel(w.Path); ok {
				if err := env.lockWrites(); err != nil {
					return 0, err
				}
				break
			}
		}
	}
	changes, outside, err := adr.SplitNamed(writes, rel, gitops.ReadRegularFile)
	var re *adr.NamedReadError
	if errors.As(err, &re) {
		return 0, failf("%s cannot be read: %v", files[re.Index].Path, pathErrReason(re.Err))
	}
	if err != nil {
		return 0, err
	}
	if len(changes) > 0 {
		if err := applyChanges(env, changes); err != nil {
			return 0, err
		}
	}
	for _, f := range outside {
		if err := replaceFile(f.Path, f.Data); err != nil {
			return 0, failf("write %s: %v", f.Path, err)
		}
	}
	return len(changes) + len(outside), nil
}

// absNamed resolves a path the user named against -C, else the working
// directory.
func absNamed(env *Env, p string) string {
	if filepath.IsAbs(p) {
		return p
	}
	base := env.Dir
	wd, _ := os.Getwd()
	switch {
	case base == "":
		base = wd
	case !filepath.IsAbs(base):
		base = filepath.Join(wd, base)
	}
	return filepath.Join(base, p)
}

// replaceFile writes data beside p and renames it over p, as adr-tools'
// `awk ... > FILE.tmp; mv FILE.tmp FILE` does.
func replaceFile(p string, data []byte) error {
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return err
	}
	return atomicfile.Write(p, data, 0o644)
}
