package workspace

import (
	"errors"
	"fmt"
	"github.com/git-adr/git-adr/internal/lazyre"
	"net/url"
	"os"
	"path/filepath"
	"strings"

	"github.com/BurntSushi/toml"
	"github.com/git-adr/git-adr/gitops"
	"github.com/git-adr/git-adr/internal/confine"
	"github.com/git-adr/git-adr/internal/tomldepth"
)

// EnvVar names the environment variable that names a workspace file when
// --workspace is not given.
const EnvVar = "GIT_ADR_WORKSPACE"

// Workspace is a parsed workspace file.
type Workspace struct {
	// Path is the workspace file; Dir is its folder, against which local
	// paths are resolved and which they may not leave.
	Path, Dir string
	Members   []*Member
	// CacheDir holds the mirrors of remote repositories.
	CacheDir string
	// skips, in a view from [Workspace.Reading], collects the members
	// the view's reads went on without.
	skips *Skips
}

// Member is one repository of a workspace.
type Member struct {
	// Name qualifies the member's IDs ("payments" in payments:ADR-0012).
	Name string
	// Path is the absolute local repository ("" for a remote one);
	// Given is the path as the workspace file writes it.
	Path, Given string
	// missing: Given named nothing when the file was loaded (a local
	// repository not cloned here); the member cannot be opened.
	missing bool
	// URL and Ref name a remote repository and the ref read from it; Ref
	// may also name a ref of a local repository (read from its tree,
	// not from the work tree).
	URL, Ref string
	// Mirror is the bare repository a remote member is fetched into.
	Mirror string
}

// Remote reports whether the member is read from a mirror.
func (m *Member) Remote() bool { return m.URL != "" }

// Source is how the member is named in the workspace file: its URL and
// ref, or its path.
func (m *Member) Source() string {
	if m.Remote() {
		return redactURL(m.URL) + " " + m.ref()
	}
	if m.Ref != "" {
		return m.Given + " " + m.Ref
	}
	return m.Given
}

// ShownURL is the member's URL as git-adr shows it: a password, and the
// user of an http(s) URL, masked (redactURL).
func (m *Member) ShownURL() string { return redactURL(m.URL) }

// redactURL is u as git-adr shows it (workspace ls, export, messages):
// a password in it is masked, and so is any user of an http(s) URL,
// where a token often stands in the user's place
// (https://TOKEN@host/...). A path or an scp-like host:path is shown as
// it is.
func redactURL(u string) string {
	p, err := url.Parse(u)
	if err != nil || p.User == nil || p.Scheme == "" {
		return u
	}
	_, hasPassword := p.User.Password()
	if !hasPassword && p.Scheme != "http" && p.Scheme != "https" {
		return u
	}
	start := strings.Index(u, "://") + 3
	if start < 3 {
		return u
	}
	authority := u[start:]
	if i := strings.IndexAny(authority, "/?#"); i >= 0 {
		authority = authority[:i]
	}
	at := strings.LastIndex(authority, "@") // as url.Parse reads it
	if at < 0 {
		return u
	}
	return u[:start] + "***" + u[start+at:]
}

func (m *Member) ref() string {
	if m.Ref == "" {
		return "HEAD"
	}
	return m.Ref
}

// fileSchema is the TOML form:
//
//	[[repo]]
//	name = "payments"
//	path = "payments"          # or url = "https://…" with ref = "main"
type fileSchema struct {
	Repo []struct {
		Name string `toml:"name"`
		Path string `toml:"path"`
		URL  string `toml:"url"`
		Ref  string `toml:"ref"`
	} `toml:"repo"`
}

// Error is a workspace file that cannot be used: it names the file, and
// the member when one is at fault, and says what to do.
type Error struct {
	File, Member, Msg, Hint string
}

func (e *Error) Error() string {
	if e.Member != "" {
		return fmt.Sprintf("workspace %s: repo %q: %s", e.File, e.Member, e.Msg)
	}
	return fmt.Sprintf("workspace %s: %s", e.File, e.Msg)
}

var nameRE = lazyre.New(`^[A-Za-z0-9][A-Za-z0-9._-]*$`)

// maxName bounds a member's name, which every qualified ID repeats.
const maxName = 64

