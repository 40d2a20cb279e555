package hooks

import (
	"fmt"

	"github.com/git-adr/git-adr/adr"
	"github.com/git-adr/git-adr/adr/guard"
	"github.com/git-adr/git-adr/gitops"
)

// GuardFileChanges are the changes that set the guard's mode to m in the
// .adr.toml at the top of r's work tree (created when there is none):
// none when it says so already. A file that does not parse, or would not
// after the edit, is a [*guard.BadConfigError].
func GuardFileChanges(r *gitops.Repo, m guard.Mode) ([]adr.FileChange, error) {
	old, exists, err := adr.ReadWorkFile(r.Top, adr.ConfigFile)
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", adr.ConfigFile, err)
	}
	if !exists {
		old = nil
	}
	next, err := guard.EditConfig(old, m)
	if err != nil || string(next) == string(old) {
		return nil, err
	}
	return []adr.FileChange{{Path: adr.ConfigFile, Old: old, New: next}}, nil
}
