package audit

import (
	"github.com/git-adr/git-adr/adr"
	"github.com/git-adr/git-adr/gitops"
)

// BranchTrees are the trees of every local and remote-tracking branch of
// r except the current one (whose files are the work tree), one per
// commit ([gitops.Repo.OtherBranchTrees]): where numbers held on other
// branches are found.
func BranchTrees(r *gitops.Repo) ([]adr.BranchTree, error) {
	trees, err := r.OtherBranchTrees()
	if err != nil {
		return nil, err
	}
	var out []adr.BranchTree
	for _, t := range trees {
		out = append(out, adr.BranchTree(t))
	}
	return out, nil
}
