package memory

import (
	"errors"
	"strings"
	"testing"

	"github.com/git-adr/git-adr/gitops"
	"github.com/git-adr/git-adr/internal/gittest"
)

func add(t *testing.T, s Store, topic, source, text string) *Item {
	t.Helper()
	st, err := s.Load()
	if err != nil {
		t.Fatal(err)
	}
	it, err := s.Add(st, Fields{Topic: topic, Source: source, Text: text})
	if err != nil {
		t.Fatal(err)
	}
	return it
}

func TestStoreChangesAreCommitsWithHistory(t *testing.T) {
	r := gittest.Repo(t)
	s := Store{Repo: r}
	st, err := s.Load()
	if err != nil || st.Commit != "" || len(st.Items) != 0 {
		t.Fatalf("empty memory = %+v, %v", st, err)
	}
	a := add(t, s, "testing", "team chat 2026-01-10", "  We use testscript for CLI tests.\r\n")
	b := add(t, s, "storage", "ADR review", "Orders live in PostgreSQL.")
	if a.Text != "We use testscript for CLI tests." || a.Seq != 1 || b.Seq != 2 || !a.Enabled || a.Revision != 1 {
		t.Errorf("added items = %+v, %+v", a, b)
	}
	st, _ = s.Load()
	if len(st.Items) != 2 || st.Items[0].ID != a.ID || st.Items[1].ID != b.ID {
		t.Fatalf("items = %+v, want a then b", st.Items)
	}
	// Correct, disable, enable, remove: each a commit.
	if _, err := s.Edit(st, a.ID[:6], Fields{Text: "We use testscript for every CLI test."}); err != nil {
		t.Fatal(err)
	}
	st, _ = s.Load()
	if _, err := s.SetEnabled(st, a.ID, false); err != nil {
		t.Fatal(err)
	}
	st, _ = s.Load()
	if got := st.Enabled(); len(got) != 1 || got[0].ID != b.ID {
		t.Errorf("enabled after disable = %+v, want only b", got)
	}
	if _, err := s.SetEnabled(st, a.ID, false); !errors.Is(err, ErrUnchanged) {
		t.Errorf("disabling twice = %v, want ErrUnchanged", err)
	}
	if _, err := s.SetEnabled(st, a.ID, true); err != nil {
		t.Fatal(err)
	}
	st, _ = s.Load()
	if it, _ := st.Resolve(a.ID); it.Revision != 4 || !it.Enabled || it.Text != "We use testscript for every CLI test." {
		t.Errorf("item after edit, disable, enable = %+v", it)
	}
	if _, err := s.Remove(st, a.ID); err != nil {
		t.Fatal(err)
	}
	st, _ = s.Load()
	if _, err := st.Resolve(a.ID); !errors.Is(err, ErrNotFound) {
		t.Errorf("removed item resolves: %v", err)
	}
	if n := strings.Count(gittest.Git(t, r.Top, "log", "--oneline", Ref), "\n"); n != 6 {
		t.Errorf("memory ref has %d commits, want 6 (2 adds, edit, disable, enable, remove)", n)
	}
	hs, err := s.History(a.ID)
	if err != nil || len(hs) != 5 || !strings.HasPrefix(hs[0].Subject, "memory: remove "+a.ID) || !strings.HasPrefix(hs[4].Subject, "memory: add "+a.ID) {
		t.Errorf("history = %+v, %v", hs, err)
	}
	last, _, err := s.Removed(a.ID)
	if err != nil || last.Text != "We use testscript for every CLI test." {
		t.Errorf("removed item's last state = %+v, %v", last, err)
	}
	// The tree holds one JSON file per item.
	if ls := gittest.Git(t, r.Top, "ls-tree", "-r", "--name-only", Ref); ls != Path(b.ID)+"\n" {
		t.Errorf("tree = %q, want only %s", ls, Path(b.ID))
	}
}

func TestStoreCompareAndSwap(t *testing.T) {
	r := gittest.Repo(t)
	s := Store{Repo: r}
	add(t, s, "testing", "chat", "first")
	stale, _ := s.Load()
	add(t, s, "testing", "chat", "second")
	head, _ := r.ResolveRef(Ref)
	_, err := s.Add(stale, Fields{Topic: "t", Source: "s", Text: "third"})
	if !errors.Is(err, ErrChanged) {
		t.Fatalf("a write from a stale state = %v, want ErrChanged", err)
	}
	// The store's own sentinel keeps git's reason for the person.
	if !strings.Contains(err.Error(), Ref) || !strings.Contains(err.Error(), "but expected") {
		t.Errorf("a write from a stale state = %v, want git's reason naming %s", err, Ref)
	}
	if got, _ := r.ResolveRef(Ref); got != head {
		t.Errorf("the ref moved after a lost race")
	}
	// Nothing written before the race is lost, and the stale write left
	// nothing behind.
	now, err := s.Load()
	if err != nil {
		t.Fatal(err)
	}
	var texts []string
	for _, it := range now.Items {
		texts = append(texts, it.Text)
	}
	if strings.Join(texts, "|") != "first|second" {
		t.Errorf("memory after a lost race = %q, want first and second", texts)
	}
	// A first write from an empty state is create-only.
	r2 := gittest.Repo(t)
	s2 := Store{Repo: r2}
	empty, _ := s2.Load()
	add(t, s2, "x", "y", "z")
	if _, err := s2.Add(empty, Fields{Topic: "a", Source: "b", Text: "c"}); !errors.Is(err, ErrChanged) {
		t.Errorf("create over an existing ref = %v, want ErrChanged", err)
	}
}

