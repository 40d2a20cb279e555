package adr_test

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/git-adr/git-adr/adr"
)

// The corpus test loads every real ADR log under the corpora folder (one
// folder per public repository, each with a SOURCE.txt describing it) with
// no configuration and checks the parser against what SOURCE.txt says:
// record count, byte-exact round trip, statuses and formal relations. The
// folder names are not hard-coded: any folder with a SOURCE.txt in the same
// format is checked.

// corporaDir finds the corpora: $GIT_ADR_CORPORA, else ../shared/corpora
// beside the module root. It skips the test when neither exists, except
// in CI (CI=true), where missing corpora fail it: a CI run that checked
// no real log would pass for the wrong reason.
func corporaDir(t *testing.T) string {
	t.Helper()
	missing := func(format string, args ...any) {
		t.Helper()
		if os.Getenv("CI") == "true" {
			t.Fatalf(format+" (CI=true: the corpora are required)", args...)
		}
		t.Skipf(format, args...)
	}
	if d := os.Getenv("GIT_ADR_CORPORA"); d != "" {
		if fi, err := os.Stat(d); err != nil || !fi.IsDir() {
			missing("corpora not found at GIT_ADR_CORPORA=%q", d)
		}
		return d
	}
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	root := wd
	for {
		if _, err := os.Stat(filepath.Join(root, "go.mod")); err == nil {
			break
		}
		parent := filepath.Dir(root)
		if parent == root {
			missing("corpora not found: no go.mod above %s and GIT_ADR_CORPORA is unset", wd)
		}
		root = parent
	}
	d := filepath.Join(root, "..", "shared", "corpora")
	if fi, err := os.Stat(d); err != nil || !fi.IsDir() {
		missing("corpora not found at %s (set GIT_ADR_CORPORA to a folder of corpora)", filepath.Clean(d))
	}
	return d
}

// extraCorpora are the folders named by $GIT_ADR_EXTRA_CORPORA
// (colon-separated), each laid out like the shared corpora: logs collected
// by hand are checked without a code change. A named folder that does not
// exist fails the test rather than being skipped quietly.
func extraCorpora(t *testing.T) []string {
	t.Helper()
	var out []string
	for _, d := range filepath.SplitList(os.Getenv("GIT_ADR_EXTRA_CORPORA")) {
		if d == "" {
			continue
		}
		if fi, err := os.Stat(d); err != nil || !fi.IsDir() {
			t.Errorf("GIT_ADR_EXTRA_CORPORA names %q, which is not a folder", d)
			continue
		}
		out = append(out, d)
	}
	return out
}

// corpusDirs lists every corpus (a folder holding a SOURCE.txt) of the
// shared corpora and of the extra ones, by a name unique among them.
func corpusDirs(t *testing.T) (names, dirs []string) {
	t.Helper()
	seen := map[string]bool{}
	for i, top := range append([]string{corporaDir(t)}, extraCorpora(t)...) {
		entries, err := os.ReadDir(top)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range entries {
			dir := filepath.Join(top, e.Name())
			if !e.IsDir() || !fileExists(filepath.Join(dir, "SOURCE.txt")) {
				continue
			}
			name := e.Name()
			if seen[name] {
				name = fmt.Sprintf("extra%d/%s", i, e.Name())
			}
			seen[name] = true
			names, dirs = append(names, name), append(dirs, dir)
		}
	}
	return names, dirs
}

// source is what a corpus' SOURCE.txt says about it.
type source struct {
	records  int
	statuses string
	links    string
}

var recordsLine = regexp.MustCompile(`^(\d+)\b`)

func readSource(file string) (source, error) {
	var s source
	f, err := os.Open(file)
	if err != nil {
		return s, err
	}
	defer f.Close()
	s.records = -1
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		key, val, ok := strings.Cut(sc.Text(), ":")
		if !ok {
			continue
		}
		val = strings.TrimSpace(val)
		switch key {
		case "records":
			m := recordsLine.FindStringSubmatch(val)
			if m == nil {
				return s, fmt.Errorf("%s: records line %q has no count", file, val)
			}
			s.records, _ = strconv.Atoi(m[1])
		case "statuses":
			s.statuses = val
		case "supersession/links":
			s.links = val
		}
	}
	if err := sc.Err(); err != nil {
		return s, err
	}
	if s.records < 0 {
		return s, fmt.Errorf("%s: no \"records: N\" line", file)
	}
	return s, nil
}

func TestCorpora(t *testing.T) {
	names, dirs := corpusDirs(t)
	if len(dirs) == 0 {
		t.Fatalf("no corpus (folder with SOURCE.txt) in the corpora folders")
	}
	for i, dir := range dirs {
		t.Run(names[i], func(t *testing.T) {
			checkCorpus(t, dir, filepath.Join(dir, "SOURCE.txt"))
		})
	}
}

func checkCorpus(t *testing.T, dir, srcFile string) {
	src, err := readSource(srcFile)
	if err != nil {
		t.Fatal(err)
	}
	log, err := adr.Load(os.DirFS(dir), adr.LoadOptions{})
	if err != nil {
		t.Fatalf("Load: %v", err)
	}
	if len(log.Records) != src.records {
		var ps []string
		for _, r := range log.Records {
			ps = append(ps, r.Path)
		}
		t.Errorf("Load found %d records, SOURCE.txt says %d:\n  %s", len(log.Records), src.records, strings.Join(ps, "\n  "))
	}

	for _, r := range log.Records {
		data, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(r.Path)))
		if err != nil {
			t.Errorf("%s: %v", r.Path, err)
			continue
		}
		if got := r.Text().Apply(); !bytes.Equal(got, data) {
			t.Errorf("%s: Text.Apply() with no edits differs from the file (%d bytes, want %d)", r.Path, len(got), len(data))
		}
		if got := adr.Parse(data).Text().Src; !bytes.Equal(got, data) {
			t.Errorf("%s: Parse(file).Text.Src differs from the file", r.Path)
		}
	}

	if src.statuses == "" {
		t.Logf("SOURCE.txt has no statuses line; statuses not checked")
	} else {
		items, err := parseStatusesLine(src.statuses)
		if err != nil {
			t.Fatalf("cannot parse statuses line %q: %v", src.statuses, err)
		}
		checkStatuses(t, log.Records, items)
	}

	claims, err := parseLinkClaims(src.links)
	if err != nil {
		t.Fatalf("cannot parse supersession/links line %q: %v", src.links, err)
	}
	checkLinkClaims(t, dir, log, claims)
}