// refRE admits the ref names git admits, less a few it would also take
// (no "@{", no "..", no control or glob characters).
var refRE = lazyre.New(`^[A-Za-z0-9._][A-Za-z0-9._/-]*$`)

// DefaultCacheDir is where remote repositories are mirrored: git-adr's
// folder in the user's cache directory.
func DefaultCacheDir() (string, error) {
	base, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("no cache directory for mirrors: %w", err)
	}
	return filepath.Join(base, "git-adr", "workspace"), nil
}

// Load reads the workspace file at path. cacheDir is where remote
// repositories are mirrored ("" for the user's cache directory).
func Load(path, cacheDir string) (*Workspace, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, err
	}
	data, err := readFile(abs)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return nil, &Error{File: path, Msg: "no such file", Hint: "create it (docs/workspace.md shows one), or fix --workspace / " + EnvVar}
		}
		var we *Error
		if errors.As(err, &we) {
			we.File = path
			return nil, we
		}
		return nil, &Error{File: path, Msg: err.Error(), Hint: "fix --workspace / " + EnvVar + " to name a readable workspace file"}
	}
	return decode(path, abs, data, cacheDir)
}

// decode is [Load] of data, the workspace file at abs (path as given).
func decode(path, abs string, data []byte, cacheDir string) (*Workspace, error) {
	// A workspace file nests two levels ([[repo]]); the decoder would
	// recurse once per level of any depth (tomldepth).
	if line, deep := tomldepth.Check(data); deep {
		return nil, &Error{File: path, Msg: fmt.Sprintf("line %d: arrays or tables nested more than %d deep", line, tomldepth.Max), Hint: "fix the TOML; docs/workspace.md shows the schema"}
	}
	var f fileSchema
	md, err := toml.Decode(string(data), &f)
	if err != nil {
		var pe toml.ParseError
		if errors.As(err, &pe) {
			return nil, &Error{File: path, Msg: fmt.Sprintf("line %d: %s", pe.Position.Line, pe.Message), Hint: "fix the TOML; docs/workspace.md shows the schema"}
		}
		return nil, &Error{File: path, Msg: err.Error()}
	}
	if und := md.Undecoded(); len(und) > 0 {
		return nil, &Error{File: path, Msg: fmt.Sprintf("unknown key %q", und[0].String()), Hint: "a [[repo]] takes name, path, url and ref"}
	}
	if cacheDir == "" {
		var err error
		if cacheDir, err = DefaultCacheDir(); err != nil {
			return nil, &Error{File: path, Msg: err.Error(), Hint: "set XDG_CACHE_HOME or HOME"}
		}
	}
	w := &Workspace{Path: abs, Dir: filepath.Dir(abs), CacheDir: cacheDir}
	if len(f.Repo) == 0 {
		return nil, &Error{File: path, Msg: "names no repository", Hint: "add a [[repo]] with a name and a path or url"}
	}
	seen := map[string]bool{}
	for i, r := range f.Repo {
		if r.Name == "" {
			return nil, &Error{File: path, Msg: fmt.Sprintf("[[repo]] number %d has no name", i+1), Hint: `add name = "..." (letters, digits, '.', '_', '-')`}
		}
		if len(r.Name) > maxName {
			return nil, &Error{File: path, Member: r.Name, Msg: fmt.Sprintf("the name is %d bytes long; at most %d (it qualifies IDs as NAME:ADR-0001)", len(r.Name), maxName), Hint: fmt.Sprintf("rename it, for example %q", suggestName(r.Name[:maxName]))}
		}
		if !nameRE.MatchString(r.Name) {
			return nil, &Error{File: path, Member: r.Name, Msg: "the name may hold only letters, digits, '.', '_' and '-' (it qualifies IDs as NAME:ADR-0001)", Hint: fmt.Sprintf("rename it, for example %q", suggestName(r.Name))}
		}
		key := strings.ToLower(r.Name)
		if seen[key] {
			return nil, &Error{File: path, Member: r.Name, Msg: "named twice", Hint: "give each repository its own name"}
		}
		seen[key] = true
		m := &Member{Name: r.Name, URL: r.URL, Ref: r.Ref}
		switch {
		case r.Path != "" && r.URL != "":
			return nil, &Error{File: path, Member: r.Name, Msg: "has both path and url", Hint: "keep path for a local repository, url for one to mirror"}
		case r.Path == "" && r.URL == "":
			return nil, &Error{File: path, Member: r.Name, Msg: "has neither path nor url", Hint: `add path = "DIR" (relative to the workspace file) or url = "URL"`}
		}
		if r.Ref != "" && !validRef(r.Ref) {
			return nil, &Error{File: path, Member: r.Name, Msg: fmt.Sprintf("ref %q is not a ref name", r.Ref), Hint: `name a branch, a tag or a full ref, for example ref = "main"`}
		}
		if r.Path != "" {
			p, err := w.confine(r.Path)
			if errors.Is(err, os.ErrNotExist) {
				// Not cloned here (a workspace file is often shared): the
				// member is unavailable, and nothing is ever read at a
				// path that was not there to be confined.
				m.Given, m.missing = filepath.ToSlash(filepath.Clean(r.Path)), true
				w.Members = append(w.Members, m)
				continue
			}
			var le *leaveError
			if errors.As(err, &le) {
				return nil, &Error{File: path, Member: r.Name, Msg: err.Error(), Hint: fmt.Sprintf("keep the workspace file in a folder that holds its repositories (%s does not), or mirror this one with url = \"file:///...\"", w.Dir)}
			}
			if err != nil {
				return nil, &Error{File: path, Member: r.Name, Msg: fmt.Sprintf("path %q cannot be followed: %v", r.Path, err), Hint: "fix its path (relative to the workspace file), or the links on the way"}
			}
			if gitdir := foreignGitDir(w.Dir, p); gitdir != "" {
				return nil, &Error{File: path, Member: r.Name, Msg: fmt.Sprintf("path %q keeps its git directory outside the workspace folder, in %s, and not as a worktree of its own", r.Path, gitdir), Hint: "clone the repository into the workspace folder, or mirror it with url = \"file:///...\""}
			}
			m.Path, m.Given = p, filepath.ToSlash(filepath.Clean(r.Path))
		} else {
			if msg := badURL(r.URL); msg != "" {
				return nil, &Error{File: path, Member: r.Name, Msg: fmt.Sprintf("url %q %s", r.URL, msg), Hint: "use an https://, ssh:// or file:// URL, host:path, or a path"}
			}
			m.Mirror = filepath.Join(cacheDir, mirrorName(r.URL))
		}
		w.Members = append(w.Members, m)
	}
	return w, nil
}

