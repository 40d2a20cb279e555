package gitops

import (
	"bufio"
	"bytes"
	"compress/zlib"
	"io"
	"os"
	"path/filepath"
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
	var zr io.ReadCloser
	if z, ok := zlibReaders.Get().(io.ReadCloser); ok && z.(zlib.Resetter).Reset(bytes.NewReader(raw), nil) == nil {
		zr = z
	} else if zr, err = zlib.NewReader(bytes.NewReader(raw)); err != nil {
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
	if err != nil || size < 0 || size > 1<<30 {
		return nil, false
	}
	body := make([]byte, size)
	if _, err := io.ReadFull(br, body); err != nil {
		return nil, false
	}
	var one [1]byte
	if n, _ := br.Read(one[:]); n != 0 {
		return nil, false // longer than its header says
	}
	return body, true
}

// storedObject reads an object of the given kind loose or stored whole in
// a pack, in process; false sends the caller to go-git (a delta) or to git.
// Only for a repository go-git reads: one in another object format or with
// an extension is never read here.
func (r *Repo) storedObject(h, kind string) ([]byte, bool) {
	if r.goGit() == nil {
		return nil, false
	}
	if b, ok := r.looseObject(h, kind); ok {
		return b, true
	}
	return r.packedObject(h, kind)
}
