package gitops

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// Object writes go through the git binary (hash-object, update-index with
// a temporary index, write-tree, commit-tree), so that git's own object
// format, hooks-free plumbing and signing apply exactly.

// WriteBlob stores data as a blob and returns its object name.
func (r *Repo) WriteBlob(data []byte) (string, error) {
	out, err := r.GitInput(data, "hash-object", "-w", "--stdin")
	if err != nil {
		return "", err
	}
	return strings.TrimSpace(string(out)), nil
}

// TreeChange is one file of a tree being built: Data at Path (Delete set
// removes the path instead). From names a rename's source, removed in the
// same tree. Mode is the git file mode ("" for 100644; "100755" keeps a
// file executable).
type TreeChange struct {
	Path   string
	Data   []byte
	Delete bool
	From   string
	Mode   string
}

// BuildTree returns the tree of base (a commit or tree; "" for an empty
// tree) with changes applied. It uses a temporary index, so the user's
// index and work tree are never touched.
func (r *Repo) BuildTree(base string, changes []TreeChange) (string, error) {
	dir, err := os.MkdirTemp(r.AdrDir(), "index-")
	if err != nil {
		if err := os.MkdirAll(r.AdrDir(), 0o755); err != nil {
			return "", err
		}
		if dir, err = os.MkdirTemp(r.AdrDir(), "index-"); err != nil {
			return "", err
		}
	}
	defer os.RemoveAll(dir)
	env := []string{"GIT_INDEX_FILE=" + filepath.Join(dir, "index")}
	if base != "" {
		if _, err := r.runEnv(r.Top, env, nil, "read-tree", base); err != nil {
			return "", err
		}
	} else if _, err := r.runEnv(r.Top, env, nil, "read-tree", "--empty"); err != nil {
		return "", err
	}
	sort.SliceStable(changes, func(i, j int) bool { return changes[i].Path < changes[j].Path })
	var info strings.Builder
	for _, c := range changes {
		if c.Path == "" || strings.HasPrefix(c.Path, "/") || strings.Contains(c.Path, "\x00") {
			return "", fmt.Errorf("bad tree path %q", c.Path)
		}
		if c.Delete {
			fmt.Fprintf(&info, "0 %s\t%s\x00", ZeroHash, c.Path)
			continue
		}
		if c.From != "" {
			if strings.HasPrefix(c.From, "/") || strings.Contains(c.From, "\x00") {
				return "", fmt.Errorf("bad tree path %q", c.From)
			}
			fmt.Fprintf(&info, "0 %s\t%s\x00", ZeroHash, c.From)
		}
		h, err := r.WriteBlob(c.Data)
		if err != nil {
			return "", err
		}
		mode := c.Mode
		switch mode {
		case "":
			mode = "100644"
		case "100644", "100755":
		default:
			return "", fmt.Errorf("%s: mode %s is not a regular file's", c.Path, mode)
		}
		fmt.Fprintf(&info, "%s %s\t%s\x00", mode, h, c.Path)
	}
	if info.Len() > 0 {
		if _, err := r.runEnv(r.Top, env, []byte(info.String()), "update-index", "-z", "--index-info"); err != nil {
			return "", err
		}
	}
	out, err := r.runEnv(r.Top, env, nil, "write-tree")
	if err != nil {
		return "", err
	}
	return strings.TrimSpace(string(out)), nil
}

// CommitOptions describe a commit made from a tree.
type CommitOptions struct {
	Tree    string
	Parents []string
	Message string
	// Sign signs the commit (`git commit-tree -S`, which honours
	// gpg.format and user.signingkey but not commit.gpgsign: callers
	// decide, see SignByDefault).
	Sign bool
}

// CommitTree writes a commit object and returns its name. No ref moves.
func (r *Repo) CommitTree(o CommitOptions) (string, error) {
	args := []string{"commit-tree", o.Tree}
	for _, p := range o.Parents {
		args = append(args, "-p", p)
	}
	if o.Sign {
		args = append(args, "-S")
	}
	out, err := r.GitInput([]byte(o.Message), args...)
	if err != nil {
		return "", err
	}
	return strings.TrimSpace(string(out)), nil
}

// SignByDefault reports whether commits should be signed per git config
// (commit.gpgsign), which commit-tree does not read by itself.
func (r *Repo) SignByDefault() (bool, error) {
	return r.ConfigBool("commit.gpgsign", false)
}

// ReadBlob reads the blob at rev:path ("HEAD:doc/adr/CURRENT.md").
func (r *Repo) ReadBlobAt(rev, path string) ([]byte, error) {
	out, err := r.Git("cat-file", "blob", rev+":"+path)
	if err != nil {
		var ge *GitError
		if errors.As(err, &ge) {
			return nil, fmt.Errorf("%s:%s: %w", rev, path, ErrNotFound)
		}
		return nil, err
	}
	return out, nil
}

