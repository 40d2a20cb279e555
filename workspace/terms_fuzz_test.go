package workspace

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/git-adr/git-adr/retrieve"
)

// FuzzTermsSummary: a summary file is read back only through scoreTerms
// and lookup. Whatever bytes stand in the file (damaged, truncated,
// unsorted, hostile), reading it never panics or hangs; and a summary the
// encoder wrote finds every one of its terms' postings again.
func FuzzTermsSummary(f *testing.F) {
	f.Add([]byte(termsFormat+"\ncommit c0ffee\nrecords 2 2\nalpha\t0:1\nbeta\t1:2,0:0.5\n"), "alpha beta gamma")
	f.Add([]byte(termsFormat+"\ncommit c0ffee\nrecords 1 x\n"), "alpha")
	f.Add([]byte("zeta\t0:1\nalpha\t1:NaN\n\n\t:\n"), "zeta alpha")
	f.Fuzz(func(t *testing.T, data []byte, words string) {
		// Decoding arbitrary bytes, with the stamp this member expects.
		dir := t.TempDir()
		m := &Member{Name: "m", URL: "file:///x", Mirror: dir}
		at := summaryAt{commit: "c0ffee", path: m.summary().path}
		p := at.path
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		var q []retrieve.QueryTerm
		for i, word := range strings.Fields(words) {
			q = append(q, retrieve.QueryTerm{Text: word, Weight: 1, Group: i})
		}
		var buf []byte
		scoreTerms(at, q, &buf)
		for _, qt := range q {
			lookup(data, qt.Text)
		}

		// Encoding terms made of the words, then finding each again.
		terms := &Terms{Commit: "c0ffee", Records: 3, Docs: 3, Postings: map[string][]posting{}}
		for i, word := range strings.Fields(words) {
			if strings.ContainsAny(word, "\t\n") {
				continue // analysis never makes such a term
			}
			terms.Postings[word] = []posting{{doc: i % 3, score: float32(i) + 0.5}}
		}
		enc := terms.encode()
		header := termsFormat + "\ncommit c0ffee\nrecords 3 3\n"
		if !strings.HasPrefix(string(enc), header) {
			t.Fatalf("encoded summary starts %q", enc[:min(len(enc), 60)])
		}
		body := enc[len(header):]
		for word, ps := range terms.Postings {
			got := string(lookup(body, word))
			want := strings.TrimPrefix(string(encodePostings(ps)), "\t")
			if got != want {
				t.Fatalf("lookup(%q) = %q, want %q", word, got, want)
			}
		}
	})
}

// encodePostings is one term's postings as encode writes them.
func encodePostings(ps []posting) []byte {
	t := &Terms{Postings: map[string][]posting{"x": ps}}
	line := string(t.encode())
	_, post, _ := strings.Cut(line[strings.LastIndex(strings.TrimSuffix(line, "\n"), "\n")+1:], "\t")
	return []byte(strings.TrimSuffix(post, "\n"))
}
