package gitops

import (
	"strings"
)

// The questions `git adr check` asks of a repository's history: merge
// bases, the default branch, a range's commits, whether the clone is
// shallow, a commit's files, and the commits that added or changed files
// (scope churn). Each is answered by the git binary.

// MergeBase is the best common ancestor of the commits a and b name (git
// merge-base a b). It fails when they share no history.
func (r *Repo) MergeBase(a, b string) (string, error) {
	out, err := r.Git("merge-base", "--end-of-options", a, b)
	if err != nil {
		return "", err
	}
	return strings.TrimSpace(string(out)), nil
}

// RemoteHead is the ref refs/remotes/<remote>/HEAD points at (the remote's
// default branch as last fetched, such as refs/remotes/origin/main), or ""
// when there is no such symbolic ref.
func (r *Repo) RemoteHead(remote string) string {
	out, err := r.Git("symbolic-ref", "-q", "refs/remotes/"+remote+"/HEAD")
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(out))
}

// IsShallow reports whether the repository is a shallow clone (git
// rev-parse --is-shallow-repository); false when git cannot say.
func (r *Repo) IsShallow() bool {
	out, err := r.Git("rev-parse", "--is-shallow-repository")
	return err == nil && strings.TrimSpace(string(out)) == "true"
}

// CommitsBetween lists, oldest first, the commits of to that from does
// not have (git rev-list --reverse to ^from); every commit of to when
// from is "".
func (r *Repo) CommitsBetween(from, to string) ([]string, error) {
	args := []string{"rev-list", "--reverse", to}
	if from != "" {
		args = append(args, "^"+from)
	}
	return r.revList(args...)
}

// TrackedFiles are the paths of the files of commit rev (git ls-tree -r),
// or with rev "" the files the index tracks (git ls-files; HEAD's in a
// bare repository, which has no index of its own).
func (r *Repo) TrackedFiles(rev string) ([]string, error) {
	var out []byte
	var err error
	if rev == "" && r.Bare {
		rev = "HEAD"
	}
	if rev != "" {
		out, err = r.Git("ls-tree", "-r", "-z", "--name-only", rev)
	} else {
		out, err = r.Git("ls-files", "-z")
	}
	if err != nil {
		return nil, err
	}
	return nulPaths(out), nil
}

// LogCommit is a commit of a history walk with the files it names.
type LogCommit struct {
	Hash  string
	Files []string
}

// AddedFiles are the commits of rev's history (newest first) that added
// a file under dirs, each with the files it added there; renames are not
// followed, so a renamed file counts as added under its new name. dirs
// are literal paths; with none, the whole tree is searched.
func (r *Repo) AddedFiles(rev string, dirs []string) ([]LogCommit, error) {
	args := []string{"log", "-z", "--no-renames", "--diff-filter=A", "--format=%x01%H", "--name-only", rev, "--"}
	for _, d := range dirs {
		args = append(args, ":(literal)"+d)
	}
	out, err := r.Git(args...)
	if err != nil {
		return nil, err
	}
	return parseLogCommits(out), nil
}

// ChangedFiles are the non-merge commits of rev's history (newest first,
// every parent's side followed: --full-history) with the files each
// changed; with dirs (literal paths), only the commits that changed a
// file under one of them, and only those files.
func (r *Repo) ChangedFiles(rev string, dirs []string) ([]LogCommit, error) {
	args := []string{"log", "-z", "--no-merges", "--no-renames", "--full-history", "--format=%x01%H", "--name-only", rev}
	if len(dirs) > 0 {
		args = append(args, "--")
		for _, d := range dirs {
			args = append(args, ":(literal)"+d)
		}
	}
	out, err := r.Git(args...)
	if err != nil {
		return nil, err
	}
	return parseLogCommits(out), nil
}

// parseLogCommits reads `git log -z --format=%x01%H --name-only`: each
// commit's header starts with \x01, and its names follow, NUL-separated,
// the first after the header's newline.
func parseLogCommits(out []byte) []LogCommit {
	var cs []LogCommit
	first := false
	for _, tok := range strings.Split(string(out), "\x00") {
		switch {
		case strings.HasPrefix(tok, "\x01"):
			cs = append(cs, LogCommit{Hash: tok[1:]})
			first = true
		case len(cs) == 0:
		default:
			if first {
				// The name list starts after the header's newline.
				tok, first = strings.TrimPrefix(tok, "\n"), false
			}
			if tok != "" {
				cs[len(cs)-1].Files = append(cs[len(cs)-1].Files, tok)
			}
		}
	}
	return cs
}

// CommitParents is a commit of a history walk with its parents.
type CommitParents struct {
	Hash    string
	Parents []string
}

// History is every commit reachable from rev with its parents (git
// rev-list --parents rev), newest first.
func (r *Repo) History(rev string) ([]CommitParents, error) {
	out, err := r.Git("rev-list", "--parents", rev)
	if err != nil {
		return nil, err
	}
	var cs []CommitParents
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		f := strings.Fields(line)
		if len(f) == 0 {
			continue
		}
		cs = append(cs, CommitParents{Hash: f[0], Parents: f[1:]})
	}
	return cs, nil
}