// WorktreeAdd checks out rev (detached) into dir as a linked worktree.
func (r *Repo) WorktreeAdd(dir, rev string) error {
	_, err := r.Git("worktree", "add", "--detach", "--quiet", dir, rev)
	return err
}

// WorktreeRemove removes a linked worktree (force: discard its changes).
func (r *Repo) WorktreeRemove(dir string, force bool) error {
	args := []string{"worktree", "remove", dir}
	if force {
		args = []string{"worktree", "remove", "--force", dir}
	}
	_, err := r.Git(args...)
	return err
}

// IndexBlob returns the blob the index holds for path (stage 0), or ""
// when the path is not in the index. It honours GIT_INDEX_FILE.
func (r *Repo) IndexBlob(path string) (string, error) {
	out, err := r.Git("ls-files", "-s", "-z", "--", path)
	if err != nil {
		return "", err
	}
	rec := strings.TrimSuffix(string(out), "\x00")
	if rec == "" {
		return "", nil
	}
	f := strings.Fields(strings.SplitN(rec, "\t", 2)[0])
	if len(f) != 3 {
		return "", fmt.Errorf("git ls-files: unexpected %q", rec)
	}
	return f[1], nil
}

// TreeBlob returns the blob a commit holds at path, or "" when absent.
func (r *Repo) TreeBlob(rev, path string) (string, error) {
	out, err := r.Git("ls-tree", "-z", rev, "--", path)
	if err != nil {
		return "", err
	}
	rec := strings.TrimSuffix(string(out), "\x00")
	if rec == "" {
		return "", nil
	}
	f := strings.Fields(strings.SplitN(rec, "\t", 2)[0])
	if len(f) != 3 {
		return "", fmt.Errorf("git ls-tree: unexpected %q", rec)
	}
	return f[2], nil
}

// SetIndex points the index entries of paths at blobs ("" removes the
// entry) as regular files, touching no other entry.
func (r *Repo) SetIndex(entries map[string]string) error {
	var es []IndexEntry
	for p, blob := range entries {
		es = append(es, IndexEntry{Path: p, Blob: blob})
	}
	return r.UpdateIndex(es)
}

// IndexEntry is an index entry to set: Blob "" removes it; Mode "" is
// 100644.
type IndexEntry struct {
	Path, Mode, Blob string
}

// UpdateIndex sets index entries, touching no other entry.
func (r *Repo) UpdateIndex(entries []IndexEntry) error {
	sort.Slice(entries, func(i, j int) bool { return entries[i].Path < entries[j].Path })
	var info strings.Builder
	for _, e := range entries {
		mode := e.Mode
		if mode == "" {
			mode = "100644"
		}
		if e.Blob == "" {
			fmt.Fprintf(&info, "0 %s\t%s\x00", ZeroHash, e.Path)
		} else {
			fmt.Fprintf(&info, "%s %s\t%s\x00", mode, e.Blob, e.Path)
		}
	}
	_, err := r.GitInput([]byte(info.String()), "update-index", "-z", "--index-info")
	return err
}

// TreeEntry is one entry of a recursive tree listing.
type TreeEntry struct {
	Mode, Type, Hash, Path string
}

// ListTree lists every file of a commit or tree, recursively (submodules
// and symbolic links included, as their own entries), in git's order.
func (r *Repo) ListTree(rev string) ([]TreeEntry, error) {
	out, err := r.Git("ls-tree", "-r", "-z", "--full-tree", rev)
	if err != nil {
		return nil, err
	}
	var es []TreeEntry
	for _, rec := range strings.Split(string(out), "\x00") {
		meta, p, ok := strings.Cut(rec, "\t")
		if !ok {
			continue
		}
		f := strings.Fields(meta)
		if len(f) != 3 {
			return nil, fmt.Errorf("git ls-tree: unexpected %q", rec)
		}
		es = append(es, TreeEntry{Mode: f[0], Type: f[1], Hash: f[2], Path: p})
	}
	return es, nil
}

// ReadBlob reads a blob by object name.
func (r *Repo) ReadBlob(hash string) ([]byte, error) { return r.readBlob(hash) }

// Renames returns the renames git detects between two commits or trees
// with its default rename detection (the one `git log --follow` uses):
// new path to old path.
func (r *Repo) Renames(from, to string) (map[string]string, error) {
	out, err := r.Git("diff-tree", "-r", "-z", "-M", "--no-commit-id", "--name-status", "--diff-filter=R", from, to)
	if err != nil {
		return nil, err
	}
	f := strings.Split(strings.TrimSuffix(string(out), "\x00"), "\x00")
	renames := map[string]string{}
	for i := 0; i+2 < len(f); i += 3 {
		if !strings.HasPrefix(f[i], "R") {
			return nil, fmt.Errorf("git diff-tree: unexpected %q", f[i])
		}
		renames[f[i+2]] = f[i+1]
	}
	return renames, nil
}
