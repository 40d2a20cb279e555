package workspace

import (
	"bytes"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/BurntSushi/toml"
	"github.com/git-adr/git-adr/gitops"
	"github.com/git-adr/git-adr/internal/atomicfile"
	"github.com/git-adr/git-adr/internal/failpoint"
)

// DefaultFile is the name `git adr workspace init` gives a workspace file.
const DefaultFile = "adr-workspace.toml"

// DefaultScanDepth is how many folder levels below its folder a scan
// looks for repositories: ~/src/NAME, ~/src/ORG/NAME and
// ~/src/HOST/ORG/NAME (as ghq and Go's old GOPATH lay clones out).
const DefaultScanDepth = 3

// Scanned is a repository [Scan] found.
type Scanned struct {
	// Name is the member name chosen for it: its folder's name, made
	// unique.
	Name string
	// Path is its top, relative to the workspace file's folder, with
	// forward slashes ("." for the folder itself).
	Path string
	// URL is its origin's URL as a workspace file would name it, when the
	// scan asked for URLs; Dropped says what of the URL was left out
	// (credentials) when anything was.
	URL, Dropped string
	// Records counts its records, archived ones included.
	Records int
	// Left says why it is not in the file ("" when it is).
	Left string
}

// ScanOptions says how [Scan] looks.
type ScanOptions struct {
	// Depth is how many folder levels below the folder scanned are
	// looked in (1: only the folder's own folders).
	Depth int
	// URLs names each repository by its origin's URL instead of its path:
	// a file to share, whose repositories `sync` mirrors.
	URLs bool
}

