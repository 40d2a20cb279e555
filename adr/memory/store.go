package memory

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strconv"
	"strings"

	"github.com/git-adr/git-adr/gitops"
)

// Errors of the store; callers test them with errors.Is.
var (
	// ErrNotFound means no item has that ID.
	ErrNotFound = errors.New("no such memory item")
	// ErrAmbiguous means an ID prefix names several items.
	ErrAmbiguous = errors.New("ambiguous memory item ID")
	// ErrDuplicate means an item with the same topic and text exists
	// (see [DuplicateError]).
	ErrDuplicate = errors.New("the same memory item exists")
	// ErrUnchanged means a change would leave the item as it is.
	ErrUnchanged = errors.New("nothing to change")
	// ErrChanged means another process moved the memory ref first.
	ErrChanged = errors.New("the memory changed concurrently")
)

// DuplicateError names the item a new or corrected item would repeat.
type DuplicateError struct{ ID string }

func (e *DuplicateError) Error() string { return fmt.Sprintf("%v: %s", ErrDuplicate, e.ID) }
func (e *DuplicateError) Unwrap() error { return ErrDuplicate }

// Store is the memory of one repository, on [Ref].
type Store struct {
	Repo *gitops.Repo
}

// State is the memory at one commit of [Ref].
type State struct {
	// Commit is the ref's commit ("" when there is no memory yet): every
	// change made from this state moves the ref from it.
	Commit string
	// Items in the order they were added (Seq, then ID).
	Items []*Item
}

// Load reads the memory as the ref holds it now.
func (s Store) Load() (*State, error) {
	commit, err := s.head()
	if err != nil || commit == "" {
		return &State{}, err
	}
	return s.LoadAt(commit)
}

// head is the ref's commit, "" when there is none.
func (s Store) head() (string, error) {
	refs, err := s.Repo.Refs(Ref)
	if err != nil {
		return "", err
	}
	for _, r := range refs {
		if r.Name == Ref {
			return r.Hash, nil
		}
	}
	return "", nil
}

// LoadAt reads the memory at a commit of the ref. A tree git-adr would not
// have written (another file, a file not named after its item, a bad
// item) is an error naming the file.
func (s Store) LoadAt(commit string) (*State, error) {
	fsys, err := s.Repo.TreeFS(commit)
	if err != nil {
		return nil, err
	}
	st := &State{Commit: commit}
	top, err := fs.ReadDir(fsys, ".")
	if err != nil {
		return nil, err
	}
	for _, e := range top {
		if e.Name() != Dir || !e.IsDir() {
			return nil, fmt.Errorf("%s:%s is not a memory item file; the ref was not written by git-adr", Ref, e.Name())
		}
	}
	entries, err := fs.ReadDir(fsys, Dir)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	for _, e := range entries {
		name := path.Join(Dir, e.Name())
		id, ok := strings.CutSuffix(e.Name(), ".json")
		if !ok || !ValidID(id) || !e.Type().IsRegular() {
			return nil, fmt.Errorf("%s:%s is not a memory item file; the ref was not written by git-adr", Ref, name)
		}
		data, err := fs.ReadFile(fsys, name)
		if err != nil {
			return nil, err
		}
		it, err := Decode(data)
		if err != nil {
			return nil, fmt.Errorf("%s:%s: %w", Ref, name, err)
		}
		if it.ID != id {
			return nil, fmt.Errorf("%s:%s holds item %s", Ref, name, it.ID)
		}
		st.Items = append(st.Items, it)
	}
	sort.Slice(st.Items, func(i, j int) bool {
		a, b := st.Items[i], st.Items[j]
		if a.Seq != b.Seq {
			return a.Seq < b.Seq
		}
		return a.ID < b.ID
	})
	return st, nil
}

// Enabled returns the enabled items, in order.
func (st *State) Enabled() []*Item {
	var out []*Item
	for _, it := range st.Items {
		if it.Enabled {
			out = append(out, it)
		}
	}
	return out
}

