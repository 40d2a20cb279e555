package evidence

import (
	"crypto/sha256"
	"encoding/binary"
	"path/filepath"
	"runtime/debug"
	"sync"

	"github.com/git-adr/git-adr/internal/atomicfile"
	"github.com/git-adr/git-adr/internal/cachefile"
)

// Every answer states its o200k_base token count: reading the vocabulary
// (internal/o200k: 7 ms and 1.8 MB) and counting a text cost a warm
// answer a tenth of its time. The counts of the texts this log's answers
// rendered are kept in $GIT_DIR/adr/cache/tokens.bin, keyed by the
// SHA-256 of the whole text: a count served from it is the count the
// tokenizer gave for those very bytes, and the vocabulary is read only
// for a text it does not know. The file names the tokenizer's module version (a new version may
// count differently); like the other caches it is derived data, ignored
// when damaged or foreign and replaced atomically.

const tokenCacheFormat = "git-adr token counts v1\n"

// maxTokenCounts bounds the file: the latest texts are kept (an answer
// renders up to four texts on its way to its final figures).
const maxTokenCounts = 2048

type tokenCache struct {
	path    string
	counts  map[[32]byte]int
	order   [][32]byte // newest first
	added   bool
	loading sync.Once
	mu      sync.Mutex // a service may answer concurrently (MCP)
}

// tokenizerVersion names the tokenizer the counts come from.
var tokenizerVersion = sync.OnceValue(func() string {
	if bi, ok := debug.ReadBuildInfo(); ok {
		for _, m := range bi.Deps {
			if m.Path == "github.com/tiktoken-go/tokenizer" {
				if m.Replace != nil {
					m = m.Replace
				}
				return m.Path + "@" + m.Version + " " + m.Sum
			}
		}
	}
	return "unknown"
})

func (c *tokenCache) header() []byte {
	b := []byte(tokenCacheFormat)
	b = binary.AppendUvarint(b, uint64(len(tokenizerVersion())))
	return append(b, tokenizerVersion()...)
}

func (c *tokenCache) load() {
	c.counts = map[[32]byte]int{}
	if c.path == "" {
		return
	}
	data, err := cachefile.ReadFile(c.path)
	if err != nil {
		return
	}
	order, counts, ok := decodeTokenCounts(data, c.header())
	if ok {
		c.order, c.counts = order, counts
	}
}

func decodeTokenCounts(data, header []byte) ([][32]byte, map[[32]byte]int, bool) {
	b, ok := cachefile.Open(data, header)
	if !ok {
		return nil, nil, false
	}
	n, k := binary.Uvarint(b)
	if k <= 0 || n > uint64(len(b))/33 {
		return nil, nil, false
	}
	b = b[k:]
	order := make([][32]byte, 0, n)
	counts := make(map[[32]byte]int, n)
	for i := uint64(0); i < n; i++ {
		if len(b) < 33 {
			return nil, nil, false
		}
		var key [32]byte
		copy(key[:], b)
		v, k := binary.Uvarint(b[32:])
		if k <= 0 || v > 1<<31 {
			return nil, nil, false
		}
		b = b[32+k:]
		if _, dup := counts[key]; !dup {
			order = append(order, key)
		}
		counts[key] = int(v)
	}
	if len(b) != 0 {
		return nil, nil, false
	}
	return order, counts, true
}

// count is the o200k_base token count of text: from the cache, else from
// the tokenizer (-1 when it is unavailable; such a count is not kept).
func (c *tokenCache) count(text []byte) int {
	c.loading.Do(c.load)
	c.mu.Lock()
	defer c.mu.Unlock()
	key := sha256.Sum256(text)
	if n, ok := c.counts[key]; ok {
		return n
	}
	n := tokensO200k(text)
	if n >= 0 {
		c.counts[key] = n
		c.order = append([][32]byte{key}, c.order...)
		c.added = true
	}
	return n
}

// save writes the newest counts when any was added.
func (c *tokenCache) save() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.path == "" || !c.added {
		return nil
	}
	order := c.order[:min(len(c.order), maxTokenCounts)]
	b := c.header()
	b = binary.AppendUvarint(b, uint64(len(order)))
	for _, key := range order {
		b = append(b, key[:]...)
		b = binary.AppendUvarint(b, uint64(c.counts[key]))
	}
	if err := atomicfile.MkdirCache(filepath.Dir(c.path), 0o755); err != nil {
		return err
	}
	if err := atomicfile.Write(c.path, cachefile.Seal(b), 0o600); err != nil {
		return err
	}
	c.added = false
	return nil
}

// tokenCounts is the service's token count cache, made on first use.
func (s *Service) tokenCounts() *tokenCache {
	s.tokensOnce.Do(func() {
		s.tokens = &tokenCache{}
		if s.CacheDir != "" {
			s.tokens.path = filepath.Join(s.CacheDir, "tokens.bin")
		}
	})
	return s.tokens
}
