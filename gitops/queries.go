package gitops

import (
	"bufio"
	"bytes"
	"fmt"
	"strings"
	"unsafe"
)

// The named questions git-adr's commands ask of git (and the one setting
// `git adr config guard` writes), each answered by the git binary so that
// git's own rules hold: the identity from every config level and the
// environment, ignore files, rename detection, config scopes.

// CommitterIdent is "Name <email>" of the committer identity git would
// record now (git var GIT_COMMITTER_IDENT, without the date). It fails
// when git has no identity, as git commit would.
func (r *Repo) CommitterIdent() (string, error) {
	out, err := r.Git("var", "GIT_COMMITTER_IDENT")
	if err != nil {
		return "", err
	}
	s := strings.TrimSpace(string(out))
	if i := strings.LastIndexByte(s, '>'); i >= 0 {
		s = s[:i+1]
	}
	return s, nil
}

// CommitSubject is the subject line of the commit rev names (git log
// --format=%s), without surrounding white space.
func (r *Repo) CommitSubject(rev string) (string, error) {
	out, err := r.Git("log", "-1", "--format=%s", "--end-of-options", rev)
	if err != nil {
		return "", err
	}
	return strings.TrimSpace(string(out)), nil
}

// FilesNotIgnored are the paths of the work tree git knows or would add:
// the tracked files (deleted ones included) and the untracked files no
// ignore rule covers (git ls-files --cached --others --exclude-standard).
func (r *Repo) FilesNotIgnored() ([]string, error) {
	out, err := r.Git("ls-files", "-z", "--cached", "--others", "--exclude-standard")
	if err != nil {
		return nil, err
	}
	return nulPaths(out), nil
}

// DiffPaths are the paths the work tree changes against rev (git diff
// --name-only rev): with git's rename detection, a renamed file is listed
// by its new name.
func (r *Repo) DiffPaths(rev string) ([]string, error) {
	out, err := r.Git("diff", "--name-only", "-z", "--no-ext-diff", "--end-of-options", rev, "--")
	if err != nil {
		return nil, err
	}
	return nulPaths(out), nil
}

// StagedPaths are the paths the index changes against HEAD (git diff
// --cached --name-only), named as [Repo.DiffPaths] names them.
func (r *Repo) StagedPaths() ([]string, error) {
	out, err := r.Git("diff", "--name-only", "-z", "--no-ext-diff", "--cached")
	if err != nil {
		return nil, err
	}
	return nulPaths(out), nil
}

// nulPaths are the paths of git's -z output. They share out's bytes,
// which the caller must not change: a repository of 10,000 files makes
// no allocation for their bytes, not 10,000 (nor one copy of them all).
func nulPaths(out []byte) []string {
	all := unsafe.String(unsafe.SliceData(out), len(out))
	paths := make([]string, 0, bytes.Count(out, []byte{0})+1)
	for p := range strings.SplitSeq(all, "\x00") {
		if p != "" {
			paths = append(paths, p)
		}
	}
	return paths
}

// AddedDates maps each path git added under dirs (the whole tree when
// dirs is empty), in HEAD's history, to the day, YYYY-MM-DD in the author's
// time zone, of its oldest addition. Renames count as additions of the new
// name: a record's date is the day its file first appeared under that name.
// dirs are literal paths, never pathspec patterns.
func (r *Repo) AddedDates(dirs []string) (map[string]string, error) {
	args := []string{"log", "--diff-filter=A", "--format=@%as", "--name-only", "--no-renames", "--"}
	for _, d := range dirs {
		args = append(args, ":(literal)"+d)
	}
	data, err := r.Git(args...)
	if err != nil {
		return nil, err
	}
	out := map[string]string{}
	date := ""
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "@") {
			date = line[1:]
			continue
		}
		// git log lists the newest first: the oldest addition wins.
		if line != "" && date != "" {
			out[line] = date
		}
	}
	return out, sc.Err()
}

// SetConfig sets key to value in the configuration file of scope: "local"
// (this repository) or "global" (the user's).
func (r *Repo) SetConfig(scope, key, value string) error {
	if scope != "local" && scope != "global" {
		return fmt.Errorf("config scope %q: want local or global", scope)
	}
	_, err := r.Git("config", "--"+scope, "--", key, value)
	return err
}
