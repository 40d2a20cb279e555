package gitops

import (
	"bytes"
	"encoding/hex"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
)

// stagedInProcess is `git diff --cached --raw -M` computed in process,
// with the index entries it compared: HEAD's tree is walked only where the
// index's cache-tree does not already say a folder is unchanged, so a
// one-record change reads a handful of tree objects. It reports false, and
// the caller asks git, whenever git's answer could differ: a change that
// both adds and deletes files (git may pair them as a rename), a
// submodule, a conflict, a `git add -N` entry, no commit yet, replaced
// objects (refs/replace), an index it does not read completely, or a
// configuration that could set diff.orderFile.
func (r *Repo) stagedInProcess() ([]rawChange, []entry, bool) {
	g := r.goGit()
	if g == nil || r.Bare || !plainDiffConfig(r) {
		return nil, nil, false
	}
	if _, err := os.Stat(filepath.Join(r.CommonDir, "refs", "replace")); err == nil {
		return nil, nil, false
	}
	if packed, err := os.ReadFile(filepath.Join(r.CommonDir, "packed-refs")); err == nil && bytes.Contains(packed, []byte(" refs/replace/")) {
		return nil, nil, false
	}
	data, err := os.ReadFile(r.indexPath())
	if err != nil {
		return nil, nil, false
	}
	idx, ok := decodeIndexFile(data)
	if !ok || idx.conflicted {
		return nil, nil, false
	}
	for _, e := range idx.entries {
		if e.intentToAdd {
			return nil, nil, false
		}
	}
	head, ok := r.worktreeHead()
	if !ok {
		return nil, nil, false
	}
	headTree, err := r.commitTree(head)
	if err != nil {
		return nil, nil, false
	}
	valid, ok := parseCacheTree(idx.tree)
	if !ok {
		return nil, nil, false
	}
	if valid[""] == headTree {
		return nil, idx.entries, true // the index is HEAD's tree
	}
	// The index is sorted by path: HEAD's files are found in it by
	// binary search, folder by folder, less the folders whose tree the
	// index still has.
	entries := idx.entries
	for k := 1; k < len(entries); k++ {
		if entries[k-1].name >= entries[k].name {
			return nil, nil, false // not sorted: git would refuse it too
		}
	}
	seen := make([]bool, len(entries))
	same := map[string]bool{}
	var changes []rawChange
	added, deleted := false, false
	var walk func(h string, dir string) bool
	walk = func(h string, dir string) bool {
		es, ok := r.treeEntries(h)
		if !ok {
			return false
		}
		for _, e := range es {
			if e.mode == filemode.Dir {
				p := joinPath(dir, e.name)
				if valid[p] == e.hash {
					same[p] = true
					continue
				}
				if !walk(e.hash, p) {
					return false
				}
				continue
			}
			k := sort.Search(len(entries), func(k int) bool { return cmpJoined(entries[k].name, dir, e.name) >= 0 })
			if k == len(entries) || cmpJoined(entries[k].name, dir, e.name) != 0 {
				if e.mode == filemode.Submodule {
					return false
				}
				changes = append(changes, rawChange{DiffEntry: DiffEntry{Status: 'D', Path: joinPath(dir, e.name)}, oldMode: e.mode, oldHash: e.hash})
				deleted = true
				continue
			}
			seen[k] = true
			now := entries[k]
			if now.hash == e.hash && now.mode == e.mode {
				continue
			}
			if e.mode == filemode.Submodule || now.mode == filemode.Submodule {
				return false
			}
			status := byte('M')
			if e.mode&0o170000 != now.mode&0o170000 {
				status = 'T'
			}
			changes = append(changes, rawChange{DiffEntry: DiffEntry{Status: status, Path: now.name}, oldMode: e.mode, oldHash: e.hash})
		}
		return true
	}
	if !walk(headTree, "") {
		return nil, nil, false
	}
	for k, e := range entries {
		if seen[k] || inSameFolder(same, e.name) {
			continue
		}
		if e.mode == filemode.Submodule {
			return nil, nil, false
		}
		changes = append(changes, rawChange{DiffEntry: DiffEntry{Status: 'A', Path: e.name}, oldHash: ZeroHash})
		added = true
	}
	if added && deleted {
		return nil, nil, false // git's rename detection decides
	}
	sort.Slice(changes, func(i, j int) bool { return changes[i].Path < changes[j].Path })
	return changes, idx.entries, true
}

// treeEntries lists a tree object: read loose or from a pack directly
// (the object's name is not recomputed, as git does not when it reads),
// otherwise through go-git. Modes are git's canonical ones.
func (r *Repo) treeEntries(h string) ([]entry, bool) {
	if es, ok := r.storedTree(h); ok {
		return es, true
	}
	g := r.goGit()
	if g == nil || len(h) != 40 {
		return nil, false
	}
	body, err := g.object(plumbing.TreeObject, plumbing.NewHash(h))
	if err != nil {
		return nil, false
	}
	return parseTree(string(body))
}

// storedTree reads a tree object loose or stored whole in a pack.
func (r *Repo) storedTree(h string) ([]entry, bool) {
	raw, ok := r.storedObject(h, "tree")
	if !ok {
		return nil, false
	}
	return parseTree(string(raw))
}

