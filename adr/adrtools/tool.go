// Package adrtools reimplements adr-tools 3.0.0 (github.com/npryce/adr-tools),
// the shell scripts behind the `adr` command, so that git-adr run under the
// name `adr` is a drop-in replacement: the same output and the same files,
// byte for byte, for every command and flag.
//
// # Model
//
// adr-tools is a set of shell scripts that call each other (adr-new calls
// _adr_dir, _adr_add_link calls adr-list and grep, ...). A [Tool] reproduces
// each script as a function over the same strings: paths are the
// cwd-relative strings adr-tools prints ("doc/adr/0001-x.md",
// "../doc/adr/0002-y.md"), a reference is a grep pattern over `adr list`,
// a title is the first line of a file less its first two bytes. Reads go
// to the file system, through the files the command itself has already
// changed; writes are collected in a [Plan] that the caller carries out, so
// a command changes nothing until it has succeeded (adr-tools would have
// written half of a `new -s` whose reference matches nothing; the shim
// fails first).
//
// What is not reproduced is the shell's accidents: a title's `*` is not
// expanded against the current directory's file names in the slug, and a
// helper that fails (awk on a file that does not exist) is an error that
// names the reference instead of awk's message. The help texts are
// git-adr's own words in adr-tools' layout; adr-tools' prose is GPL-3.0
// text and is not copied.
//
// # Spelling
//
// adr-tools writes "Supercedes" and "Superceded by"; Debian's package
// patches them to "Supersedes" and "Superseded by". [Spelling] chooses.
package adrtools

import (
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
)

// Spelling is how supersession links are written.
type Spelling int

const (
	// Superceded is adr-tools' own spelling ("Supercedes", "Superceded
	// by"), the one its test suite expects.
	Superceded Spelling = iota
	// Superseded is Debian's patched spelling ("Supersedes", "Superseded
	// by").
	Superseded
)

// ParseSpelling reads the ADR_SPELLING value: "superceded" (or empty) or
// "superseded".
func ParseSpelling(s string) (Spelling, bool) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "", "superceded":
		return Superceded, true
	case "superseded":
		return Superseded, true
	}
	return 0, false
}

func (s Spelling) supersedes() string {
	if s == Superseded {
		return "Supersedes"
	}
	return "Supercedes"
}

func (s Spelling) supersededBy() string {
	if s == Superseded {
		return "Superseded by"
	}
	return "Superceded by"
}

// Tool runs adr-tools commands in the process's current directory.
type Tool struct {
	// BinDir is adr_bin_dir and adr_template_dir: the directory of the
	// `adr` that was run. A template.md or init.md there replaces the
	// built-in one, as in adr-tools' own directory.
	BinDir string
	// Getenv reads the environment (ADR_DATE, ADR_TEMPLATE, VISUAL, ...).
	Getenv func(string) string
	// Today is the date when ADR_DATE is unset (YYYY-MM-DD).
	Today    string
	Spelling Spelling

	// pending are the files this command has written so far, by cleaned
	// path; later steps read them as the scripts read their predecessors'
	// output.
	pending map[string][]byte
	plan    Plan
	// listed is the last List, until the next write: toc and graph look
	// every record up through it (_adr_title greps adr list).
	listed []string
}

// Plan is what a command does: files to write (in order), directories to
// create, an editor to run, and what to print.
type Plan struct {
	Mkdirs []string
	Writes []Write
	// Editor, when set, is run on EditFile after the writes and before
	// Out is printed; a failing editor ends the command with its status
	// (set -e in adr-new).
	Editor   []string
	EditFile string
	// Pager: Out is help text that adr-tools pipes through
	// ${ADR_PAGER:-${PAGER:-more}}.
	Pager bool
	Out   string
	Err   string
	Code  int
}

// Write is one file a command writes, named as adr-tools names it.
type Write struct {
	Path string
	Data []byte
	// Old is what the file held when read, nil for a new file.
	Old []byte
}

// Failure is a command that stops: Err is printed to stderr and the
// process exits with Code; nothing is written.
type Failure struct {
	Out, Err string
	Code     int
}

func (f *Failure) Error() string { return strings.TrimSpace(f.Err) }

func fail(code int, format string, args ...any) *Failure {
	return &Failure{Err: fmt.Sprintf(format, args...) + "\n", Code: code}
}

func (t *Tool) getenv(k string) string {
	if t.Getenv == nil {
		return os.Getenv(k)
	}
	return t.Getenv(k)
}

// read returns a file's content, as this command left it.
func (t *Tool) read(p string) ([]byte, error) {
	if data, ok := t.pending[filepath.Clean(p)]; ok {
		return data, nil
	}
	return os.ReadFile(p)
}

func (t *Tool) isDir(p string) bool {
	if t.pendingDir(p) {
		return true
	}
	fi, err := os.Stat(p)
	return err == nil && fi.IsDir()
}

func (t *Tool) pendingDir(p string) bool {
	c := filepath.Clean(p)
	for _, d := range t.plan.Mkdirs {
		if filepath.Clean(d) == c {
			return true
		}
	}
	for k := range t.pending {
		if filepath.Dir(k) == c {
			return true
		}
	}
	return false
}

// write records a file write; later reads see it.
func (t *Tool) write(p string, data []byte) {
	t.listed = nil
	if t.pending == nil {
		t.pending = map[string][]byte{}
	}
	c := filepath.Clean(p)
	for i, w := range t.plan.Writes {
		if filepath.Clean(w.Path) == c {
			t.plan.Writes[i].Data = data
			t.pending[c] = data
			return
		}
	}
	var old []byte
	if cur, err := os.ReadFile(p); err == nil {
		old = cur
	}
	t.plan.Writes = append(t.plan.Writes, Write{Path: p, Data: data, Old: old})
	t.pending[c] = data
}

