// Package o200k counts the o200k_base tokens of a text, as
// github.com/tiktoken-go/tokenizer's Codec.Count does, without building
// its vocabulary: a Go map of 200,000 tokens that cost a process 8 to 13
// MiB of peak memory and some 30 ms of a core the first time a text was
// counted. The vocabulary is embedded here (o200k.bin, written by
// `go run ./gen` from that library's with [Encode]) with its table of
// ranks made in advance: a count reads it where it lies, in the binary's
// read-only data, and allocates no table.
package o200k

import (
	_ "embed"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"sync"

	"github.com/dlclark/regexp2/v2"
	// The library's generated matcher for the split pattern below
	// (registered with regexp2 by pattern); its vocabulary is never built.
	_ "github.com/tiktoken-go/tokenizer/codec"
)

//go:embed o200k.bin
var data string

// split is the o200k_base pre-tokenizer: a text is counted piece by piece.
const split = `[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?|[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n/]*|\s*[\r\n]+|\s+(?!\S)|\s+`

// The layout of o200k.bin (integers are 32 bits, little-endian):
//
//	"o200k_base v2\n", then "N S\n": N tokens, S slots (a power of two);
//	N+1 offsets: where each token's bytes start among the tokens' bytes,
//	then where they end;
//	S slots: an open-addressing table by [hash], probed linearly from
//	the hash's low bits, each slot 0 (empty) or a token's rank+1 in its
//	low rankBits bits and the top tagBits bits of the token's hash above
//	them (a probe compares a token's bytes only when those match);
//	the tokens' bytes, in rank order.
const head = "o200k_base v2\n"

// A slot's two parts.
const (
	rankBits = 18
	rankMask = 1<<rankBits - 1
	tagBits  = 32 - rankBits
)

// vocab is a vocabulary in that layout, checked, ready to look ranks up
// in.
type vocab struct {
	data                string
	n, mask             uint32
	offs, slots, tokens int // where each part starts in data
	split               *regexp2.Regexp
}

var (
	once   sync.Once
	loaded *vocab
	err    error
)

func load() {
	loaded, err = parse(data)
}

// parse checks a vocabulary in o200k.bin's layout: a damaged one is
// refused, not trusted in part (an offset out of its bounds, a rank past
// the last, a table without an empty slot, which a look-up of a piece
// that is no token would probe forever).
func parse(data string) (*vocab, error) {
	if !strings.HasPrefix(data, head) {
		return nil, errCorrupt
	}
	nl := strings.IndexByte(data[len(head):], '\n')
	if nl < 0 {
		return nil, errCorrupt
	}
	ns, ss, ok := strings.Cut(data[len(head):len(head)+nl], " ")
	n, nerr := strconv.ParseUint(ns, 10, 32)
	size, serr := strconv.ParseUint(ss, 10, 32)
	if !ok || nerr != nil || serr != nil || n == 0 || n >= rankMask || size <= n || size&(size-1) != 0 {
		return nil, errCorrupt
	}
	v := &vocab{data: data, n: uint32(n), mask: uint32(size - 1)}
	v.offs = len(head) + nl + 1
	v.slots = v.offs + 4*int(n+1)
	v.tokens = v.slots + 4*int(size)
	if v.tokens > len(data) || v.u32(v.offs) != 0 || v.tokens+int(v.u32(v.offs+4*int(n))) != len(data) {
		return nil, errCorrupt
	}
	for r := range uint32(n) {
		if v.u32(v.offs+4*int(r)) >= v.u32(v.offs+4*int(r+1)) {
			return nil, errCorrupt // empty, or out of order
		}
	}
	empty := false
	for i := range int(size) {
		s := v.u32(v.slots + 4*i)
		if s&rankMask > uint32(n) || s != 0 && s&rankMask == 0 {
			return nil, errCorrupt
		}
		empty = empty || s == 0
	}
	if !empty {
		return nil, errCorrupt
	}
	// MustCompile, not Compile: only it takes the registered matcher, the
	// library's, whose pieces are what the library counts.
	v.split = regexp2.MustCompile(split, regexp2.None)
	return v, nil
}

