//go:build !unix

package compaction

import "os/exec"

// ownProcessGroup leaves cmd as it is where process groups are not
// available; WaitDelay still bounds the wait for orphaned children.
func ownProcessGroup(cmd *exec.Cmd) {}