// parseTree reads a tree object's body: entries of "MODE NAME\0" and a
// 20-byte object name. Names are cut from the one string and object
// names from one hexadecimal buffer: a few allocations per tree, not two
// per entry. Modes are git's canonical ones.
func parseTree(body string) ([]entry, bool) {
	es := make([]entry, 0, len(body)/40)
	hexes := make([]byte, 0, len(body))
	for len(body) > 0 {
		sp := strings.IndexByte(body, ' ')
		if sp <= 0 || sp > 7 {
			return nil, false
		}
		mode := uint32(0)
		for _, c := range []byte(body[:sp]) {
			if c < '0' || c > '7' {
				return nil, false
			}
			mode = mode<<3 | uint32(c-'0')
		}
		body = body[sp+1:]
		nul := strings.IndexByte(body, 0)
		if nul <= 0 || len(body) < nul+21 {
			return nil, false
		}
		hexes = hex.AppendEncode(hexes, []byte(body[nul+1:nul+21]))
		es = append(es, entry{name: body[:nul], mode: canonMode(mode)})
		body = body[nul+21:]
	}
	hexStr := string(hexes)
	for i := range es {
		es[i].hash = hexStr[40*i : 40*(i+1)]
	}
	return es, true
}

// canonMode is git's canon_mode: the modes a tree may hold, as git
// compares them.
func canonMode(m uint32) filemode.FileMode {
	switch m & 0o170000 {
	case 0o040000:
		return filemode.Dir
	case 0o120000:
		return filemode.Symlink
	case 0o160000:
		return filemode.Submodule
	}
	if m&0o100 != 0 {
		return filemode.Executable
	}
	return filemode.Regular
}

// joinPath is dir/name ("" is the top).
func joinPath(dir, name string) string {
	if dir == "" {
		return name
	}
	return dir + "/" + name
}

// cmpJoined compares s with joinPath(dir, name), byte by byte, without
// building the path.
func cmpJoined(s, dir, name string) int {
	if dir == "" {
		return strings.Compare(s, name)
	}
	if len(s) < len(dir) {
		if c := strings.Compare(s, dir[:len(s)]); c != 0 {
			return c
		}
		return -1
	}
	if c := strings.Compare(s[:len(dir)], dir); c != 0 {
		return c
	}
	s = s[len(dir):]
	switch {
	case s == "":
		return -1
	case s[0] < '/':
		return -1
	case s[0] > '/':
		return 1
	}
	return strings.Compare(s[1:], name)
}

// inSameFolder reports whether p lies in a folder whose tree HEAD and the
// index share.
func inSameFolder(same map[string]bool, p string) bool {
	if len(same) == 0 {
		return false
	}
	for d := path.Dir(p); d != "."; d = path.Dir(d) {
		if same[d] {
			return true
		}
	}
	return false
}

// indexPath is the index git uses: GIT_INDEX_FILE (relative to the work
// tree, as git runs hooks there) or the git directory's.
func (r *Repo) indexPath() string {
	p := os.Getenv("GIT_INDEX_FILE")
	switch {
	case p == "":
		return filepath.Join(r.GitDir, "index")
	case !filepath.IsAbs(p):
		return filepath.Join(r.Top, p)
	}
	return p
}

// worktreeHead is the commit this work tree's HEAD names (its own HEAD
// file: a linked worktree has one), or false before the first commit or
// when it cannot be read plainly.
func (r *Repo) worktreeHead() (string, bool) {
	g := r.goGit()
	data, err := os.ReadFile(filepath.Join(r.GitDir, "HEAD"))
	if g == nil || err != nil {
		return "", false
	}
	h := strings.TrimRight(string(data), "\n")
	if target, ok := strings.CutPrefix(h, "ref: "); ok {
		if !strings.HasPrefix(target, "refs/heads/") {
			return "", false
		}
		ref, err := g.Reference(plumbing.ReferenceName(target), true)
		if err != nil {
			return "", false
		}
		return ref.Hash().String(), true
	}
	if len(h) == 40 && isHex(h) {
		return h, true
	}
	return "", false
}

// parseCacheTree reads an index's TREE extension into the folders whose
// tree object it holds ("" is the root); invalidated folders are left out.
// Entries are "path\0count subtrees\n" then, for a valid one, the tree's
// name, in pre-order.
func parseCacheTree(b []byte) (map[string]string, bool) {
	valid := map[string]string{}
	if b == nil {
		return valid, true
	}
	var node func(parent string) bool
	node = func(parent string) bool {
		nul := bytes.IndexByte(b, 0)
		if nul < 0 {
			return false
		}
		name := string(b[:nul])
		b = b[nul+1:]
		nl := bytes.IndexByte(b, '\n')
		if nl < 0 {
			return false
		}
		countText, subText, found := strings.Cut(string(b[:nl]), " ")
		b = b[nl+1:]
		count, err1 := strconv.Atoi(countText)
		subs, err2 := strconv.Atoi(subText)
		if !found || err1 != nil || err2 != nil || subs < 0 || subs > len(b) {
			return false
		}
		p := name
		if parent != "" {
			p = parent + "/" + name
		}
		if count >= 0 {
			if len(b) < 20 {
				return false
			}
			valid[p] = plumbing.Hash(b[:20]).String()
			b = b[20:]
		}
		for i := 0; i < subs; i++ {
			if !node(p) {
				return false
			}
		}
		return true
	}
	if !node("") || len(b) != 0 {
		return nil, false
	}
	return valid, true
}

// plainDiffConfig reports whether no configuration git reads could set
// diff.orderFile (which reorders git's output).
func plainDiffConfig(r *Repo) bool { return !r.ConfigMayMention("orderfile") }
