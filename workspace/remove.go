package workspace

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"slices"
	"strings"

	"github.com/BurntSushi/toml"
	"github.com/git-adr/git-adr/internal/failpoint"
)

// ErrNotEditable means a workspace file does not write the member to
// remove as a [[repo]] block of its own, which is all Remove edits.
var ErrNotEditable = errors.New("does not write it as a [[repo]] block of its own")

// Remove takes the member named name (case-insensitive) out of the
// workspace file at file, under the file's lock as [Add] edits it: the
// lines of its [[repo]] block go, with the comment lines just above its
// header (they describe it) and the blank lines after it; every other
// line stays as it is. The result must load, naming every other member
// as before, or nothing is written (a file that writes its repositories
// some other way, an inline array of tables, is left to an editor:
// [ErrNotEditable]). It returns the member removed; its mirror, if it
// has one, stays in the cache until `git adr workspace prune`.
func Remove(file, name, command string) (*Member, error) {
	abs, real, lock, err := lockFile(file, command)
	if err != nil {
		return nil, err
	}
	defer lock.Release()
	data, err := readFile(abs)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, &Error{File: file, Msg: "no such file", Hint: "name the workspace file after the command, or with --workspace / " + EnvVar}
	}
	if err != nil {
		return nil, withFile(err, file)
	}
	w, err := decode(file, abs, data, os.TempDir())
	if err != nil {
		return nil, err
	}
	gone := w.Member(name)
	if gone == nil {
		names := make([]string, len(w.Members))
		for i, m := range w.Members {
			names[i] = m.Name
		}
		return nil, &UnknownMemberError{Name: name, Names: names}
	}
	if len(w.Members) == 1 {
		return nil, &Error{File: file, Member: gone.Name, Msg: "is the only repository it names (a workspace file names at least one)", Hint: "remove the file itself, or add another repository first"}
	}
	text, ok := withoutBlock(data, gone.Name)
	if !ok {
		return nil, fmt.Errorf("workspace %s: repo %q: the file %w; edit it by hand", file, gone.Name, ErrNotEditable)
	}
	// The edit must take out that member and nothing else.
	after, err := decode(file, abs, text, os.TempDir())
	var want []string
	for _, m := range w.Members {
		if m != gone {
			want = append(want, m.Name+"\x00"+m.Source())
		}
	}
	var got []string
	if err == nil {
		for _, m := range after.Members {
			got = append(got, m.Name+"\x00"+m.Source())
		}
	}
	if err != nil || !slices.Equal(got, want) {
		return nil, fmt.Errorf("workspace %s: repo %q: the file %w; edit it by hand", file, gone.Name, ErrNotEditable)
	}
	// The kill test stops the removal here, under the lock, nothing
	// written.
	failpoint.Hit("workspace-remove-write")
	if err := writeEdit(real, text, false); err != nil {
		return nil, err
	}
	return gone, nil
}

// withoutBlock is data without the [[repo]] block that names name (its
// header to the last line before the next table header, blank and
// comment lines at its end left to what follows), the comment lines
// right above its header, and the blank lines after it. ok is false
// when no block of its own names it.
func withoutBlock(data []byte, name string) ([]byte, bool) {
	lines := bytes.SplitAfter(data, []byte("\n"))
	header := func(l []byte) bool {
		t := strings.TrimSpace(string(l))
		return strings.HasPrefix(t, "[")
	}
	isRepo := func(l []byte) bool {
		t := strings.TrimSpace(string(l))
		if i := strings.IndexByte(t, '#'); i >= 0 {
			t = strings.TrimSpace(t[:i])
		}
		return strings.ReplaceAll(t, " ", "") == "[[repo]]"
	}
	blank := func(l []byte) bool { return strings.TrimSpace(string(l)) == "" }
	comment := func(l []byte) bool { return strings.HasPrefix(strings.TrimSpace(string(l)), "#") }
	for start := 0; start < len(lines); start++ {
		if !isRepo(lines[start]) {
			continue
		}
		end := start + 1
		for end < len(lines) && !header(lines[end]) {
			end++
		}
		// Blank and comment lines at the end of a block go with what
		// follows it.
		last := end
		for last > start+1 && (blank(lines[last-1]) || comment(lines[last-1])) {
			last--
		}
		var one struct {
			Repo []struct {
				Name string `toml:"name"`
			} `toml:"repo"`
		}
		block := bytes.Join(lines[start:last], nil)
		if _, err := toml.Decode(string(block), &one); err != nil || len(one.Repo) != 1 || !strings.EqualFold(one.Repo[0].Name, name) {
			continue
		}
		from := start
		for from > 0 && comment(lines[from-1]) {
			from--
		}
		to := last
		for to < end && blank(lines[to]) {
			to++
		}
		if to == len(lines) {
			// The last block: the blank lines before it go instead.
			for from > 0 && blank(lines[from-1]) {
				from--
			}
		}
		out := bytes.Join(lines[:from], nil)
		return append(out, bytes.Join(lines[to:], nil)...), true
	}
	return nil, false
}
