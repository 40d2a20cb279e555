package gitops

import (
	"errors"
	"fmt"
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

// ConfigValue is a configuration value with where git found it.
type ConfigValue struct {
	Value string
	// Scope is git's name for the level: system, global, local, worktree
	// or command (-c and GIT_CONFIG_* variables).
	Scope string
	// Origin is git's description of the source, such as
	// "file:/home/ada/.gitconfig" or "command line:".
	Origin string
}

// ConfigOrigin is [Repo.Config] with the scope and origin of the value in
// effect (git config --show-scope --show-origin). A missing key is
// [ErrNotFound].
func (r *Repo) ConfigOrigin(key string) (ConfigValue, error) {
	out, err := r.Git("config", "--show-scope", "--show-origin", "--get", "--null", key)
	if err != nil {
		var ge *GitError
		if errors.As(err, &ge) && ge.Code == 1 {
			return ConfigValue{}, ErrNotFound
		}
		return ConfigValue{}, err
	}
	parts := strings.SplitN(strings.TrimSuffix(string(out), "\x00"), "\x00", 3)
	if len(parts) != 3 {
		return ConfigValue{}, fmt.Errorf("git config --show-scope --show-origin %s: unexpected output %q", key, out)
	}
	return ConfigValue{Scope: parts[0], Origin: parts[1], Value: parts[2]}, nil
}
