package gitops

import (
	"bufio"
	"bytes"
	"os"
	"path/filepath"
	"strings"
)

// discover finds the repository containing the physical directory dir
// without starting git, for the common case only: a work tree whose .git
// is a directory or a "gitdir:" file (a linked worktree), owned by this
// user, with a plain configuration. It reports false whenever git's own
// answer could differ, and Open then asks `git rev-parse`:
//
//   - a GIT_* variable that changes discovery is set (GIT_WORK_TREE,
//     GIT_COMMON_DIR, ...; GIT_DIR alone is followed, see
//     explicitGitDir, and GIT_CEILING_DIRECTORIES while the walk stays
//     below its ceilings, see ceilingOf) or the command line
//     configuration (git -c) names a worktree or bare key;
//   - the walk up would enter a ceiling directory;
//   - dir is inside a git directory, or a bare repository;
//   - the walk up crosses a file system boundary before finding .git;
//   - a .git found is not a valid git directory or gitdir file;
//   - a directory, gitdir file or git directory involved is not owned
//     by this user (git's safe.directory check then decides);
//   - the repository configuration sets core.worktree, a core.bare other
//     than false, a format version above 1, any [extensions] or an
//     include.
func discover(dir string) (gitDir, commonDir, top string, ok bool) {
	for _, v := range []string{"GIT_WORK_TREE", "GIT_COMMON_DIR",
		"GIT_DISCOVERY_ACROSS_FILESYSTEM", "GIT_OBJECT_DIRECTORY", "GIT_CONFIG_COUNT", "GIT_TEST_ASSUME_DIFFERENT_OWNER"} {
		if _, set := os.LookupEnv(v); set {
			return "", "", "", false
		}
	}
	if p := strings.ToLower(os.Getenv("GIT_CONFIG_PARAMETERS")); strings.Contains(p, "worktree") || strings.Contains(p, "bare") {
		return "", "", "", false
	}
	if env, set := os.LookupEnv("GIT_DIR"); set {
		return explicitGitDir(dir, env)
	}
	start, err := os.Stat(dir)
	if err != nil {
		return "", "", "", false
	}
	ceiling, ok := ceilingOf(dir, os.Getenv("GIT_CEILING_DIRECTORIES"))
	if !ok {
		return "", "", "", false
	}
	for d := dir; ; {
		if isGitDir(d, d) {
			return "", "", "", false // inside a git directory, or bare
		}
		dotgit := filepath.Join(d, ".git")
		if fi, err := os.Lstat(dotgit); err == nil {
			gitDir, commonDir, ok = readDotGit(dotgit, fi)
			if !ok || !ownedByMe(d) || !plainConfig(commonDir) {
				return "", "", "", false
			}
			return gitDir, commonDir, d, true
		}
		up := filepath.Dir(d)
		if up == d {
			return "", "", "", false // git says it is not a repository
		}
		if ceiling != "" && !strictlyBelow(up, ceiling) {
			return "", "", "", false // git stops below a ceiling
		}
		if fi, err := os.Stat(up); err != nil || !sameDevice(start, fi) {
			return "", "", "", false
		}
		d = up
	}
}

// ceilingOf is the deepest directory of GIT_CEILING_DIRECTORIES (list)
// above dir: git looks for a repository in dir and its parents below it,
// never in it. Entries are physical paths, as git makes them, except
// those after an empty entry, which git takes as written; a relative
// entry is ignored, as git ignores it. ok is false for a list this
// reading may get wrong (an entry that cannot be resolved): git decides.
func ceilingOf(dir, list string) (ceiling string, ok bool) {
	if list == "" {
		return "", true
	}
	resolve := true
	for _, c := range filepath.SplitList(list) {
		if c == "" {
			resolve = false
			continue
		}
		if !filepath.IsAbs(c) {
			continue
		}
		c = filepath.Clean(c)
		if resolve {
			real, err := filepath.EvalSymlinks(c)
			if err != nil {
				return "", false
			}
			c = real
		}
		if strictlyBelow(dir, c) && len(c) > len(ceiling) {
			ceiling = c
		}
	}
	return ceiling, true
}

