// Package cachefile frames git-adr's derived-data files (the parse cache,
// the term cache, the task index, the token counts and the path tokens):
// a header naming the format, a body, and the CRC-32C of both, so that a
// damaged, truncated or foreign file is recognised and ignored, never
// trusted. [ReadFile] reads one so that nothing put in its place (a named
// pipe, a huge file) hangs or exhausts a command.
package cachefile

import (
	"bytes"
	"encoding/binary"
	"hash/crc32"
	"io"
	"strings"
	"sync"
	"unsafe"

	"github.com/git-adr/git-adr/internal/confine"
	"github.com/git-adr/git-adr/internal/offheap"
)

// table is built on first use: its tables cost start-up time every
// command would pay.
var table = sync.OnceValue(func() *crc32.Table { return crc32.MakeTable(crc32.Castagnoli) })

// Seal appends the CRC-32C of b to b, little-endian. b starts with the
// file's header.
func Seal(b []byte) []byte {
	return binary.LittleEndian.AppendUint32(b, crc32.Checksum(b, table()))
}

// Sealer writes a file through to w and seals it as Seal does: the
// CRC-32C of everything written, appended by Close.
type Sealer struct {
	w   io.Writer
	crc uint32
}

// NewSealer starts a sealed file on w.
func NewSealer(w io.Writer) *Sealer { return &Sealer{w: w} }

// Write writes p through, counting it in the checksum.
func (s *Sealer) Write(p []byte) (int, error) {
	s.crc = crc32.Update(s.crc, table(), p)
	return s.w.Write(p)
}

// Close appends the checksum; the Sealer is not written to afterwards.
func (s *Sealer) Close() error {
	_, err := s.w.Write(binary.LittleEndian.AppendUint32(nil, s.crc))
	return err
}

// Open returns the body of a sealed file: what follows header, when data
// starts with header and ends with the CRC-32C of all before it.
func Open(data, header []byte) ([]byte, bool) {
	if len(data) < len(header)+4 || !bytes.HasPrefix(data, header) {
		return nil, false
	}
	sealed := data[:len(data)-4]
	if crc32.Checksum(sealed, table()) != binary.LittleEndian.Uint32(data[len(sealed):]) {
		return nil, false
	}
	return sealed[len(header):], true
}

// OpenString is Open for a file read into a string, without copying it.
func OpenString(data, header string) (string, bool) {
	if len(data) < len(header)+4 || !strings.HasPrefix(data, header) {
		return "", false
	}
	sealed := data[:len(data)-4]
	if crc32.Checksum(unsafe.Slice(unsafe.StringData(sealed), len(sealed)), table()) != binary.LittleEndian.Uint32([]byte(data[len(sealed):])) {
		return "", false
	}
	return sealed[len(header):], true
}

// ReadFile reads the cache file at p whole into the heap: opened as
// confine.OpenRegularFile opens it (never blocking on a named pipe put in
// its place), and read in one read of its size, which must be at most
// offheap.MaxFile.
func ReadFile(p string) ([]byte, error) {
	f, fi, err := confine.OpenRegularFile(p)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, _, err := offheap.Reader{}.ReadFull(f, fi.Size())
	return data, err
}
