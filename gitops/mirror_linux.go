package gitops

import (
	"os/exec"
	"syscall"
)

// dieWithParent has the kernel kill cmd when git-adr dies (PR_SET_PDEATHSIG).
func dieWithParent(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
}
