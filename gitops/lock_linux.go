package gitops

import (
	"os"
	"strings"
	"sync"
)

// bootID is the kernel's boot ID, a random UUID drawn at every boot
// ("" when /proc does not say).
var bootID = sync.OnceValue(func() string {
	data, err := os.ReadFile("/proc/sys/kernel/random/boot_id")
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(data))
})

// pidNamespace names this process's PID namespace ("pid:[4026531836]").
var pidNamespace = sync.OnceValue(func() string {
	ns, err := os.Readlink("/proc/self/ns/pid")
	if err != nil {
		return ""
	}
	return ns
})
