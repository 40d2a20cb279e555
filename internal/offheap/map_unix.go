//go:build unix

package offheap

import "golang.org/x/sys/unix"

// mapAnonymous returns n bytes of private anonymous memory, or nil when
// the system refuses them.
func mapAnonymous(n int64) []byte {
	if int64(int(n)) != n {
		return nil
	}
	b, err := unix.Mmap(-1, 0, int(n), unix.PROT_READ|unix.PROT_WRITE, unix.MAP_ANON|unix.MAP_PRIVATE)
	if err != nil {
		return nil
	}
	return b
}

// unmap gives back memory mapAnonymous returned.
func unmap(b []byte) { _ = unix.Munmap(b) }