func TestStoreRefusals(t *testing.T) {
	r := gittest.Repo(t)
	s := Store{Repo: r}
	a := add(t, s, "testing", "chat", "We use testscript.")
	st, _ := s.Load()
	for _, c := range []struct {
		f    Fields
		want string
	}{
		{Fields{Topic: "", Source: "s", Text: "x"}, "topic is empty"},
		{Fields{Topic: "a\nb", Source: "s", Text: "x"}, "topic holds a newline"},
		{Fields{Topic: "t", Source: "s\x1b[31m", Text: "x"}, "source holds a control character"},
		{Fields{Topic: "t", Source: "s", Text: strings.Repeat("é", MaxText+1)}, "text is 1001 characters"},
		{Fields{Topic: "t", Source: "s", Text: "a\u202eb"}, "text holds a control character"},
		{Fields{Topic: "TESTING", Source: "other", Text: "We use testscript."}, "the same memory item exists: " + a.ID},
		{Fields{Topic: "ci", Source: "s", Text: "token " + cat("gh", "p_", fake(alnum, 36, 9))}, "rule github-pat"},
	} {
		_, err := s.Add(st, c.f)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Add(%+v) = %v, want %q", c.f, err, c.want)
		}
	}
	if _, err := s.Edit(st, a.ID, Fields{Text: "We use testscript."}); !errors.Is(err, ErrUnchanged) {
		t.Errorf("an edit that changes nothing = %v, want ErrUnchanged", err)
	}
	if _, err := s.Edit(st, a.ID, Fields{Text: "key " + cat("AK", "IA", fake(upper27, 16, 3))}); err == nil || !strings.Contains(err.Error(), "aws-access-token") {
		t.Errorf("an edit to a secret = %v, want a refusal", err)
	}
	if n := strings.Count(gittest.Git(t, r.Top, "log", "--oneline", Ref), "\n"); n != 1 {
		t.Errorf("refused changes wrote %d commits", n-1)
	}
}

func TestResolve(t *testing.T) {
	st := &State{Items: []*Item{{ID: "m-3f2a9c1d"}, {ID: "m-3f2b0000"}, {ID: "m-aaaa0000"}}}
	for in, want := range map[string]string{"m-3f2a9c1d": "m-3f2a9c1d", "3F2A9": "m-3f2a9c1d", "m-aaaa": "m-aaaa0000"} {
		if it, err := st.Resolve(in); err != nil || it.ID != want {
			t.Errorf("Resolve(%q) = %v, %v; want %s", in, it, err, want)
		}
	}
	if _, err := st.Resolve("m-3f2"); !errors.Is(err, ErrNotFound) {
		t.Errorf("a prefix under four digits = %v, want ErrNotFound", err)
	}
	if _, err := st.Resolve("3f2"); !errors.Is(err, ErrNotFound) {
		t.Errorf("short prefix = %v", err)
	}
	if _, err := st.Resolve("m-3f2a"); err != nil {
		t.Errorf("unique prefix: %v", err)
	}
	st.Items = append(st.Items, &Item{ID: "m-3f2a0000"})
	if _, err := st.Resolve("m-3f2a"); !errors.Is(err, ErrAmbiguous) {
		t.Errorf("ambiguous prefix = %v, want ErrAmbiguous", err)
	}
}

func TestLoadRefusesForeignTrees(t *testing.T) {
	r := gittest.Repo(t)
	s := Store{Repo: r}
	for name, data := range map[string]string{
		"README":                "hello",
		"items/m-zz.json":       "{}",
		"items/m-0000000a.json": `{"version":1,"id":"m-0000000b","seq":1,"topic":"t","source":"s","text":"x","enabled":true,"revision":1}`,
		"items/m-0000000c.json": `{"version":2,"id":"m-0000000c","seq":1,"topic":"t","source":"s","text":"x","enabled":true,"revision":1}`,
		"items/m-0000000d.json": `{"version":1,"id":"m-0000000d","seq":1,"topic":"t","source":"s","text":"x","enabled":true,"revision":1,"extra":1}`,
	} {
		commit, err := r.CommitFiles("", "forged", []gitops.TreeChange{{Path: name, Data: []byte(data)}})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := s.LoadAt(commit); err == nil {
			t.Errorf("a tree with %s loaded", name)
		}
	}
}

func FuzzDecode(f *testing.F) {
	f.Add((&Item{Version: 1, ID: "m-0123abcd", Seq: 1, Topic: "t", Source: "s", Text: "x", Enabled: true, Revision: 1}).Encode())
	f.Add([]byte(`{"version":1}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		it, err := Decode(data)
		if err != nil {
			return
		}
		// What decodes re-encodes to something that decodes the same.
		again, err := Decode(it.Encode())
		if err != nil || *again != *it {
			t.Fatalf("round trip: %+v -> %+v, %v", it, again, err)
		}
	})
}