// strictlyBelow reports whether p is inside dir and not dir itself.
func strictlyBelow(p, dir string) bool {
	if dir == string(filepath.Separator) {
		return p != dir && strings.HasPrefix(p, dir)
	}
	return strings.HasPrefix(p, dir+string(filepath.Separator))
}

// explicitGitDir is discovery with GIT_DIR set (git sets it for the hooks
// of a linked worktree): without GIT_WORK_TREE or core.worktree, git takes
// the directory it runs in as the top of the work tree. The git directory
// must be this user's and valid, its configuration plain.
func explicitGitDir(dir, env string) (gitDir, commonDir, top string, ok bool) {
	if env == "" {
		return "", "", "", false
	}
	if !filepath.IsAbs(env) {
		env = filepath.Join(dir, env)
	}
	gitDir, err := filepath.EvalSymlinks(env)
	if err != nil {
		return "", "", "", false
	}
	if commonDir, ok = commonDirOf(gitDir); !ok {
		return "", "", "", false
	}
	if !ownedByMe(gitDir) || !ownedByMe(commonDir) || !isGitDir(gitDir, commonDir) || !plainConfig(commonDir) {
		return "", "", "", false
	}
	if isGitDir(dir, dir) {
		return "", "", "", false // run inside a git directory
	}
	return gitDir, commonDir, dir, true
}

// commonDirOf is the directory a git directory's commondir file names,
// or the git directory itself without one.
func commonDirOf(gitDir string) (string, bool) {
	data, err := os.ReadFile(filepath.Join(gitDir, "commondir"))
	if os.IsNotExist(err) {
		return gitDir, true
	}
	if err != nil {
		return "", false
	}
	c := strings.TrimRight(string(data), "\r\n")
	if c == "" || strings.ContainsAny(c, "\n\r") {
		return "", false
	}
	if !filepath.IsAbs(c) {
		c = filepath.Join(gitDir, c)
	}
	c, err = filepath.EvalSymlinks(c)
	return c, err == nil
}

// readDotGit resolves a work tree's .git: the directory itself, or the
// directory a "gitdir: PATH" file names and its commondir.
func readDotGit(dotgit string, fi os.FileInfo) (gitDir, commonDir string, ok bool) {
	switch {
	case fi.IsDir():
		// A git directory may take its refs and objects from another
		// (its commondir file), as git reads it.
		commonDir, ok := commonDirOf(dotgit)
		if !ok || !ownedByMe(dotgit) || !ownedByMe(commonDir) || !isGitDir(dotgit, commonDir) {
			return "", "", false
		}
		return dotgit, commonDir, true
	case fi.Mode().IsRegular():
		if !ownedByMe(dotgit) {
			return "", "", false
		}
		data, err := os.ReadFile(dotgit)
		if err != nil {
			return "", "", false
		}
		target, found := strings.CutPrefix(strings.TrimRight(string(data), "\r\n"), "gitdir: ")
		if !found || target == "" || strings.ContainsAny(target, "\n\r") {
			return "", "", false
		}
		if !filepath.IsAbs(target) {
			target = filepath.Join(filepath.Dir(dotgit), target)
		}
		gitDir, err := filepath.EvalSymlinks(target)
		if err != nil {
			return "", "", false
		}
		commonDir, ok := commonDirOf(gitDir)
		if !ok {
			return "", "", false
		}
		if !ownedByMe(gitDir) || !ownedByMe(commonDir) || !isGitDir(gitDir, commonDir) {
			return "", "", false
		}
		return gitDir, commonDir, true
	}
	return "", "", false // a link or anything else: git's answer
}