// maxFileSize bounds a workspace file: some ten thousand repositories fit
// in one MiB, and a name that leads to a device or a huge file must not
// hold the command or its memory.
const maxFileSize = 4 << 20

// readFile reads a workspace file, which must be a regular file (links
// followed) of at most maxFileSize bytes: a FIFO would block the command
// until something writes to it, and /dev/zero would never end.
func readFile(abs string) ([]byte, error) {
	data, err := confine.ReadRegularFileUpTo(abs, maxFileSize)
	var special *confine.SpecialFileError
	switch {
	case errors.Is(err, confine.ErrIsDir):
		return nil, &Error{Msg: "is a directory", Hint: "name the workspace file itself (--workspace FILE or " + EnvVar + ")"}
	case errors.As(err, &special):
		return nil, &Error{Msg: "is not a regular file", Hint: "name the workspace file itself (--workspace FILE or " + EnvVar + ")"}
	case errors.Is(err, confine.ErrTooLarge):
		return nil, &Error{Msg: fmt.Sprintf("is larger than %d MiB", maxFileSize>>20), Hint: "a workspace file names repositories; split a larger one into several workspaces"}
	}
	return data, err
}

// fetchSchemes are the URL schemes git fetches over by itself: any other
// scheme://, and any TRANSPORT::address, runs a remote helper
// (git-remote-TRANSPORT: ext:: runs any command, fd:: reads a file
// descriptor the command never gave), which a workspace file, written by
// someone else, must not choose.
var fetchSchemes = map[string]bool{"https": true, "http": true, "ssh": true, "git+ssh": true, "ssh+git": true, "git": true, "file": true}

