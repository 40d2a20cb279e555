package audit

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"path/filepath"
	"slices"
	"strings"

	"github.com/git-adr/git-adr/adr"
	"github.com/git-adr/git-adr/gitops"
	"github.com/git-adr/git-adr/internal/atomicfile"
	"github.com/git-adr/git-adr/internal/cachefile"
)

// The scope-churn counts change only with HEAD and with the records that
// declare a scope, so they are kept in $GIT_DIR/adr/cache/churn.bin under
// a key of both: `check` and every `context` answer at one HEAD count
// once. The file is derived data (a header, JSON, a CRC-32C): damaged,
// foreign or stale, it is counted again and replaced.
const (
	// ChurnCacheFile is the cache file's name in $GIT_DIR/adr/cache.
	ChurnCacheFile  = "churn.bin"
	churnCacheMagic = "git-adr churn cache 1\n"
)

type churnCache struct {
	Key    string       `json:"key"`
	Counts []churnEntry `json:"counts"`
}

type churnEntry struct {
	Path  string `json:"path"`
	Count int    `json:"count"`
	Added string `json:"added"`
}

// churnKey names HEAD and the scoped records (path, blob, patterns) the
// counts are for.
func churnKey(head string, order []*adr.Record, globs map[*adr.Record][]string) string {
	recs := slices.Clone(order)
	slices.SortFunc(recs, func(a, b *adr.Record) int { return strings.Compare(a.Path, b.Path) })
	h := sha256.New()
	h.Write([]byte(head + "\x00"))
	for _, r := range recs {
		h.Write([]byte(r.Path + "\x00" + r.Blob() + "\x00" + strings.Join(globs[r], "\x01") + "\x00"))
	}
	return hex.EncodeToString(h.Sum(nil))
}

func decodeChurnCache(data []byte) (*churnCache, bool) {
	body, ok := cachefile.Open(data, []byte(churnCacheMagic))
	if !ok {
		return nil, false
	}
	var c churnCache
	if json.Unmarshal(body, &c) != nil {
		return nil, false
	}
	return &c, true
}

// CachedChurn is churnOf from the cache when it holds this HEAD's counts
// for these records, else counted and saved (a failed save costs a count
// next time, nothing else).
func CachedChurn(r *gitops.Repo, l *adr.Log, order []*adr.Record, globs map[*adr.Record][]string) (map[*adr.Record]int, map[string]string) {
	if len(order) == 0 {
		return nil, nil
	}
	head, err := r.Head()
	if err != nil {
		return nil, nil // no commit yet
	}
	key := churnKey(head, order, globs)
	dir := filepath.Join(r.AdrDir(), "cache")
	file := filepath.Join(dir, ChurnCacheFile)
	byPath := map[string]*adr.Record{}
	for _, rec := range order {
		byPath[rec.Path] = rec
	}
	if data, err := cachefile.ReadFile(file); err == nil {
		if c, ok := decodeChurnCache(data); ok && c.Key == key {
			counts, added := map[*adr.Record]int{}, map[string]string{}
			for _, e := range c.Counts {
				if rec := byPath[e.Path]; rec != nil {
					counts[rec] = e.Count
					added[e.Path] = e.Added
				}
			}
			return counts, added
		}
	}
	counts, added := churnOf(r, l, order, globs, "")
	c := churnCache{Key: key, Counts: []churnEntry{}}
	for _, rec := range order {
		if n, ok := counts[rec]; ok {
			c.Counts = append(c.Counts, churnEntry{Path: rec.Path, Count: n, Added: added[rec.Path]})
		}
	}
	if body, err := json.Marshal(c); err == nil && atomicfile.MkdirCache(dir, 0o755) == nil {
		_ = atomicfile.Write(file, cachefile.Seal(append([]byte(churnCacheMagic), body...)), 0o600)
	}
	return counts, added
}

// ChurnCacheValid reports whether data is a churn cache file this build
// reads (whatever HEAD its key names).
func ChurnCacheValid(data []byte) bool {
	_, ok := decodeChurnCache(data)
	return ok
}
