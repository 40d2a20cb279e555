package gitops

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// A mirror is a bare repository that holds one ref of a remote
// repository, fetched into it: git-adr reads its tree without a checkout
// (git adr workspace, ADR-0039).

// OpenMirror opens the bare repository at dir, creating it first (git init
// --bare) when dir does not exist.
func OpenMirror(dir string) (*Repo, error) {
	if _, err := os.Stat(dir); errors.Is(err, os.ErrNotExist) {
		if err := os.MkdirAll(filepath.Dir(dir), 0o755); err != nil {
			return nil, err
		}
		cmd := exec.Command("git", "init", "--bare", "-q", "--", dir)
		cmd.Env = gitEnv()
		if out, err := cmd.CombinedOutput(); err != nil {
			return nil, &GitError{Args: cmd.Args[1:], Stderr: string(out), Code: exitCode(err)}
		}
	}
	return OpenBare(dir)
}

// OpenBare opens the bare repository at dir; anything else (a work tree, no
// repository) is an error wrapping [ErrNotRepository].
func OpenBare(dir string) (*Repo, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	r, err := openBare(abs)
	if err != nil {
		return nil, fmt.Errorf("%q is not a bare repository: %w", dir, ErrNotRepository)
	}
	return r, nil
}

// FetchRef fetches ref (a branch, a tag or a full ref name) of the
// repository at url into the local ref into, forced: only objects the
// mirror lacks are transferred. Tags are not fetched; nothing else
// changes. A ref the remote lacks is a *GitError naming it.
func (r *Repo) FetchRef(url, ref, into string) error {
	if strings.HasPrefix(url, "-") || strings.HasPrefix(ref, "-") {
		return fmt.Errorf("fetch %q %q: %w", url, ref, ErrNotFound)
	}
	_, err := r.Git("fetch", "--quiet", "--no-tags", "--no-write-fetch-head", "--end-of-options", url, "+"+ref+":"+into)
	return err
}

func exitCode(err error) int {
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		return ee.ExitCode()
	}
	return -1
}
