package gitops

import (
	"errors"
	"strings"
)

// Config returns the value of a git configuration key as git itself sees it
// (system, global, include, worktree and GIT_CONFIG_* environment config).
// A missing key is [ErrNotFound].
func (r *Repo) Config(key string) (string, error) {
	out, err := r.Git("config", "--get", "--null", key)
	if err != nil {
		var ge *GitError
		if errors.As(err, &ge) && ge.Code == 1 {
			return "", ErrNotFound
		}
		return "", err
	}
	return strings.TrimSuffix(string(out), "\x00"), nil
}

// ConfigBool reads a boolean key with git's own parsing; def is returned
// when the key is missing.
func (r *Repo) ConfigBool(key string, def bool) (bool, error) {
	out, err := r.Git("config", "--get", "--null", "--type=bool", key)
	if err != nil {
		var ge *GitError
		if errors.As(err, &ge) && ge.Code == 1 {
			return def, nil
		}
		return def, err
	}
	return strings.TrimSuffix(string(out), "\x00") == "true", nil
}
