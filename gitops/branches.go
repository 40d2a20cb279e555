package gitops

import "io/fs"

// BranchTree is the tree of a branch's commit.
type BranchTree struct {
	Ref string
	FS  fs.FS
}

// OtherBranchTrees returns the trees of every local and remote-tracking
// branch except the current one (whose files are the work tree), one
// tree per commit however many refs name it. A ref whose tree cannot be
// read is left out.
func (r *Repo) OtherBranchTrees() ([]BranchTree, error) {
	refs, err := r.Refs("refs/heads/", "refs/remotes/")
	if err != nil {
		return nil, err
	}
	cur := r.CurrentBranch()
	trees := map[string]fs.FS{}
	var out []BranchTree
	for _, ref := range refs {
		if ref.Name == cur {
			continue
		}
		fsys, ok := trees[ref.Hash]
		if !ok {
			t, err := r.TreeFS(ref.Hash)
			if err != nil {
				continue
			}
			fsys, trees[ref.Hash] = t, t
		}
		out = append(out, BranchTree{Ref: ref.Name, FS: fsys})
	}
	return out, nil
}