var errCorrupt = errors.New("o200k: the embedded vocabulary does not decode")

// u32 is the integer at data[at:at+4].
func (v *vocab) u32(at int) uint32 {
	d := v.data[at : at+4]
	return uint32(d[0]) | uint32(d[1])<<8 | uint32(d[2])<<16 | uint32(d[3])<<24
}

// token is the bytes of token r.
func (v *vocab) token(r uint32) string {
	return v.data[v.tokens+int(v.u32(v.offs+4*int(r))) : v.tokens+int(v.u32(v.offs+4*int(r+1)))]
}

// rank is t's rank, noRank when t is no token.
func (v *vocab) rank(t string) uint32 {
	h := hash(t)
	tag := slotTag(h)
	for i := uint32(h); ; i++ {
		s := v.u32(v.slots + 4*int(i&v.mask))
		if s == 0 {
			return noRank
		}
		if s&^rankMask == tag && v.token(s&rankMask-1) == t {
			return s&rankMask - 1
		}
	}
}

// slotTag is the part of a slot that h fills.
func slotTag(h uint64) uint32 { return uint32(h>>(64-tagBits)) << rankBits }

// hash is a hash of s made eight bytes at a time, its bits mixed
// (splitmix64's finaliser) so that the low ones a table of slots uses and
// the top ones of its tag depend on every byte. It is fixed, not seeded:
// the table is made in advance. The vocabulary is fixed too, so no input
// makes a look-up probe more slots than the table's longest run of taken
// ones, and a probe compares a token's bytes only when its tag matches
// (TestProbesAreShort).
func hash(s string) uint64 {
	h := uint64(len(s)) * 0x9e3779b97f4a7c15
	for ; len(s) >= 8; s = s[8:] {
		h = (h ^ (uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
			uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56)) * 0xbf58476d1ce4e5b9
		h ^= h >> 29
	}
	var tail uint64
	for i := 0; i < len(s); i++ {
		tail |= uint64(s[i]) << (8 * i)
	}
	h = (h ^ tail) * 0x94d049bb133111eb
	h ^= h >> 30
	h *= 0xbf58476d1ce4e5b9
	h ^= h >> 27
	h *= 0x94d049bb133111eb
	h ^= h >> 31
	return h
}

// Encode lays tokens (in rank order, each 1 to 255 bytes, fewer than
// 2^18-1 of them) out as o200k.bin holds them, with their table of ranks;
// a token listed twice keeps its first rank, as the library's map does.
func Encode(tokens []string) (string, error) {
	n := len(tokens)
	if n == 0 || n >= rankMask {
		return "", fmt.Errorf("%d tokens: a table holds 1 to %d", n, rankMask-1)
	}
	// A power of two at least 5/4 of the tokens: 2^18 slots, 1 MiB, for
	// o200k_base's 199,998 (a linear probe finds a token in about three).
	size := 1
	for size < n+n/4 || size <= n { // and one slot empty at least
		size *= 2
	}
	slots := make([]uint32, size)
	var body strings.Builder
	offs := make([]uint32, 0, n+1)
	for r, t := range tokens {
		if len(t) == 0 || len(t) > 255 {
			return "", fmt.Errorf("token %d is %d bytes long", r, len(t))
		}
		offs = append(offs, uint32(body.Len()))
		body.WriteString(t)
	}
	offs = append(offs, uint32(body.Len()))
	all := body.String()
	for r, t := range tokens {
		h := hash(t)
		for i := uint32(h); ; i++ {
			s := &slots[i&uint32(size-1)]
			if *s == 0 {
				*s = uint32(r) + 1 | slotTag(h)
				break
			}
			if k := *s & rankMask; all[offs[k-1]:offs[k]] == t {
				break
			}
		}
	}
	b := []byte(head + strconv.Itoa(n) + " " + strconv.Itoa(size) + "\n")
	for _, o := range offs {
		b = binary.LittleEndian.AppendUint32(b, o)
	}
	for _, s := range slots {
		b = binary.LittleEndian.AppendUint32(b, s)
	}
	return string(append(b, all...)), nil
}

