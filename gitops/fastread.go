package gitops

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/format/index"
)

// In-process reads for the hot paths of hooks: the index, HEAD and the
// branch refs, read by go-git instead of one git process each. Each falls
// back to the git binary (ok false) whenever go-git is not sure: go-git
// refused the repository, a split or sparse index, an unknown extension,
// a symbolic ref it cannot follow. Writes never take these paths.

// readIndexFile decodes the index git would use: $GIT_INDEX_FILE (which
// git sets inside hooks, relative to the work tree) or $GIT_DIR/index.
// Only stage-0 entries are kept, as `ls-files -s` would show them.
func (r *Repo) readIndexFile() ([]entry, bool) {
	if r.goGit() == nil {
		return nil, false
	}
	p := os.Getenv("GIT_INDEX_FILE")
	switch {
	case p == "":
		p = filepath.Join(r.GitDir, "index")
	case !filepath.IsAbs(p):
		p = filepath.Join(r.Top, p)
	}
	data, err := os.ReadFile(p)
	if err != nil {
		return nil, false // no index yet, or unreadable: let git say
	}
	if out, ok := decodeIndex(data); ok {
		return out, true
	}
	// A split or sparse index carries a mandatory extension ("link",
	// "sdir") go-git does not know either: it refuses, and git reads it.
	var idx index.Index
	if err := index.NewDecoder(bytes.NewReader(data)).Decode(&idx); err != nil {
		return nil, false
	}
	out := make([]entry, 0, len(idx.Entries))
	for _, e := range idx.Entries {
		if e.Mode == filemode.Dir || strings.HasSuffix(e.Name, "/") {
			return nil, false // a sparse index: directories stand for trees
		}
		if e.Stage != 0 {
			continue // a conflict's stages 1-3: not what a commit would hold
		}
		out = append(out, entry{name: e.Name, hash: e.Hash.String(), mode: e.Mode, intentToAdd: e.IntentToAdd})
	}
	return out, true
}

// headCommit is HEAD's commit read in process ("" and false to ask git).
// HEAD is this work tree's (go-git, opened on the common directory, would
// read the main worktree's in a linked one).
func (r *Repo) headCommit() (string, bool) { return r.worktreeHead() }

// refsInProcess lists refs under prefixes like [Repo.Refs], or false.
func (r *Repo) refsInProcess(prefixes ...string) ([]Ref, bool) {
	g := r.goGit()
	if g == nil {
		return nil, false
	}
	iter, err := g.References()
	if err != nil {
		return nil, false
	}
	defer iter.Close()
	var out []Ref
	err = iter.ForEach(func(ref *plumbing.Reference) error {
		name := ref.Name().String()
		match := len(prefixes) == 0
		for _, p := range prefixes {
			if strings.HasPrefix(name, p) {
				match = true
			}
		}
		if !match || ref.Type() != plumbing.HashReference {
			return nil // symbolic refs are left out, as Refs does
		}
		out = append(out, Ref{Name: name, Hash: ref.Hash().String()})
		return nil
	})
	if err != nil {
		return nil, false
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out, true
}

// currentBranchInProcess is HEAD's branch, or false to ask git.
// Like headCommit, it reads this work tree's HEAD file.
func (r *Repo) currentBranchInProcess() (string, bool) {
	if r.goGit() == nil {
		return "", false
	}
	data, err := os.ReadFile(filepath.Join(r.GitDir, "HEAD"))
	if err != nil {
		return "", false
	}
	h := strings.TrimRight(string(data), "\n")
	if target, ok := strings.CutPrefix(h, "ref: "); ok && strings.HasPrefix(target, "refs/") {
		return target, true
	}
	if len(h) == 40 && isHex(h) {
		return "", true // detached
	}
	return "", false
}

// Head is the commit HEAD names, or [ErrNotFound] before the first commit.
func (r *Repo) Head() (string, error) {
	if c, ok := r.headCommit(); ok {
		return c, nil
	}
	return r.ResolveRef("HEAD")
}

// Grep runs `git grep -n -o -I -E` for pattern over the tracked files of
// the work tree (or of rev, when not ""), leaving out the excluded paths,
// and returns at most maxLines lines of "path:line:match" (git grep is
// stopped once they are read). No match is not an error.
func (r *Repo) Grep(pattern, rev string, paths, exclude []string, perFile, maxLines int) ([]byte, error) {
	args := []string{"grep", "-n", "-o", "-I", "-E", "--full-name", "--no-color", "-m", fmt.Sprint(perFile), "-e", pattern}
	if rev != "" {
		args = append(args, rev)
	}
	args = append(args, "--")
	if len(paths) == 0 {
		args = append(args, ".")
	}
	for _, p := range paths {
		args = append(args, ":(literal)"+p)
	}
	for _, e := range exclude {
		args = append(args, ":(exclude,glob)"+e)
	}
	cmd := exec.Command("git", args...)
	cmd.Dir = r.Top
	if r.Bare {
		cmd.Dir = r.GitDir
	}
	cmd.Env = gitEnv(r.env)
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	sc := bufio.NewScanner(out)
	sc.Buffer(make([]byte, 64*1024), 1<<20)
	n := 0
	for sc.Scan() {
		if rev != "" {
			// "rev:path:line:match": drop the revision.
			line := strings.TrimPrefix(sc.Text(), rev+":")
			buf.WriteString(line)
		} else {
			buf.Write(sc.Bytes())
		}
		buf.WriteByte('\n')
		if n++; n >= maxLines {
			cmd.Process.Kill()
			break
		}
	}
	err = cmd.Wait()
	var ee *exec.ExitError
	if n >= maxLines || errors.As(err, &ee) && ee.ExitCode() == 1 {
		err = nil // stopped by us, or no match
	}
	return buf.Bytes(), err
}
