//go:build unix

package gitops

import (
	"os"
	"syscall"
)

// ownedByMe is git's is_path_owned_by_current_user without its sudo
// exception: a path owned by someone else is git's to judge.
func ownedByMe(p string) bool {
	fi, err := os.Stat(p)
	if err != nil {
		return false
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	return ok && int(st.Uid) == os.Geteuid()
}

// sameDevice reports whether two directories are on one file system
// (git stops discovery at a boundary).
func sameDevice(a, b os.FileInfo) bool {
	sa, ok1 := a.Sys().(*syscall.Stat_t)
	sb, ok2 := b.Sys().(*syscall.Stat_t)
	return ok1 && ok2 && sa.Dev == sb.Dev
}