const noRank = math.MaxUint32

// Prepare reads the vocabulary in the background, for a caller that will
// count once it has done other work.
func Prepare() { go once.Do(load) }

// Count is the number of o200k_base tokens of s: Codec.Count of
// github.com/tiktoken-go/tokenizer's o200k_base codec in its default
// error mode (bytes that are not UTF-8 are counted as the split pattern
// reads them). The vocabulary is read on the first call.
func Count(s string) (int, error) {
	once.Do(load)
	if err != nil {
		return 0, err
	}
	n := 0
	m, merr := loaded.split.FindStringMatch(s)
	for ; merr == nil && m != nil; m, merr = loaded.split.FindNextMatch(m) {
		piece := m.String()
		if loaded.rank(piece) != noRank {
			n++
			continue
		}
		n += loaded.merged(piece)
	}
	if merr != nil {
		return 0, merr
	}
	return n, nil
}

// merged is the number of tokens byte-pair encoding makes of piece: the
// adjacent parts whose joined bytes have the lowest rank merge first (the
// leftmost of equal ranks), until no two adjacent parts join into a
// token.
func (v *vocab) merged(piece string) int {
	n := int32(len(piece))
	// A list of part boundaries; rank[i] is that of the part starting at
	// i joined with the next one.
	next := make([]int32, n+1)
	prev := make([]int32, n+1)
	rank := make([]uint32, n+1)
	for i := range next {
		next[i], prev[i], rank[i] = int32(i)+1, int32(i)-1, noRank
	}
	next[n] = -1
	rankOf := func(i int32) uint32 {
		j := next[i]
		if j < 0 || next[j] < 0 {
			return noRank
		}
		return v.rank(piece[i:next[j]])
	}
	var h mergeHeap
	for i := int32(0); i+2 <= n; i++ {
		if r := rankOf(i); r != noRank {
			rank[i] = r
			h = append(h, candidate{r, i})
		}
	}
	h.init()
	parts := int(n)
	for len(h) > 0 {
		top := h.pop()
		i := top.at
		if rank[i] != top.rank {
			continue // stale: the part changed since
		}
		j := next[i]
		k := next[j]
		rank[j] = noRank
		next[i] = k
		if k >= 0 {
			prev[k] = i
		}
		parts--
		for _, b := range [2]int32{i, prev[i]} {
			if b < 0 {
				continue
			}
			rank[b] = rankOf(b)
			if rank[b] != noRank {
				h.push(candidate{rank[b], b})
			}
		}
	}
	return parts
}

// candidate is a pair of parts that join into a token of rank rank, the
// first part starting at at.
type candidate struct {
	rank uint32
	at   int32
}

// mergeHeap is a min-heap of candidates by rank, then by place.
type mergeHeap []candidate

func (h mergeHeap) less(a, b int) bool {
	if h[a].rank != h[b].rank {
		return h[a].rank < h[b].rank
	}
	return h[a].at < h[b].at
}

func (h mergeHeap) init() {
	for i := len(h)/2 - 1; i >= 0; i-- {
		h.down(i)
	}
}

func (h *mergeHeap) push(c candidate) {
	*h = append(*h, c)
	for i := len(*h) - 1; i > 0; {
		p := (i - 1) / 2
		if !h.less(i, p) {
			break
		}
		(*h)[i], (*h)[p] = (*h)[p], (*h)[i]
		i = p
	}
}

func (h *mergeHeap) pop() candidate {
	old := *h
	top := old[0]
	old[0] = old[len(old)-1]
	*h = old[:len(old)-1]
	h.down(0)
	return top
}

func (h mergeHeap) down(i int) {
	for {
		c := 2*i + 1
		if c >= len(h) {
			return
		}
		if r := c + 1; r < len(h) && h.less(r, c) {
			c = r
		}
		if !h.less(c, i) {
			return
		}
		h[i], h[c] = h[c], h[i]
		i = c
	}
}
