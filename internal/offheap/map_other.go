//go:build !unix

package offheap

// mapAnonymous is not available here: files are read into the heap.
func mapAnonymous(int64) []byte { return nil }

func unmap([]byte) {}
