package gitops

import (
	"bufio"
	"bytes"
	"compress/zlib"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"sync"
)

// zlibReaders are inflaters kept for reuse: each holds a 32 KiB window,
// and a hook reads a handful of objects.
var zlibReaders sync.Pool

// looseObject reads a loose object of the given kind ("tree", "blob"):
// "KIND SIZE\0" then SIZE bytes, inflated. It reports false when the
// object is not loose (packed objects go through go-git) or is not what
// its header says. The object's name is not recomputed, as git does not
// when it reads.
func (r *Repo) looseObject(h, kind string) ([]byte, bool) {
	if len(h) != 40 {
		return nil, false
	}
	raw, err := os.ReadFile(filepath.Join(r.CommonDir, "objects", h[:2], h[2:]))
	if err != nil {
		return nil, false
	}
	zr, ok := inflater(bytes.NewReader(raw))
	if !ok {
		return nil, false
	}
	defer zlibReaders.Put(zr)
	// The header gives the size: read the body into a buffer of it.
	br := bufio.NewReaderSize(zr, 64)
	head, err := br.ReadBytes(0)
	if err != nil || len(head) < len(kind)+3 || string(head[:len(kind)+1]) != kind+" " {
		return nil, false
	}
	size, err := strconv.Atoi(string(head[len(kind)+1 : len(head)-1]))
	if err != nil || size < 0 || size > maxObject {
		return nil, false
	}
	return readExactly(br, size)
}

// maxObject bounds the objects read in process (larger ones go to git).
const maxObject = 1 << 30

// inflater is a zlib reader of r, one of zlibReaders when one is free;
// the caller puts it back.
func inflater(r io.Reader) (io.ReadCloser, bool) {
	if z, ok := zlibReaders.Get().(io.ReadCloser); ok && z.(zlib.Resetter).Reset(r, nil) == nil {
		return z, true
	}
	z, err := zlib.NewReader(r)
	return z, err == nil
}

// readExactly reads n bytes of r, which must end there: an object
// longer than its header says is not what it claims. n is the header's
// claim, so the buffer grows as the bytes arrive (from 1 MiB, doubling)
// rather than being made whole first: a forged header of 1 GiB before a
// few bytes costs a megabyte, not a gigabyte.
func readExactly(r io.Reader, n int) ([]byte, bool) {
	body := make([]byte, 0, min(n, readStep))
	for len(body) < n {
		if len(body) == cap(body) {
			body = slices.Grow(body, min(n-len(body), len(body)))
		}
		m, err := io.ReadFull(r, body[len(body):min(n, cap(body))])
		body = body[:len(body)+m]
		if err != nil {
			return nil, false
		}
	}
	var one [1]byte
	if m, _ := r.Read(one[:]); m != 0 {
		return nil, false
	}
	return body, true
}

// readStep is readExactly's first buffer at most.
const readStep = 1 << 20

// storedObject reads an object of the given kind from a pack or loose, in
// process; false sends the caller to go-git or to git. Only for a
// repository go-git reads: one in another object format or with an
// extension is never read here. Packs are asked first: a repository
// read from a commit (a mirror, a ref) holds most of its objects there,
// and a loose look-up that finds nothing is a failed open.
func (r *Repo) storedObject(h, kind string) ([]byte, bool) {
	if r.goGit() == nil {
		return nil, false
	}
	if b, ok := r.packedObject(h, kind); ok {
		return b, true
	}
	return r.looseObject(h, kind)
}