// Resolve finds an item by its ID or a unique beginning of it of at least
// four hex digits ("m-3f2a", "3f2a9c1d").
func (st *State) Resolve(id string) (*Item, error) {
	id = strings.ToLower(strings.TrimSpace(id))
	if !strings.HasPrefix(id, "m-") {
		id = "m-" + id
	}
	var found []*Item
	for _, it := range st.Items {
		if it.ID == id {
			return it, nil
		}
		if len(id) >= len("m-")+4 && strings.HasPrefix(it.ID, id) {
			found = append(found, it)
		}
	}
	switch len(found) {
	case 0:
		return nil, fmt.Errorf("%w %q", ErrNotFound, id)
	case 1:
		return found[0], nil
	}
	var ids []string
	for _, it := range found {
		ids = append(ids, it.ID)
	}
	return nil, fmt.Errorf("%w %q: it begins %s", ErrAmbiguous, id, strings.Join(ids, ", "))
}

// duplicate returns an item other than skip with the same topic (ignoring
// case) and text.
func (st *State) duplicate(f Fields, skip *Item) *Item {
	for _, it := range st.Items {
		if it != skip && strings.EqualFold(it.Topic, f.Topic) && it.Text == f.Text {
			return it
		}
	}
	return nil
}

// prepare normalizes and checks fields, refusing secrets.
func prepare(f Fields) (Fields, error) {
	f = f.Normalize()
	if err := f.Check(); err != nil {
		return f, err
	}
	if err := ScanFields(f); err != nil {
		return f, err
	}
	return f, nil
}

// Add saves a new enabled item made from st. Nothing is written when the
// fields are invalid, hold a secret or repeat an existing item.
func (s Store) Add(st *State, f Fields) (*Item, error) {
	f, err := prepare(f)
	if err != nil {
		return nil, err
	}
	if d := st.duplicate(f, nil); d != nil {
		return nil, &DuplicateError{ID: d.ID}
	}
	seq := 1
	for _, it := range st.Items {
		seq = max(seq, it.Seq+1)
	}
	it := &Item{Version: Version, Seq: seq, Topic: f.Topic, Source: f.Source, Text: f.Text, Enabled: true, Revision: 1}
	it.ID = newID(st, it)
	msg := fmt.Sprintf("memory: add %s (topic: %s)\n", it.ID, it.Topic)
	return it, s.write(st, msg, gitops.TreeChange{Path: it.Path(), Data: it.Encode()})
}

// newID derives an ID from the state it is added to and the item's
// content: deterministic, and distinct from every existing item.
func newID(st *State, it *Item) string {
	for salt := 0; ; salt++ {
		h := sha256.New()
		for _, v := range []string{st.Commit, it.Topic, it.Source, it.Text, strconv.Itoa(it.Seq), strconv.Itoa(salt)} {
			h.Write([]byte(v))
			h.Write([]byte{0})
		}
		id := "m-" + hex.EncodeToString(h.Sum(nil))[:8]
		taken := false
		for _, o := range st.Items {
			taken = taken || o.ID == id
		}
		if !taken {
			return id
		}
	}
}

// Edit corrects an item: each non-empty field of f replaces the item's.
func (s Store) Edit(st *State, id string, f Fields) (*Item, error) {
	old, err := st.Resolve(id)
	if err != nil {
		return nil, err
	}
	next := Fields{Topic: old.Topic, Source: old.Source, Text: old.Text}
	for _, c := range []struct{ give, dst *string }{{&f.Topic, &next.Topic}, {&f.Source, &next.Source}, {&f.Text, &next.Text}} {
		if *c.give != "" {
			*c.dst = *c.give
		}
	}
	next, err = prepare(next)
	if err != nil {
		return nil, err
	}
	var changed []string
	for _, c := range []struct{ name, a, b string }{{"topic", old.Topic, next.Topic}, {"source", old.Source, next.Source}, {"text", old.Text, next.Text}} {
		if c.a != c.b {
			changed = append(changed, c.name)
		}
	}
	if len(changed) == 0 {
		return nil, fmt.Errorf("%w: %s already holds that", ErrUnchanged, old.ID)
	}
	if d := st.duplicate(next, old); d != nil {
		return nil, &DuplicateError{ID: d.ID}
	}
	it := *old
	it.Topic, it.Source, it.Text = next.Topic, next.Source, next.Text
	it.Revision++
	msg := fmt.Sprintf("memory: edit %s (%s)\n", it.ID, strings.Join(changed, ", "))
	return &it, s.write(st, msg, gitops.TreeChange{Path: it.Path(), Data: it.Encode()})
}