// Scan finds the git repositories in dir and below it, for a workspace
// file in fileDir, which must hold dir: a folder holding a .git (a
// folder, or a file as a linked worktree or a submodule has) is one, and
// the scan does not look inside it. Hidden folders and links are not
// followed. Each repository is opened as a member would be (lazily:
// records are counted, not parsed); one with no record, one that keeps
// its git directory outside fileDir, one that does not open, and with
// URLs one with no usable origin, are returned with Left saying why.
// The names are the folders' own, made unique as a workspace file needs
// them (case-insensitively: the parent folder's name first, then a
// number).
func Scan(fileDir, dir string, opt ScanOptions) ([]Scanned, error) {
	top, err := realAbs(fileDir)
	if err != nil {
		return nil, err
	}
	root, err := realAbs(dir)
	if err != nil {
		return nil, err
	}
	if !inside(top, root) {
		return nil, &leaveError{fmt.Sprintf("%s is not inside %s, the workspace file's folder (a workspace names its local repositories by paths inside its folder)", dir, fileDir)}
	}
	var found []Scanned
	err = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || !d.IsDir() {
			return nil // an unreadable folder is passed over; a link is not followed
		}
		if p != root && strings.HasPrefix(d.Name(), ".") {
			return fs.SkipDir
		}
		if _, err := os.Lstat(filepath.Join(p, ".git")); err == nil {
			rel, _ := filepath.Rel(top, p)
			found = append(found, Scanned{Path: filepath.ToSlash(rel)})
			return fs.SkipDir
		}
		if gitops.IsMirror(p) {
			return fs.SkipDir // a bare repository (a mirror, a server's): no work tree to name
		}
		if rel, _ := filepath.Rel(root, p); rel != "." && strings.Count(rel, string(filepath.Separator))+1 >= opt.Depth {
			return fs.SkipDir
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	sameRepository(found, top)
	// Names go to the shallower repositories first (payments before
	// org/payments), and only to those the file names.
	order := make([]*Scanned, len(found))
	for i := range found {
		order[i] = &found[i]
	}
	sort.SliceStable(order, func(i, j int) bool {
		return strings.Count(order[i].Path, "/") < strings.Count(order[j].Path, "/")
	})
	names := map[string]bool{}
	for _, s := range order {
		if s.Left != "" {
			continue
		}
		s.Name = uniqueName(names, filepath.Join(top, filepath.FromSlash(s.Path)))
		s.Left = s.inspect(top, opt.URLs)
		if s.Left == "" {
			names[strings.ToLower(s.Name)] = true
		}
	}
	return found, nil
}

// sameRepository leaves out each linked worktree found beside another
// worktree of its repository (git worktree add, or a .git file naming
// it), which would read the same log twice under two names: the main
// worktree is kept, else the first found.
func sameRepository(found []Scanned, top string) {
	kept := map[string]int{} // common directory -> index in found
	common := make([]string, len(found))
	main := make([]bool, len(found))
	for i, s := range found {
		gitDir, commonDir, ok := gitops.GitDirs(filepath.Join(top, filepath.FromSlash(s.Path)))
		if !ok {
			continue
		}
		if real, err := filepath.EvalSymlinks(commonDir); err == nil {
			commonDir = real
		}
		common[i], main[i] = commonDir, filepath.Clean(gitDir) == filepath.Clean(commonDir)
		if k, seen := kept[commonDir]; !seen || main[i] && !main[k] {
			kept[commonDir] = i
		}
	}
	for i := range found {
		if k, ok := kept[common[i]]; ok && common[i] != "" && k != i {
			found[i].Left = fmt.Sprintf("a worktree of the repository at %s, which is named", found[k].Path)
		}
	}
}

// realAbs is p absolute, links resolved.
func realAbs(p string) (string, error) {
	abs, err := filepath.Abs(p)
	if err != nil {
		return "", err
	}
	return filepath.EvalSymlinks(abs)
}

// inspect opens the repository found and says why it is left out of the
// file, or "".
func (s *Scanned) inspect(top string, urls bool) string {
	if !utf8.ValidString(s.Path) {
		return "its path is not UTF-8, which a TOML file cannot hold"
	}
	p := filepath.Join(top, filepath.FromSlash(s.Path))
	if gitDir := foreignGitDir(top, p); gitDir != "" {
		return "its git directory is outside the workspace folder"
	}
	m := &Member{Name: s.Name, Path: p, Given: s.Path}
	ld, err := m.Open(true)
	if err != nil {
		return strings.TrimPrefix(err.Error(), fmt.Sprintf("repo %q: ", s.Name))
	}
	s.Records = len(ld.Log.Records)
	var origin string
	if urls {
		origin, err = ld.Repo.Config("remote.origin.url")
	}
	ld.Close()
	if s.Records == 0 {
		return "no decision log"
	}
	if !urls {
		return ""
	}
	if err != nil || origin == "" {
		return "no origin remote"
	}
	s.URL, s.Dropped = shareableURL(origin)
	if !utf8.ValidString(s.URL) {
		return "its origin's url is not UTF-8, which a TOML file cannot hold"
	}
	if msg := badURL(s.URL); msg != "" {
		return fmt.Sprintf("its origin's url %s", msg)
	}
	return ""
}

// uniqueName names the repository at p after its folder, unless a name
// in taken (lower case) has it: then after its parent folder and itself,
// then with a number.
func uniqueName(taken map[string]bool, p string) string {
	clip := func(s string) string {
		if len(s) > maxName {
			s = strings.TrimRight(s[:maxName], "-.")
		}
		return s
	}
	name := clip(suggestName(filepath.Base(p)))
	if !taken[strings.ToLower(name)] {
		return name
	}
	if parent := filepath.Base(filepath.Dir(p)); parent != "." && parent != string(filepath.Separator) {
		if n := clip(suggestName(parent + "-" + filepath.Base(p))); !taken[strings.ToLower(n)] {
			return n
		}
	}
	for i := 2; ; i++ {
		suffix := fmt.Sprintf("-%d", i)
		if n := clip(name[:min(len(name), maxName-len(suffix))]) + suffix; !taken[strings.ToLower(n)] {
			return n
		}
	}
}

// shareableURL is u as a workspace file others read may name it: the
// user and password of a URL left out (an http(s) user is often a token,
// and the file is shared; git asks its credential helper instead), and
// what was left out, or "".
func shareableURL(u string) (string, string) {
	p, err := url.Parse(u)
	if err != nil || p.User == nil || p.Scheme == "" {
		return u, ""
	}
	_, hasPassword := p.User.Password()
	if !hasPassword && p.Scheme != "http" && p.Scheme != "https" {
		return u, "" // ssh://git@host/...: a user, no secret
	}
	start := strings.Index(u, "://") + 3
	authority := u[start:]
	if i := strings.IndexAny(authority, "/?#"); i >= 0 {
		authority = authority[:i]
	}
	at := strings.LastIndex(authority, "@") // as url.Parse reads it
	if start < 3 || at < 0 {
		return u, ""
	}
	return u[:start] + u[start+at+1:], "credentials"
}

// fileRepo is one [[repo]] as Render and Add write it.
type fileRepo struct {
	Name string `toml:"name"`
	Path string `toml:"path,omitempty"`
	URL  string `toml:"url,omitempty"`
	Ref  string `toml:"ref,omitempty"`
}

// fileHeader starts a workspace file git-adr writes.
const fileHeader = `# The repositories whose decision logs git-adr reads as one (docs/workspace.md):
# written by git-adr (workspace init, workspace add); edit it as you like. A
# [[repo]] takes name, path (a local clone, relative to this file) or url
# (mirrored by ` + "`git adr workspace sync`" + `), and ref.

`

// Render is the text of a workspace file naming the repositories found
// that are not left out, in the order found: by path, or by URL with
// urls.
func Render(found []Scanned, urls bool) []byte {
	var f struct {
		Repo []fileRepo `toml:"repo"`
	}
	for _, s := range found {
		if s.Left != "" {
			continue
		}
		r := fileRepo{Name: s.Name, Path: s.Path}
		if urls {
			r.Path, r.URL = "", s.URL
		}
		f.Repo = append(f.Repo, r)
	}
	var b bytes.Buffer
	b.WriteString(fileHeader)
	encodeRepos(&b, f.Repo)
	return b.Bytes()
}

// encodeRepos appends repos to b as [[repo]] tables.
func encodeRepos(b *bytes.Buffer, repos []fileRepo) {
	f := struct {
		Repo []fileRepo `toml:"repo"`
	}{repos}
	enc := toml.NewEncoder(b)
	enc.Indent = ""
	_ = enc.Encode(f) // a bytes.Buffer does not fail, and the values are strings
}

// Create writes data, a workspace file Render made, at path: whole or not
// at all, and never over a file that is there unless replace (then under
// the file's lock, FILE.lock, as [Add] and [Remove] edit it). It first
// reads data back as [Load] reads a workspace file, and writes nothing
// that does not load.
func Create(path string, data []byte, replace bool) error {
	abs, err := filepath.Abs(path)
	if err != nil {
		return err
	}
	target := abs
	if replace {
		// Under the file's lock, as add and remove edit it: an add that
		// read the old file cannot write it back over this one. A file
		// kept elsewhere and linked here (a dotfiles folder) is replaced
		// where it is, the link kept.
		var lock *gitops.Lock
		if _, target, lock, err = lockFile(path, "git adr workspace init --force"); err != nil {
			return err
		}
		defer lock.Release()
	}
	// No mirror is made or read here: any cache folder will do.
	if _, err := decode(path, abs, data, os.TempDir()); err != nil {
		return err
	}
	// The kill test stops init here, the file not yet written.
	failpoint.Hit("workspace-init-write")
	if replace {
		return atomicfile.Write(target, data, 0o644)
	}
	return atomicfile.Create(target, data, 0o644)
}