// GitDirs are the git directory and the common directory (refs and
// objects) of the repository whose top is top, as git finds them from
// its .git: the directory itself (its commondir file followed), the
// directory a "gitdir:" file names, or what a link to either leads to.
// ok is false when git's own answer is needed: no .git, one not this
// user's, or not a valid git directory.
func GitDirs(top string) (gitDir, commonDir string, ok bool) {
	dotgit := filepath.Join(top, ".git")
	fi, err := os.Lstat(dotgit)
	if err != nil {
		return "", "", false
	}
	if fi.Mode()&os.ModeSymlink != 0 {
		if dotgit, err = filepath.EvalSymlinks(dotgit); err != nil {
			return "", "", false
		}
		if fi, err = os.Stat(dotgit); err != nil {
			return "", "", false
		}
	}
	return readDotGit(dotgit, fi)
}

// isGitDir is git's is_git_directory: objects/ and refs/ in the common
// directory and a HEAD that is a ref or an object name.
func isGitDir(gitDir, commonDir string) bool {
	for _, sub := range []string{"objects", "refs"} {
		if fi, err := os.Stat(filepath.Join(commonDir, sub)); err != nil || !fi.IsDir() {
			return false
		}
	}
	head, err := os.ReadFile(filepath.Join(gitDir, "HEAD"))
	if err != nil {
		return false
	}
	h := strings.TrimRight(string(head), "\n")
	if ref, ok := strings.CutPrefix(h, "ref:"); ok {
		return strings.HasPrefix(strings.TrimLeft(ref, " \t"), "refs/")
	}
	return isHex(h) && (len(h) == 40 || len(h) == 64)
}

// configName reports whether s is a plain section name (letters, digits,
// '-' and, in a section, '.') or variable name (starting with a letter).
func configName(s string, section bool) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z':
		case '0' <= c && c <= '9', c == '-':
			if !section && i == 0 {
				return false
			}
		case c == '.' && section:
		default:
			return false
		}
	}
	return s != ""
}

// quotedPlain reports whether s is a quoted subsection name without
// escapes or further quotes.
func quotedPlain(s string) bool {
	return len(s) >= 2 && s[0] == '"' && s[len(s)-1] == '"' && !strings.ContainsAny(s[1:len(s)-1], "\\\"\n")
}

func isHex(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
			return false
		}
	}
	return s != ""
}

// plainConfig reports whether the repository configuration leaves the
// work tree where discovery found it: no core.worktree, core.bare unset
// or false, format version 0 or 1 without extensions, and no include
// (whose files could say otherwise). Anything it cannot read plainly
// counts as not plain.
func plainConfig(commonDir string) bool {
	const gitSpace = " \t\r" // git's config parser knows no other blank
	data, err := os.ReadFile(filepath.Join(commonDir, "config"))
	if err != nil {
		return false
	}
	section := ""
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		line := strings.Trim(sc.Text(), gitSpace)
		if line == "" || line[0] == '#' || line[0] == ';' {
			continue
		}
		if strings.HasSuffix(line, "\\") {
			return false // a continued value
		}
		if line[0] == '[' {
			head, rest, found := strings.Cut(line[1:], "]")
			name, sub, hasSub := strings.Cut(head, " ")
			if !found || !configName(name, true) || hasSub && !quotedPlain(strings.TrimLeft(sub, gitSpace)) {
				return false // a malformed header
			}
			section = strings.ToLower(name)
			if hasSub {
				section += " " // a subsection: never core, include or extensions
			}
			if strings.HasPrefix(section, "include") || section == "extensions" {
				return false
			}
			if rest = strings.Trim(rest, gitSpace); rest != "" && rest[0] != '#' && rest[0] != ';' {
				return false // a key on the header line
			}
			continue
		}
		if strings.Contains(line, "\\") || strings.Count(line, `"`)%2 != 0 {
			return false // escapes and open quotes: git's to read
		}
		key, value, _ := strings.Cut(line, "=")
		key, value = strings.ToLower(strings.Trim(key, gitSpace)), strings.ToLower(strings.Trim(value, gitSpace))
		if section == "" || !configName(key, false) {
			return false // git refuses the file
		}
		if section != "core" {
			continue
		}
		switch key {
		case "worktree":
			return false
		case "bare":
			if value != "false" && value != "no" && value != "off" && value != "0" {
				return false
			}
		case "repositoryformatversion":
			if value != "0" && value != "1" {
				return false
			}
		}
	}
	return sc.Err() == nil
}
