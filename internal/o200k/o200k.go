// Package o200k counts the o200k_base tokens of a text, as
// github.com/tiktoken-go/tokenizer's Codec.Count does, without building
// its vocabulary: a Go map of 200,000 tokens that cost a process 8 to 13
// MiB of peak memory and some 30 ms of a core the first time a text was
// counted. The vocabulary is embedded here (o200k.bin, every token's
// bytes in rank order, written by `go run ./gen` from that library's) and
// found through one table of ranks, made once: 1.8 MB that the garbage
// collector never scans.
package o200k

import (
	_ "embed"
	"errors"
	"hash/maphash"
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

// vocab is the embedded vocabulary, ready to look ranks up in.
type vocab struct {
	// off[r] is where token r's bytes start in data (its length byte
	// just before); off has one more entry, the end.
	off []uint32
	// slots is an open-addressing table of ranks+1 (0: empty), by hash.
	slots []uint32
	seed  maphash.Seed
	split *regexp2.Regexp
}

var (
	once   sync.Once
	loaded *vocab
	err    error
)

func load() {
	loaded, err = parse(data)
}

func parse(data string) (*vocab, error) {
	const head = "o200k_base v1\n"
	if !strings.HasPrefix(data, head) {
		return nil, errCorrupt
	}
	data = data[len(head):]
	nl := strings.IndexByte(data, '\n')
	n, perr := strconv.Atoi(data[:max(nl, 0)])
	if nl < 0 || perr != nil || n <= 0 || n > len(data) {
		return nil, errCorrupt
	}
	start := uint32(len(head) + nl + 1)
	body := data[nl+1:]
	v := &vocab{off: make([]uint32, 0, n+1), seed: maphash.MakeSeed()}
	// A power of two at least 5/4 of the tokens: 2^18 slots, 1 MiB, for
	// o200k_base's 199,998 (a linear probe finds a token in about three).
	size := 1
	for size < n+n/4 {
		size *= 2
	}
	v.slots = make([]uint32, size)
	at := 0
	for r := 0; r < n; r++ {
		if at >= len(body) {
			return nil, errCorrupt
		}
		l := int(body[at])
		if l == 0 || at+1+l > len(body) {
			return nil, errCorrupt
		}
		v.off = append(v.off, start+uint32(at+1))
		v.put(body[at+1:at+1+l], uint32(r))
		at += 1 + l
	}
	if at != len(body) {
		return nil, errCorrupt
	}
	v.off = append(v.off, start+uint32(at+1))
	// MustCompile, not Compile: only it takes the registered matcher, the
	// library's, whose pieces are what the library counts.
	v.split = regexp2.MustCompile(split, regexp2.None)
	return v, nil
}

var errCorrupt = errors.New("o200k: the embedded vocabulary does not decode")

// token is the bytes of token r.
func (v *vocab) token(r uint32) string {
	return data[v.off[r] : v.off[r+1]-1]
}

// put enters token t as rank r; a token entered twice keeps its first
// (lowest) rank.
func (v *vocab) put(t string, r uint32) {
	mask := uint64(len(v.slots) - 1)
	for i := maphash.String(v.seed, t) & mask; ; i = (i + 1) & mask {
		s := v.slots[i]
		if s == 0 {
			v.slots[i] = r + 1
			return
		}
		if v.token(s-1) == t {
			return
		}
	}
}

// rank is t's rank, noRank when t is no token.
func (v *vocab) rank(t string) uint32 {
	mask := uint64(len(v.slots) - 1)
	for i := maphash.String(v.seed, t) & mask; ; i = (i + 1) & mask {
		s := v.slots[i]
		if s == 0 {
			return noRank
		}
		if v.token(s-1) == t {
			return s - 1
		}
	}
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
