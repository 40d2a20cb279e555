package gitops

import "testing"

// git's rules decide: a slash is fine, a double dot, a space, a leading
// dash, HEAD and the previous-branch shorthand are not.
func TestIsBranchName(t *testing.T) {
	r := openRepo(t, newRepo(t, map[string]string{"a": "a\n"}))
	for name, want := range map[string]bool{
		"adr/compaction": true, "proposal-2": true,
		"a..b": false, "a b": false, "-x": false, "HEAD": false, "@{-1}": false, "": false, "ends.lock": false,
	} {
		if got := r.IsBranchName(name); got != want {
			t.Errorf("IsBranchName(%q) = %v, want %v", name, got, want)
		}
	}
}
