package gitops

import (
	"strconv"
	"strings"
)

// TrailerCommit is one commit as git log describes it.
type TrailerCommit struct {
	Hash string
	// Date is the author date in strict ISO 8601 (%aI), which sorts as
	// text.
	Date    string
	Subject string
	// Trailers are the message's trailer lines ("Key: value") of the keys
	// asked for, as git parses trailers.
	Trailers []string
}

// CommitsByTrailer lists the commits of HEAD's history, newest first,
// whose message has a line "Key: ...text..." for one of keys (keys and
// text matched without regard to case), with their trailers of those
// keys. The search is git's (log --grep) and finds lines anywhere in the
// message: callers read the trailers to tell.
func (r *Repo) CommitsByTrailer(keys []string, text string) ([]TrailerCommit, error) {
	quoted := make([]string, len(keys))
	for i, k := range keys {
		quoted[i] = regexpQuote(k)
	}
	grep := "--grep=^(" + strings.Join(quoted, "|") + "):.*" + regexpQuote(text)
	out, err := r.Git("log", "-E", "-i", grep, logFormat(keys), "HEAD")
	if err != nil {
		return nil, err
	}
	return parseLog(out), nil
}

// FileHistory lists the commits of HEAD's history that changed path,
// newest first, following it across renames (git log --follow).
func (r *Repo) FileHistory(path string) ([]TrailerCommit, error) {
	out, err := r.Git("log", "--follow", logFormat(nil), "HEAD", "--", path)
	if err != nil {
		return nil, err
	}
	return parseLog(out), nil
}

// logFormat is git log's --format for parseLog: NUL-separated fields,
// trailers of keys separated by \x01, each commit ended by \x1e.
func logFormat(keys []string) string {
	f := "--format=%H%x00%aI%x00%s"
	if len(keys) > 0 {
		f += "%x00%(trailers:key=" + strings.Join(keys, ",key=") + ",separator=%x01)"
	}
	return f + "%x1e"
}

// parseLog reads the output of git log with logFormat.
func parseLog(out []byte) []TrailerCommit {
	var cs []TrailerCommit
	for _, rec := range strings.Split(string(out), "\x1e") {
		f := strings.SplitN(strings.TrimLeft(rec, "\n"), "\x00", 4)
		if len(f) < 3 || len(f[0]) < 40 {
			continue
		}
		c := TrailerCommit{Hash: f[0], Date: f[1], Subject: f[2]}
		if len(f) == 4 {
			for _, t := range strings.Split(strings.TrimSpace(f[3]), "\x01") {
				if t = strings.TrimSpace(t); t != "" {
					c.Trailers = append(c.Trailers, t)
				}
			}
		}
		cs = append(cs, c)
	}
	return cs
}

// regexpQuote escapes s for git's extended regular expressions.
func regexpQuote(s string) string {
	var b strings.Builder
	for _, r := range s {
		if strings.ContainsRune(`\.+*?()|[]{}^$`, r) {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}

// CommitsNotOnRemote lists, oldest first, the commits of tip that no
// remote-tracking ref of remote holds: what a push of a new ref to remote
// sends.
func (r *Repo) CommitsNotOnRemote(tip, remote string) ([]string, error) {
	return r.revList("rev-list", "--reverse", tip, "--not", "--remotes="+remote)
}

// CommitsNotOnAnyRef lists, oldest first, the commits of tip that no ref
// holds: what a receive of a new ref brings.
func (r *Repo) CommitsNotOnAnyRef(tip string) ([]string, error) {
	return r.revList("rev-list", "--reverse", tip, "--not", "--all")
}

func (r *Repo) revList(args ...string) ([]string, error) {
	out, err := r.Git(args...)
	if err != nil {
		return nil, err
	}
	return strings.Fields(string(out)), nil
}

// CountNotOnRemote counts the commits of HEAD, the local branches and the
// tags that the tracking refs of remote (of any remote when remote is "")
// do not hold: what a push to remote could send.
func (r *Repo) CountNotOnRemote(remote string) (int, error) {
	args := []string{"rev-list", "--count", "--branches", "--tags"}
	if _, err := r.Head(); err == nil {
		args = append(args, "HEAD")
	}
	if remote == "" {
		args = append(args, "--not", "--remotes")
	} else {
		args = append(args, "--not", "--remotes="+remote)
	}
	out, err := r.Git(args...)
	if err != nil {
		return 0, err
	}
	return strconv.Atoi(strings.TrimSpace(string(out)))
}
