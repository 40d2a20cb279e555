package gitops

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
)

// ConfigMayMention reports whether configuration git reads could mention
// word (lower case: keys are matched case-insensitively): false means
// certainly not, since no file of the repository, user or system
// configuration holds it or includes another, and the environment
// (GIT_CONFIG_COUNT, GIT_CONFIG_PARAMETERS from git -c) sets nothing that
// could. It costs a few file reads where asking git costs a process, for
// keys that are seldom set.
func (r *Repo) ConfigMayMention(word string) bool { return r.configMayMention(word) }

// configMayMention is ConfigMayMention for any of words, in one read of
// each file.
func (r *Repo) configMayMention(words ...string) bool {
	if _, set := os.LookupEnv("GIT_CONFIG_COUNT"); set {
		return true
	}
	params := strings.ToLower(os.Getenv("GIT_CONFIG_PARAMETERS"))
	for _, w := range words {
		if strings.Contains(params, w) {
			return true
		}
	}
	files := []string{filepath.Join(r.CommonDir, "config"), filepath.Join(r.GitDir, "config.worktree")}
	home := os.Getenv("HOME")
	if g, set := os.LookupEnv("GIT_CONFIG_GLOBAL"); set {
		files = append(files, g)
	} else {
		xdg := os.Getenv("XDG_CONFIG_HOME")
		if xdg == "" && home != "" {
			xdg = filepath.Join(home, ".config")
		}
		if xdg != "" {
			files = append(files, filepath.Join(xdg, "git", "config"))
		}
		if home != "" {
			files = append(files, filepath.Join(home, ".gitconfig"))
		}
	}
	if os.Getenv("GIT_CONFIG_NOSYSTEM") == "" {
		if s, set := os.LookupEnv("GIT_CONFIG_SYSTEM"); set {
			files = append(files, s)
		} else {
			files = append(files, "/etc/gitconfig")
		}
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			if os.IsNotExist(err) || f == "" {
				continue
			}
			return true
		}
		low := bytes.ToLower(data)
		if bytes.Contains(low, []byte("include")) {
			return true
		}
		for _, w := range words {
			if bytes.Contains(low, []byte(w)) {
				return true
			}
		}
	}
	return false
}