// SetEnabled enables or disables an item. A disabled item stays in the
// memory (list --all shows it) but is never used in an answer.
func (s Store) SetEnabled(st *State, id string, on bool) (*Item, error) {
	old, err := st.Resolve(id)
	if err != nil {
		return nil, err
	}
	verb := map[bool]string{true: "enabled", false: "disabled"}[on]
	if old.Enabled == on {
		return nil, fmt.Errorf("%w: %s is already %s", ErrUnchanged, old.ID, verb)
	}
	it := *old
	it.Enabled = on
	it.Revision++
	msg := fmt.Sprintf("memory: %s %s\n", strings.TrimSuffix(verb, "d"), it.ID)
	return &it, s.write(st, msg, gitops.TreeChange{Path: it.Path(), Data: it.Encode()})
}

// Remove deletes an item from the memory. Its earlier states stay in the
// ref's history (see [Store.History]).
func (s Store) Remove(st *State, id string) (*Item, error) {
	old, err := st.Resolve(id)
	if err != nil {
		return nil, err
	}
	msg := fmt.Sprintf("memory: remove %s (topic: %s)\n", old.ID, old.Topic)
	return old, s.write(st, msg, gitops.TreeChange{Path: old.Path(), Delete: true})
}

// write commits one change on top of st and moves the ref from st.Commit,
// compare-and-swap.
func (s Store) write(st *State, msg string, change gitops.TreeChange) error {
	tree, err := s.Repo.BuildTree(st.Commit, []gitops.TreeChange{change})
	if err != nil {
		return err
	}
	var parents []string
	old := gitops.ZeroHash
	if st.Commit != "" {
		parents, old = []string{st.Commit}, st.Commit
	}
	commit, err := s.Repo.CommitTree(gitops.CommitOptions{Tree: tree, Parents: parents, Message: msg})
	if err != nil {
		return err
	}
	err = s.Repo.UpdateRefs(strings.TrimSpace(msg), gitops.RefUpdate{Name: Ref, New: commit, Old: old})
	if errors.Is(err, gitops.ErrRefChanged) {
		return fmt.Errorf("%w: %v", ErrChanged, err)
	}
	return err
}

// Change is one commit of the memory that touched an item.
type Change struct {
	Commit  string `json:"commit"`
	Date    string `json:"date"`
	Author  string `json:"author"`
	Subject string `json:"subject"`
}

// History lists the commits that touched an item, newest first.
func (s Store) History(id string) ([]Change, error) {
	if !ValidID(id) {
		return nil, fmt.Errorf("%w %q", ErrNotFound, id)
	}
	head, err := s.head()
	if err != nil || head == "" {
		return nil, err
	}
	out, err := s.Repo.Git("log", "--format=%H%x00%cI%x00%an <%ae>%x00%s", head, "--", Path(id))
	if err != nil {
		return nil, err
	}
	var hs []Change
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		f := strings.Split(line, "\x00")
		if len(f) == 4 {
			hs = append(hs, Change{Commit: f[0], Date: f[1], Author: f[2], Subject: f[3]})
		}
	}
	return hs, nil
}

// Removed returns the last state of an item that was removed from the
// memory, from its history; ErrNotFound when it never existed.
func (s Store) Removed(id string) (*Item, []Change, error) {
	hs, err := s.History(id)
	if err != nil {
		return nil, nil, err
	}
	if len(hs) == 0 {
		return nil, nil, fmt.Errorf("%w %q", ErrNotFound, id)
	}
	// The newest change removed it; the state before holds its last text.
	data, err := s.Repo.ReadBlobAt(hs[0].Commit+"^", Path(id))
	if err != nil {
		return nil, nil, err
	}
	it, err := Decode(data)
	return it, hs, err
}
