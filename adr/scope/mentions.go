package scope

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"path/filepath"
	"sort"
	"strings"

	"github.com/git-adr/git-adr/adr"
	"github.com/git-adr/git-adr/internal/atomicfile"
	"github.com/git-adr/git-adr/internal/cachefile"
)

// Finding the records that name a path means searching every record's
// text, which at 10,000 records is most of a `context --diff`. A record
// names p only where p stands inside a run of bytes that holds no space,
// quote, bracket or separator (delimiter); when p holds none itself and
// has a slash, such a run is a "path token" of the record: a word with a
// slash in it. Mentions keeps every live record's path tokens, so that
// only the records with a token containing p are searched; it is stored
// in $GIT_DIR/adr/cache/mentions.bin under a key over the records' places
// and blob hashes, used only when the key is exactly the log's, and
// rebuilt otherwise (missing, damaged, foreign: the checksum and key
// decide, never trusted in part).

// mentionsFormat changes with the layout of mentions.bin or the token rule.
const mentionsFormat = "git-adr mentions v1\n"

// Mentions is the path tokens of a log's live records, each with the
// records (positions among the live records, in log order) that hold it.
type Mentions struct {
	tokens []string
	recs   [][]uint32
	live   []*adr.Record
}

// delimiter reports whether b ends a path token.
func delimiter(b byte) bool {
	return b <= ' ' || strings.IndexByte("\"'`()<>[]{},;|", b) >= 0
}

// filterable reports whether a record names s only inside a path token:
// s has a slash and no delimiter.
func filterable(s string) bool {
	if !strings.Contains(s, "/") {
		return false
	}
	for i := 0; i < len(s); i++ {
		if delimiter(s[i]) {
			return false
		}
	}
	return true
}

// pathTokens calls f with each path token of src.
func pathTokens(src []byte, f func(tok []byte)) {
	for i := 0; i < len(src); {
		for i < len(src) && delimiter(src[i]) {
			i++
		}
		j := i
		for j < len(src) && !delimiter(src[j]) {
			j++
		}
		if j > i && bytes.IndexByte(src[i:j], '/') >= 0 {
			f(src[i:j])
		}
		i = j
	}
}

func liveRecords(l *adr.Log) []*adr.Record {
	var live []*adr.Record
	for _, r := range l.Records {
		if !r.Archived {
			live = append(live, r)
		}
	}
	return live
}

// BuildMentions reads the text of every live record of l.
func BuildMentions(l *adr.Log) *Mentions {
	m := &Mentions{live: liveRecords(l)}
	at := map[string]int{}
	for i, r := range m.live {
		pathTokens(r.ContentIn(r.PeekText()), func(tok []byte) { // read, not kept
			k, ok := at[string(tok)]
			if !ok {
				k = len(m.tokens)
				at[string(tok)] = k
				m.tokens = append(m.tokens, string(tok))
				m.recs = append(m.recs, nil)
			}
			if rs := m.recs[k]; len(rs) == 0 || rs[len(rs)-1] != uint32(i) {
				m.recs[k] = append(rs, uint32(i))
			}
		})
	}
	return m
}

// candidates are the live records whose text may name any of strs, in
// log order; ok is false when one of them cannot be filtered (every
// record may name it).
func (m *Mentions) candidates(strs ...string) (recs []*adr.Record, ok bool) {
	for _, s := range strs {
		if !filterable(s) {
			return nil, false
		}
	}
	var at []uint32
	for k, tok := range m.tokens {
		for _, s := range strs {
			if strings.Contains(tok, s) {
				at = append(at, m.recs[k]...)
				break
			}
		}
	}
	sort.Slice(at, func(i, j int) bool { return at[i] < at[j] })
	recs = []*adr.Record{}
	for i, k := range at {
		if i == 0 || k != at[i-1] {
			recs = append(recs, m.live[k])
		}
	}
	return recs, true
}

// mentionsKey names the live records of l: their places and blob hashes,
// in log order.
func mentionsKey(live []*adr.Record) [32]byte {
	h := sha256.New()
	h.Write([]byte(mentionsFormat))
	for _, r := range live {
		h.Write([]byte(r.Locus()))
		h.Write([]byte{0})
		h.Write([]byte(r.Blob()))
		h.Write([]byte{0})
	}
	var k [32]byte
	copy(k[:], h.Sum(nil))
	return k
}

var errMentions = errors.New("malformed mentions file")

// LoadMentions returns the mentions of l's live records from dir's
// mentions.bin when it is exactly theirs, else builds them and replaces
// the file (atomically; a file that cannot be written only costs time).
// An empty dir: built, not stored.
func LoadMentions(dir string, l *adr.Log) *Mentions {
	live := liveRecords(l)
	if dir == "" {
		return BuildMentions(l)
	}
	key := mentionsKey(live)
	file := filepath.Join(dir, "mentions.bin")
	if data, err := cachefile.ReadFile(file); err == nil {
		if m, err := decodeMentions(data, key, live); err == nil {
			return m
		}
	}
	m := BuildMentions(l)
	if atomicfile.MkdirCache(dir, 0o755) == nil {
		_ = atomicfile.Write(file, encodeMentions(key, m), 0o600)
	}
	return m
}

// Layout: format line, key, token count, then per token its length and
// bytes, its record count and the records (delta uvarints); the CRC-32C
// of all that.
func encodeMentions(key [32]byte, m *Mentions) []byte {
	b := append([]byte(mentionsFormat), key[:]...)
	b = binary.AppendUvarint(b, uint64(len(m.live)))
	b = binary.AppendUvarint(b, uint64(len(m.tokens)))
	for k, tok := range m.tokens {
		b = binary.AppendUvarint(b, uint64(len(tok)))
		b = append(b, tok...)
		b = binary.AppendUvarint(b, uint64(len(m.recs[k])))
		prev := uint32(0)
		for _, r := range m.recs[k] {
			b = binary.AppendUvarint(b, uint64(r-prev))
			prev = r
		}
	}
	return cachefile.Seal(b)
}

func decodeMentions(data []byte, key [32]byte, live []*adr.Record) (*Mentions, error) {
	b, ok := cachefile.Open(data, append([]byte(mentionsFormat), key[:]...))
	if !ok {
		return nil, errMentions
	}
	get := func() (uint64, bool) {
		v, n := binary.Uvarint(b)
		if n <= 0 {
			return 0, false
		}
		b = b[n:]
		return v, true
	}
	n, ok := get()
	if !ok || n != uint64(len(live)) {
		return nil, errMentions
	}
	nt, ok := get()
	if !ok || nt > uint64(len(b)) {
		return nil, errMentions
	}
	m := &Mentions{live: live, tokens: make([]string, 0, nt), recs: make([][]uint32, 0, nt)}
	for k := uint64(0); k < nt; k++ {
		l, ok := get()
		if !ok || l > uint64(len(b)) {
			return nil, errMentions
		}
		m.tokens = append(m.tokens, string(b[:l]))
		b = b[l:]
		nr, ok := get()
		if !ok || nr > uint64(len(b)) {
			return nil, errMentions
		}
		rs := make([]uint32, 0, nr)
		at := uint64(0)
		for j := uint64(0); j < nr; j++ {
			d, ok := get()
			if at += d; !ok || at >= n || j > 0 && d == 0 {
				return nil, errMentions
			}
			rs = append(rs, uint32(at))
		}
		m.recs = append(m.recs, rs)
	}
	if len(b) != 0 {
		return nil, errMentions
	}
	return m, nil
}
