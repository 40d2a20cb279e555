package hooks

import (
	"io"

	"github.com/git-adr/git-adr/gitops"
)

// RunEarlier is [RunChained] in the directory the hook runs from: the
// one git-adr's hook script names ([gitops.HookDirEnv], read with getenv),
// else git's hooks directory of r. Nothing runs when neither is known.
func RunEarlier(r *gitops.Repo, getenv func(string) string, name string, args []string, stdin []byte, stdout, stderr io.Writer) (ran bool, code int, err error) {
	dir := getenv(gitops.HookDirEnv)
	if dir == "" {
		dir, _ = r.HooksDir()
	}
	if dir == "" {
		return false, 0, nil
	}
	return RunChained(dir, name, args, stdin, stdout, stderr)
}