func (t *Tool) mkdir(p string) {
	t.listed = nil
	t.plan.Mkdirs = append(t.plan.Mkdirs, p)
}

// Dir is _adr_dir: the ADR directory as a path relative to the current
// directory. From the current directory upwards, the first directory with
// an .adr-dir file (its first word, relative to that directory) or a
// doc/adr folder wins; else "doc/adr". The walk stops below the directory
// whose parent is the file system root, as adr-tools' loop does (it tests
// the parent of each candidate).
func (t *Tool) Dir() string {
	phys, err := os.Getwd()
	if err == nil {
		if p, err := filepath.EvalSymlinks(phys); err == nil {
			phys = p
		}
	}
	rel := "."
	mkrel := func(name string) string { return strings.TrimPrefix(rel+"/"+name, "./") }
	for k := 0; ; k++ {
		// adr-tools tests `cd $(dirname $reldir) && pwd -P`: the
		// candidate's parent (the candidate itself for ".").
		test := phys
		if k >= 1 {
			test = ancestor(phys, k-1)
		}
		if err != nil || test == string(filepath.Separator) || test == "" {
			break
		}
		if fi, err := os.Stat(mkrel(".adr-dir")); err == nil && !fi.IsDir() || t.pendingFile(mkrel(".adr-dir")) {
			data, _ := t.read(mkrel(".adr-dir"))
			words := strings.Fields(string(data))
			first := ""
			if len(words) > 0 {
				first = words[0]
			}
			return mkrel(first)
		}
		if t.isDir(mkrel("doc/adr")) {
			return mkrel("doc/adr")
		}
		rel += "/.."
	}
	return "doc/adr"
}

func (t *Tool) pendingFile(p string) bool {
	_, ok := t.pending[filepath.Clean(p)]
	return ok
}

func ancestor(p string, n int) string {
	for range n {
		p = filepath.Dir(p)
	}
	return p
}

// List is adr-list: the records of the ADR directory, sorted, as
// `find DIR | grep -E "^DIR/[0-9]+-[^/]*\.md" | sort` prints them.
func (t *Tool) List() ([]string, error) {
	if t.listed != nil {
		return t.listed, nil
	}
	dir := t.Dir()
	if !t.isDir(dir) {
		return nil, &Failure{Out: fmt.Sprintf("The %s directory does not exist\n", dir), Code: 1}
	}
	re, err := regexp.Compile("^" + dir + `/[0-9]+-[^/]*\.md`)
	if err != nil {
		re = regexp.MustCompile("^" + regexp.QuoteMeta(dir) + `/[0-9]+-[^/]*\.md`)
	}
	first := regexp.MustCompile(`^[0-9]+-[^/]*\.md`)
	join := func(d, name string) string {
		if strings.HasSuffix(d, "/") {
			return d + name
		}
		return d + "/" + name
	}
	var out []string
	seen := map[string]bool{}
	add := func(p string) {
		if !seen[p] && re.MatchString(p) {
			seen[p] = true
			out = append(out, p)
		}
	}
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if !first.MatchString(e.Name()) {
			continue
		}
		p := join(dir, e.Name())
		add(p)
		if e.IsDir() {
			// Everything under a folder named like a record matches too.
			filepath.WalkDir(p, func(q string, d fs.DirEntry, err error) error {
				if err == nil && q != p {
					add(q)
				}
				return nil
			})
		}
	}
	for k := range t.pending {
		if filepath.Dir(k) == filepath.Clean(dir) {
			add(join(dir, filepath.Base(k)))
		}
	}
	sort.Strings(out)
	if out == nil {
		out = []string{}
	}
	t.listed = out
	return out, nil
}

// File is _adr_file: the first record of `adr list` that the reference,
// a grep pattern, matches ("3", "0003", "use-kafka", a path).
func (t *Tool) File(ref string) (string, error) {
	list, err := t.List()
	if err != nil {
		return "", err
	}
	re, err := compileBRE(ref)
	if err != nil {
		return "", fail(1, "adr: %q is not a pattern grep accepts: %v", ref, err)
	}
	for _, p := range list {
		if re.MatchString(p) {
			return p, nil
		}
	}
	return "", fail(1, "adr: no decision record matches %q", ref)
}

// title is _adr_title: the first line of the record less its first two
// bytes ("# 1. Use X" gives "1. Use X").
func (t *Tool) title(file string) (string, error) {
	data, err := t.read(file)
	if err != nil {
		return "", fail(1, "adr: %v", err)
	}
	line, _, _ := bytes.Cut(data, []byte("\n"))
	if len(line) < 2 {
		return "", nil
	}
	return string(line[2:]), nil
}

// lines splits a file as awk reads it: records end at "\n", and a last
// line without one is a record too.
func lines(data []byte) []string {
	if len(data) == 0 {
		return nil
	}
	s := strings.TrimSuffix(string(data), "\n")
	return strings.Split(s, "\n")
}

// unlines joins what awk printed: every record ends in "\n".
func unlines(ls []string) []byte {
	var b strings.Builder
	for _, l := range ls {
		b.WriteString(l)
		b.WriteByte('\n')
	}
	return []byte(b.String())
}

func basename(p string) string { return path.Base(strings.TrimRight(p, "/")) }
