package adr

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// What check keeps per log is made from the log's own indexes and kept
// small (check.go, check_links.go): these pin the findings that rest on
// it.

// TestCheckDuplicatesPerRootAndSuffix: a number is taken twice only in one
// root and with one suffix, though the log indexes numbers across roots.
func TestCheckDuplicatesPerRootAndSuffix(t *testing.T) {
	l := chkLoad(t, map[string]string{
		".adr.toml":             "[[roots]]\npath = \"a\"\n\n[[roots]]\npath = \"b\"\n",
		"a/0004-one.md":         chkRecord(4, "One", "Accepted"),
		"a/0004a-inserted.md":   chkRecord(4, "Inserted", "Accepted"),
		"a/0004-two.md":         chkRecord(4, "Two", "Accepted"),
		"b/0004-other-root.md":  chkRecord(4, "Other root", "Accepted"),
		"b/0005-alone.md":       chkRecord(5, "Alone", "Accepted"),
		"a/0007-three.md":       chkRecord(7, "Three", "Accepted"),
		"a/0007-three-again.md": chkRecord(7, "Three again", "Accepted"),
		"a/0007-three-more.md":  chkRecord(7, "Three more", "Accepted"),
	})
	var got []string
	for _, f := range chkKinds(l.Check(CheckOptions{}), KindDuplicateID) {
		got = append(got, f.Path+": "+f.Message)
	}
	want := []string{
		"a/0004-two.md: ADR-0004 is also used by a/0004-one.md",
		"a/0007-three-more.md: ADR-0007 is also used by a/0007-three-again.md",
		"a/0007-three.md: ADR-0007 is also used by a/0007-three-again.md",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("duplicate-id findings:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestCheckLinkCase: a link is looked up as written, then by case; a
// folder named in another case and a name two files share in case are
// told apart.
func TestCheckLinkCase(t *testing.T) {
	l := chkLoad(t, map[string]string{
		"doc/adr/0001-a.md": chkRecord(1, "A", "Accepted",
			"[exact](0002-b.md)",
			"[case](0002-B.md)",
			"[folder case](../Design/notes.md)",
			"[folder as written](../design/notes.md)",
			"[ambiguous](../design/twice.md)",
			"[missing](../design/none.md)",
			"[deeper](../design/sub/Deep.md)"),
		"doc/adr/0002-b.md":      chkRecord(2, "B", "Accepted"),
		"doc/design/notes.md":    "notes\n",
		"doc/design/Twice.md":    "one\n",
		"doc/design/TWICE.md":    "two\n",
		"doc/design/sub/deep.md": "deep\n",
	})
	var got []string
	for _, f := range chkKinds(l.Check(CheckOptions{}), KindBrokenReference) {
		got = append(got, f.Message)
	}
	want := []string{
		`link to "0002-B.md" differs in case from doc/adr/0002-b.md`,
		`link to "../Design/notes.md" differs in case from doc/design/notes.md`,
		`link to "../design/twice.md": doc/design/twice.md does not exist`,
		`link to "../design/none.md": doc/design/none.md does not exist`,
		`link to "../design/sub/Deep.md" differs in case from doc/design/sub/deep.md`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("broken-reference findings:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestSentenceEnd: the end of a sentence is its first "." or ";" outside
// inline links, as masking the links with as many other bytes finds it.
func TestSentenceEnd(t *testing.T) {
	masked := func(s string) int {
		return strings.IndexAny(inlineLink.ReplaceAllStringFunc(s, func(l string) string { return strings.Repeat("x", len(l)) }), ".;")
	}
	for _, s := range []string{
		"",
		"ADR-0019.",
		" [4. Use Kafka](0004-use-kafka.md). Then more",
		" [4. Use Kafka](0004-use-kafka.md); [5. x](0005-x.md).",
		" [a](x.md)[b. c](y.md) and d; e",
		" ![img. alt](pic.png) no end",
		" [unclosed. link](x.md",
		" é. [x](y.md)",
	} {
		if got, want := sentenceEnd(s), masked(s); got != want {
			t.Errorf("sentenceEnd(%q) = %d, want %d", s, got, want)
		}
	}
}

// TestHoldsBy: a line the phrase of a supersession matches holds "by",
// so the lines that do not are skipped without the regular expression.
func TestHoldsBy(t *testing.T) {
	for _, line := range []string{
		"Superseded by ADR-0019.",
		"REPLACED BY [4. Use Kafka](0004-use-kafka.md)",
		"This decision was superseeded in 2024 bY the next one",
		"Obsoleted\u00a0by x",
	} {
		if supersededPhrase.FindStringIndex(line) == nil {
			t.Fatalf("supersededPhrase does not match %q", line)
		}
		if !holdsBy([]byte(line)) {
			t.Errorf("holdsBy(%q) = false for a line the phrase matches", line)
		}
	}
	for _, line := range []string{"", "b", "Superseded, b y", "replaced in part"} {
		if holdsBy([]byte(line)) {
			t.Errorf("holdsBy(%q) = true", line)
		}
	}
}

// TestCheckServedReadsNoText: a check of a log the parse cache serves
// reads no record's file (what it reads of a text comes with the record
// from the cache; only a fix that quotes a line, such as a title's,
// reads it), and finds what a check of the parsed log finds: here a
// broken link, a one-way supersession and a record whose prose says it
// was superseded.
func TestCheckServedReadsNoText(t *testing.T) {
	laterClock(t)
	dir := t.TempDir()
	files := map[string]string{
		"0001-use-mysql.md":    "# 1. Use MySQL\n\n## Status\n\nAccepted\n\nThis decision was superseded by ADR-0002.\n\n## Decision\n\nMySQL. See [the guide](guide.md).\n",
		"0002-use-postgres.md": "# 2. Use Postgres\n\n## Status\n\nAccepted\n\nSupersedes [1. Use MySQL](0001-use-mysql.md)\n\n## Decision\n\nPostgres.\n",
		"0003-logging.md":      "---\nstatus: accepted\n---\n# 3. Logging\n\n## Decision\n\nJSON lines, as [2](0002-use-postgres.md) logs.\n",
		"0004-queues.md":       "# 4. Queues\n\n## Status\n\nAccepted\n\n## Decision\n\nRabbitMQ. This decision was superseded by [3. Logging](0003-logging.md).\n",
	}
	os.MkdirAll(filepath.Join(dir, "doc", "adr"), 0o755)
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, "doc", "adr", name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	kinds := func(rep *CheckReport) string {
		var out []string
		for _, f := range rep.Findings {
			out = append(out, fmt.Sprintf("%s %s:%d %s", f.Kind, f.Path, f.Line, f.Message))
		}
		return strings.Join(out, "\n")
	}
	parsed, err := Load(os.DirFS(dir), LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	want := kinds(parsed.Check(CheckOptions{}))
	if !strings.Contains(want, string(KindBrokenReference)) || !strings.Contains(want, string(KindLikelySupersession)) {
		t.Fatalf("the test's log lacks the findings it is for:\n%s", want)
	}
	cdir := t.TempDir()
	c := OpenCache(cdir, false)
	if _, err := Load(os.DirFS(dir), LoadOptions{Cache: c}); err != nil {
		t.Fatal(err)
	}
	saveAged(t, c)
	counting := &countingFS{FS: os.DirFS(dir), reads: map[string]int{}}
	served, err := Load(counting, LoadOptions{Cache: OpenCache(cdir, false)})
	if err != nil {
		t.Fatal(err)
	}
	for name, n := range counting.reads {
		if strings.HasPrefix(name, "doc/adr/0") {
			t.Fatalf("the load read %s %d times: the test needs the log served by the cache", name, n)
		}
	}
	if got := kinds(served.Check(CheckOptions{})); got != want {
		t.Errorf("served check:\n%s\nparsed check:\n%s", got, want)
	}
	for name, n := range counting.reads {
		if strings.HasPrefix(name, "doc/adr/0") {
			t.Errorf("check of a served log read %s %d times", name, n)
		}
	}
}
