package gitops

import (
	"errors"
	"fmt"
	"strings"
)

// ZeroHash as an old value means "the ref must not exist yet".
const ZeroHash = "0000000000000000000000000000000000000000"

// EmptyTree is the object name of the empty tree (what a first commit
// is compared with).
const EmptyTree = "4b825dc642cb6eb9a060e54bf8d69288fbee4904"

// RefUpdate is one compare-and-swap step of a ref transaction. An empty New
// deletes the ref; Old is the value the caller read (ZeroHash: must not
// exist; empty: no check).
type RefUpdate struct {
	Name string
	New  string
	Old  string
}

// UpdateRefs applies all updates atomically with `git update-ref --stdin`.
// When any ref no longer holds its expected old value nothing changes and
// the error wraps [ErrRefChanged].
func (r *Repo) UpdateRefs(msg string, updates ...RefUpdate) error {
	if !r.Locked() {
		return ErrNotLocked
	}
	var b strings.Builder
	b.WriteString("start\x00")
	for _, u := range updates {
		switch {
		case u.New == "":
			fmt.Fprintf(&b, "delete %s\x00%s\x00", u.Name, u.Old)
		default:
			fmt.Fprintf(&b, "update %s\x00%s\x00%s\x00", u.Name, u.New, u.Old)
		}
	}
	b.WriteString("prepare\x00commit\x00")
	args := []string{"update-ref", "--stdin", "-z"}
	if msg != "" {
		args = append(args, "-m", msg)
	}
	_, err := r.GitInput([]byte(b.String()), args...)
	if err != nil {
		var ge *GitError
		if errors.As(err, &ge) && (strings.Contains(ge.Stderr, "but expected") ||
			strings.Contains(ge.Stderr, "reference already exists") ||
			strings.Contains(ge.Stderr, "cannot lock ref") ||
			strings.Contains(ge.Stderr, "unable to resolve reference")) {
			return fmt.Errorf("%w: %s", ErrRefChanged, strings.TrimSpace(ge.Stderr))
		}
		return err
	}
	return nil
}

// ResolveRef returns the object name a ref or revision points at, or
// [ErrNotFound].
func (r *Repo) ResolveRef(rev string) (string, error) {
	out, err := r.Git("rev-parse", "--verify", "--quiet", "--end-of-options", rev+"^{object}")
	if err != nil {
		var ge *GitError
		if errors.As(err, &ge) && ge.Code == 1 {
			return "", fmt.Errorf("%q: %w", rev, ErrNotFound)
		}
		return "", err
	}
	return strings.TrimSpace(string(out)), nil
}

// Ref is a ref name with the object it points at.
type Ref struct {
	Name string
	Hash string
}

// Refs lists refs under the given prefixes (for example "refs/heads/",
// "refs/remotes/"), sorted by name. Symbolic refs such as
// refs/remotes/origin/HEAD are left out.
func (r *Repo) Refs(prefixes ...string) ([]Ref, error) {
	if refs, ok := r.refsInProcess(prefixes...); ok {
		return refs, nil
	}
	args := append([]string{"for-each-ref", "--format=%(objectname) %(refname) %(symref)"}, prefixes...)
	out, err := r.Git(args...)
	if err != nil {
		return nil, err
	}
	var refs []Ref
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		f := strings.Fields(line)
		if len(f) < 2 || len(f) > 2 {
			continue
		}
		refs = append(refs, Ref{Hash: f[0], Name: f[1]})
	}
	return refs, nil
}

// CurrentBranch returns the full ref name HEAD points at ("" when detached).
func (r *Repo) CurrentBranch() string {
	if b, ok := r.currentBranchInProcess(); ok {
		return b
	}
	out, err := r.Git("symbolic-ref", "--quiet", "HEAD")
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(out))
}

// CommitFiles writes a commit whose tree holds exactly files, with parent
// ("" for none) as its parent; no ref moves. Plans keep each revision as
// such a commit on their ref.
func (r *Repo) CommitFiles(parent, msg string, files []TreeChange) (string, error) {
	tree, err := r.BuildTree("", files)
	if err != nil {
		return "", err
	}
	var parents []string
	if parent != "" {
		parents = []string{parent}
	}
	return r.CommitTree(CommitOptions{Tree: tree, Parents: parents, Message: msg})
}
