package gitops

// IsBranchName reports whether git accepts name as the name of a new
// branch (git check-ref-format --branch): git's own rules, not a copy of
// them. A name git refuses, or a git that fails to answer, is no.
func (r *Repo) IsBranchName(name string) bool {
	_, err := r.Git("check-ref-format", "--branch", name)
	return err == nil
}