// badURL says what is wrong with a member's url, or "" when git may
// fetch it: a URL of a scheme git speaks itself, an scp-like host:path, or
// a path.
func badURL(u string) string {
	if strings.HasPrefix(u, "-") {
		return "starts with '-' (git would read it as an option)"
	}
	if strings.IndexFunc(u, func(r rune) bool { return r < 0x20 || r == 0x7f }) >= 0 {
		return "holds a control character"
	}
	// git's own test: a run of URL scheme characters from the start,
	// then "::" names a remote helper, then "://" a scheme.
	n := strings.IndexFunc(u, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '+' || r == '.' || r == '-')
	})
	if n <= 0 {
		return ""
	}
	switch rest := u[n:]; {
	case strings.HasPrefix(rest, "::"):
		return fmt.Sprintf("names the transport %q (a remote helper), which a workspace does not run", u[:n])
	case strings.HasPrefix(rest, "://") && !fetchSchemes[strings.ToLower(u[:n])]:
		return fmt.Sprintf("has the scheme %q, which git fetches through a remote helper; a workspace does not run one", u[:n])
	}
	return ""
}

func validRef(ref string) bool {
	// git refuses a component that starts with '.' (.hidden,
	// refs/heads/.x) or ends with ".lock".
	for _, c := range strings.Split(ref, "/") {
		if strings.HasPrefix(c, ".") || strings.HasSuffix(c, ".lock") {
			return false
		}
	}
	return refRE.MatchString(ref) && !strings.Contains(ref, "..") && !strings.Contains(ref, "//") &&
		!strings.HasSuffix(ref, "/") && !strings.HasSuffix(ref, ".")
}

// leaveError is a member's path that is not inside the workspace folder.
type leaveError struct{ msg string }

func (e *leaveError) Error() string { return e.msg }

// confine resolves a member's path against the workspace folder, links
// included, and refuses one that leaves it (a *leaveError).
func (w *Workspace) confine(p string) (string, error) {
	if filepath.IsAbs(p) {
		return "", &leaveError{fmt.Sprintf("path %q is absolute; paths are relative to the workspace file", p)}
	}
	dir, err := filepath.EvalSymlinks(w.Dir)
	if err != nil {
		return "", err
	}
	full := filepath.Join(dir, filepath.FromSlash(p))
	if !inside(dir, full) {
		return "", &leaveError{fmt.Sprintf("path %q leaves the workspace folder", p)}
	}
	real, err := filepath.EvalSymlinks(full)
	if err != nil {
		return "", err
	}
	if !inside(dir, real) {
		return "", &leaveError{fmt.Sprintf("path %q leads out of the workspace folder (through a link)", p)}
	}
	return real, nil
}

// foreignGitDir is the git directory of the repository at member (a
// real path inside the workspace folder wsDir) when it, or the common
// directory it takes its refs and objects from, is outside wsDir and it
// is not a linked worktree of that member: a .git file, a link or a
// commondir file naming another repository, whose refs and objects git
// would read as the member's, which the workspace file cannot name
// itself. A linked worktree (<repository>/.git/worktrees/NAME, whose
// gitdir file names member's .git back, as git worktree add writes it)
// is the member's own. "" when the git directory is the member's own, or
// not there to judge (opening the member says what is wrong then).
func foreignGitDir(wsDir, member string) string {
	dir, err := filepath.EvalSymlinks(wsDir)
	if err != nil {
		return ""
	}
	gitDir, commonDir, ok := gitops.GitDirs(member)
	if !ok || inside(dir, gitDir) && inside(dir, commonDir) {
		return ""
	}
	if gitDir != commonDir {
		if back, err := os.ReadFile(filepath.Join(gitDir, "gitdir")); err == nil {
			b := strings.TrimSpace(string(back))
			if real, err := filepath.EvalSymlinks(b); err == nil && real == filepath.Join(member, ".git") {
				return "" // a linked worktree of member
			}
		}
	}
	if !inside(dir, commonDir) {
		return commonDir
	}
	return gitDir
}

func inside(dir, p string) bool {
	rel, err := filepath.Rel(dir, p)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}

func suggestName(s string) string {
	var b strings.Builder
	for _, r := range s {
		if r < 128 && (r == '.' || r == '_' || r == '-' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z') {
			b.WriteRune(r)
		} else {
			b.WriteByte('-')
		}
	}
	out := strings.Trim(b.String(), "-.")
	if out == "" {
		return "repo"
	}
	return out
}

// Member returns the member named name (case-insensitive), or nil.
func (w *Workspace) Member(name string) *Member {
	for _, m := range w.Members {
		if strings.EqualFold(m.Name, name) {
			return m
		}
	}
	return nil
}
