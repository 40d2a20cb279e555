package gitops

import (
	"sync"
	"syscall"
)

// bootID is the kernel's boot session UUID, drawn at every boot.
var bootID = sync.OnceValue(func() string {
	id, err := syscall.Sysctl("kern.bootsessionuuid")
	if err != nil {
		return ""
	}
	return id
})

// pidNamespace: macOS has one PID space per boot.
func pidNamespace() string { return "" }
