//go:build !linux

package gitops

import "os/exec"

// dieWithParent does nothing where the system cannot kill a child with
// its parent: a fetch cut short by git-adr's death runs to its end, and
// git still moves the ref only once the fetch is whole.
func dieWithParent(*exec.Cmd) {}
