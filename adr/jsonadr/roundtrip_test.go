package jsonadr

import (
	"bytes"
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/git-adr/git-adr/adr"
)

// corpora is the folder of shared ADR corpora ($GIT_ADR_CORPORA, else
// ../shared/corpora beside the module); the test skips without it, except
// with CI=true.
func corpora(t *testing.T) string {
	t.Helper()
	d := os.Getenv("GIT_ADR_CORPORA")
	if d == "" {
		d = filepath.Join("..", "..", "..", "shared", "corpora")
	}
	if fi, err := os.Stat(d); err != nil || !fi.IsDir() {
		if os.Getenv("CI") == "true" {
			t.Fatalf("corpora not found at %s (CI=true: the corpora are required)", d)
		}
		t.Skipf("corpora not found at %s", d)
	}
	return d
}

// copyTree copies src into dst, leaving out the files skip names
// (slash-separated, relative).
func copyTree(t *testing.T, src, dst string, skip map[string]bool) {
	t.Helper()
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		if skip[rel] || !d.Type().IsRegular() {
			return nil
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), data, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}

func load(t *testing.T, dir string) *adr.Log {
	t.Helper()
	l, err := adr.Load(os.DirFS(dir), adr.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return l
}

func exportAll(t *testing.T, l *adr.Log) []byte {
	t.Helper()
	d := Export(l, l.Records, ExportOptions{Tool: Tool{Name: "git-adr", Version: "test"}, Today: "2026-01-15"})
	var b bytes.Buffer
	if err := Encode(&b, d); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// TestCorporaRoundTrip exports every record of every shared corpus,
// imports the export into a copy of the corpus without its records, and
// requires every record back byte for byte and the same export from the
// restored log (statuses, relations, numbers, extension fields).
func TestCorporaRoundTrip(t *testing.T) {
	top := corpora(t)
	entries, err := os.ReadDir(top)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, e := range entries {
		if !e.IsDir() {
			continue
		}
		t.Run(e.Name(), func(t *testing.T) {
			orig := t.TempDir()
			copyTree(t, filepath.Join(top, e.Name()), orig, nil)
			l := load(t, orig)
			if len(l.Records) == 0 {
				t.Fatalf("no records found in %s", e.Name())
			}
			n += len(l.Records)
			first := exportAll(t, l)
			// The command writes it one record at a time: the same bytes.
			e := NewExporter(l, l.Records, ExportOptions{Tool: Tool{Name: "git-adr", Version: "test"}, Today: "2026-01-15"})
			var each bytes.Buffer
			if err := EncodeEach(&each, e.Envelope(), len(l.Records), e.ADR); err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(each.Bytes(), first) {
				t.Fatalf("an export written one record at a time differs from the whole one")
			}
			doc, err := Decode(first)
			if err != nil {
				t.Fatalf("decode our own export: %v", err)
			}
			if len(doc.ADRs) != len(l.Records) {
				t.Fatalf("export has %d ADRs, log %d records", len(doc.ADRs), len(l.Records))
			}
			assertSchemaShape(t, first)

			records := map[string]bool{}
			for _, r := range l.Records {
				records[r.Path] = true
			}
			restored := t.TempDir()
			copyTree(t, orig, restored, records)
			root := &adr.Root{Path: "doc/adr", Digits: 4}
			plan, err := PlanImport(doc, ImportOptions{
				Root: root,
				Exists: func(p string) ([]byte, bool) {
					b, err := os.ReadFile(filepath.Join(restored, filepath.FromSlash(p)))
					return b, err == nil
				},
			})
			if err != nil {
				t.Fatalf("plan import: %v", err)
			}
			for _, f := range plan.Files {
				if !f.Lossless {
					t.Errorf("%s: imported from fields, not from its bytes", f.Path)
				}
				p := filepath.Join(restored, filepath.FromSlash(f.Path))
				if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(p, f.Data, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			for _, r := range l.Records {
				want, _ := os.ReadFile(filepath.Join(orig, filepath.FromSlash(r.Path)))
				got, err := os.ReadFile(filepath.Join(restored, filepath.FromSlash(r.Path)))
				if err != nil || !bytes.Equal(got, want) {
					t.Errorf("%s: not restored byte for byte (%v)", r.Path, err)
				}
			}
			second := exportAll(t, load(t, restored))
			if !bytes.Equal(first, second) {
				t.Errorf("the restored log exports differently:\n%s", firstDiff(first, second))
			}
		})
	}
	t.Logf("%d records round-tripped", n)
}

func firstDiff(a, b []byte) string {
	la, lb := bytes.Split(a, []byte("\n")), bytes.Split(b, []byte("\n"))
	for i := 0; i < len(la) && i < len(lb); i++ {
		if !bytes.Equal(la[i], lb[i]) {
			return "line " + itoa(i+1) + ":\n- " + string(la[i]) + "\n+ " + string(lb[i])
		}
	}
	return "lengths differ"
}

func itoa(i int) string { b, _ := json.Marshal(i); return string(b) }

// assertSchemaShape checks an export against the rules of
// schema/json-adr/v1.json that Decode does not apply to its own input:
// every ADR carries a date in YYYY-MM-DD form (format: date) and every
// custom_sections value is a string.
func assertSchemaShape(t *testing.T, data []byte) {
	t.Helper()
	var raw struct {
		ADRs []map[string]any `json:"adrs"`
	}
	if err := json.Unmarshal(data, &raw); err != nil {
		t.Fatal(err)
	}
	for i, a := range raw.ADRs {
		d, _ := a["date"].(string)
		if !isDate(d) {
			t.Errorf("adrs[%d].date = %q, not a date", i, d)
		}
		if n, _ := a["number"].(float64); n < 1 {
			t.Errorf("adrs[%d].number = %v", i, a["number"])
		}
		if cs, ok := a["custom_sections"].(map[string]any); ok {
			for k, v := range cs {
				if _, ok := v.(string); !ok {
					t.Errorf("adrs[%d].custom_sections[%q] is not a string", i, k)
				}
			}
		}
	}
}

func TestDecodeForms(t *testing.T) {
	for _, tc := range []struct {
		name, in string
		err      string
		n        int
	}{
		{"bulk", `{"version":"1.0.0","adrs":[{"number":1,"title":"A","status":"Accepted","date":"2024-01-15"}]}`, "", 1},
		{"single", `{"version":"1.0.0","adr":{"number":2,"title":"B","status":"proposed","date":"2024-01-15"}}`, "", 1},
		{"bare", `{"number":3,"title":"C","status":"accepted","date":"2024-01-15","consequences":"as adrs writes it"}`, "", 1},
		{"structured consequences", `{"number":3,"title":"C","status":"accepted","date":"2024-01-15","consequences":{"positive":["p"],"risks":["r"]}}`, "", 1},
		{"unknown field", `{"version":"1.0.0","adrs":[{"number":1,"title":"A","status":"x","date":"d","color":"red"}]}`, "adrs[0].color: is not a JSON-ADR field", 0},
		{"missing date", `{"version":"1.0.0","adrs":[{"number":1,"title":"A","status":"x"}]}`, "adrs[0].date: is required", 0},
		{"number zero", `{"version":"1.0.0","adrs":[{"number":0,"title":"A","status":"x","date":"d"}]}`, "adrs[0].number: must be an integer from 1 to 999999999, got 0", 0},
		{"fractional number", `{"number":1.5,"title":"A","status":"x","date":"d"}`, "number: must be an integer from 1 to 999999999, got 1.5", 0},
		{"empty title", `{"number":1,"title":"","status":"x","date":"d"}`, "title: must not be empty", 0},
		{"wrong version", `{"version":"2.0.0","adrs":[]}`, `version: "2.0.0" is not JSON-ADR version 1.0.0`, 0},
		{"link target", `{"number":1,"title":"A","status":"x","date":"d","links":[{"type":"supersedes","target":"2"}]}`, "links[0].target: must be an integer", 0},
		{"custom section value", `{"number":1,"title":"A","status":"x","date":"d","custom_sections":{"Notes":1}}`, "custom_sections.Notes: must be a string", 0},
		{"trailing data", `{"number":1,"title":"A","status":"x","date":"d"} {}`, "not a JSON object: data after the JSON value", 0},
		{"array", `[]`, "not a JSON object", 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d, err := Decode([]byte(tc.in))
			if tc.err != "" {
				var je *Error
				if err == nil || !errors.As(err, &je) || err.Error() != tc.err {
					t.Fatalf("Decode error = %v, want %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if len(d.ADRs) != tc.n {
				t.Fatalf("%d ADRs, want %d", len(d.ADRs), tc.n)
			}
		})
	}
}

// TestRenderFromFields: an ADR without record bytes (as adrs exports it)
// becomes a Nygard record that git-adr reads back with its status, date,
// links and sections.
func TestRenderFromFields(t *testing.T) {
	d, err := Decode([]byte(`{"version":"1.0.0","adrs":[
	 {"number":1,"title":"Use MySQL","status":"Superseded","date":"2024-01-10","links":[{"type":"superseded-by","target":2}]},
	 {"number":2,"title":"Use PostgreSQL","status":"Accepted","date":"2024-01-15","context":"We need a database.","decision":"We use PostgreSQL.","consequences":"Backups change.","links":[{"type":"supersedes","target":1}],"tags":["storage"]}]}`))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	root := &adr.Root{Path: "doc/adr", Digits: 4}
	plan, err := PlanImport(d, ImportOptions{Root: root, Exists: func(string) ([]byte, bool) { return nil, false }})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range plan.Files {
		p := filepath.Join(dir, filepath.FromSlash(f.Path))
		os.MkdirAll(filepath.Dir(p), 0o755)
		os.WriteFile(p, f.Data, 0o644)
	}
	want := "# 2. Use PostgreSQL\n\nDate: 2024-01-15\nDomains: storage\n\n## Status\n\nAccepted\n\nSupersedes [1. Use MySQL](0001-use-mysql.md)\n\n## Context\n\nWe need a database.\n\n## Decision\n\nWe use PostgreSQL.\n\n## Consequences\n\nBackups change.\n"
	if got := string(plan.Files[1].Data); got != want {
		t.Fatalf("rendered:\n%s\nwant:\n%s", got, want)
	}
	l := load(t, dir)
	r, err := l.Resolve("2")
	if err != nil {
		t.Fatal(err)
	}
	if r.Status != adr.Accepted || len(r.Relations) != 1 || r.Relations[0].TargetID != "ADR-0001" || !reflect.DeepEqual(r.Domains, []string{"storage"}) {
		t.Fatalf("read back: status %s, relations %+v, domains %v", r.Status, r.Relations, r.Domains)
	}
	old, _ := l.Resolve("1")
	if old.Status != adr.Superseded {
		t.Fatalf("record 1 is %s", old.Status)
	}
}

// TestRenumberImport: --renumber moves imported records past the log's
// numbers and rewrites the links between them, titles included.
func TestRenumberImport(t *testing.T) {
	body1 := "# 1. Use MySQL\n\nDate: 2024-01-10\n\n## Status\n\nSuperseded by [2. Use PostgreSQL](0002-use-postgresql.md)\n"
	body2 := "# 2. Use PostgreSQL\n\nDate: 2024-01-15\n\n## Status\n\nAccepted\n\nSupersedes [1. Use MySQL](0001-use-mysql.md)\n\nSee https://example.com/0001-use-mysql.md too.\n"
	doc := &Document{Version: Version, ADRs: []ADR{
		{Number: 1, Title: "Use MySQL", Status: "superseded", Date: "2024-01-10", Path: "doc/adr/0001-use-mysql.md", CustomSections: map[string]string{KeyBody: body1}},
		{Number: 2, Title: "Use PostgreSQL", Status: "accepted", Date: "2024-01-15", Path: "doc/adr/0002-use-postgresql.md", CustomSections: map[string]string{KeyBody: body2}},
	}}
	next := 0
	plan, err := PlanImport(doc, ImportOptions{
		Root: &adr.Root{Path: "doc/adr", Digits: 4}, Renumber: true,
		Next:   func(string) int { next++; return 7 },
		Exists: func(string) ([]byte, bool) { return nil, false },
	})
	if err != nil {
		t.Fatal(err)
	}
	if next != 1 {
		t.Fatalf("Next called %d times", next)
	}
	if plan.Files[0].Path != "doc/adr/0007-use-mysql.md" || plan.Files[1].Path != "doc/adr/0008-use-postgresql.md" {
		t.Fatalf("paths %s, %s", plan.Files[0].Path, plan.Files[1].Path)
	}
	want2 := "# 8. Use PostgreSQL\n\nDate: 2024-01-15\n\n## Status\n\nAccepted\n\nSupersedes [7. Use MySQL](0007-use-mysql.md)\n\nSee https://example.com/0001-use-mysql.md too.\n"
	if got := string(plan.Files[1].Data); got != want2 {
		t.Fatalf("renumbered:\n%s\nwant:\n%s", got, want2)
	}
	if got := string(plan.Files[0].Data); got != "# 7. Use MySQL\n\nDate: 2024-01-10\n\n## Status\n\nSuperseded by [8. Use PostgreSQL](0008-use-postgresql.md)\n" {
		t.Fatalf("renumbered:\n%s", got)
	}
}

// TestImportConflicts: without --renumber an import never overwrites a
// different file nor reuses a number.
func TestImportConflicts(t *testing.T) {
	doc := &Document{Version: Version, ADRs: []ADR{
		{Number: 1, Title: "A", Status: "accepted", Date: "2024-01-10", Path: "doc/adr/0001-a.md", CustomSections: map[string]string{KeyBody: "# 1. A\n"}},
		{Number: 2, Title: "B", Status: "accepted", Date: "2024-01-10", Path: "doc/adr/0002-b.md", CustomSections: map[string]string{KeyBody: "# 2. B\n"}},
		{Number: 3, Title: "C", Status: "accepted", Date: "2024-01-10", Path: "doc/adr/0003-c.md", CustomSections: map[string]string{KeyBody: "# 3. C\n"}},
	}}
	disk := map[string]string{"doc/adr/0001-a.md": "# 1. A\n", "doc/adr/0002-b.md": "# 2. B, edited\n", "doc/adr/0003-other.md": "# 3. Other\n"}
	_, err := PlanImport(doc, ImportOptions{
		Root:   &adr.Root{Path: "doc/adr", Digits: 4},
		Exists: func(p string) ([]byte, bool) { s, ok := disk[p]; return []byte(s), ok },
		Numbers: func(string) map[int]string {
			return map[int]string{1: "doc/adr/0001-a.md", 2: "doc/adr/0002-b.md", 3: "doc/adr/0003-other.md"}
		},
	})
	var ce *ConflictError
	if !errors.As(err, &ce) {
		t.Fatalf("err = %v", err)
	}
	want := []string{"doc/adr/0002-b.md exists with other content", "number 3 of doc/adr/0003-c.md is taken by doc/adr/0003-other.md"}
	if !reflect.DeepEqual(ce.Conflicts, want) {
		t.Fatalf("conflicts %q, want %q", ce.Conflicts, want)
	}
}

// TestNotUTF8RoundTrip: a record that is not UTF-8 (Latin-1) travels as
// base64 and comes back byte for byte; CRLF and a missing final newline
// survive in the plain form.
func TestNotUTF8RoundTrip(t *testing.T) {
	dir := t.TempDir()
	files := map[string][]byte{
		"doc/adr/0001-latin.md": []byte("# 1. Caf\xe9\n\nDate: 2024-01-01\n\n## Status\n\nAccepted\n"),
		"doc/adr/0002-crlf.md":  []byte("# 2. CRLF\r\n\r\nDate: 2024-01-02\r\n\r\n## Status\r\n\r\nProposed"),
	}
	for p, b := range files {
		os.MkdirAll(filepath.Join(dir, "doc", "adr"), 0o755)
		os.WriteFile(filepath.Join(dir, filepath.FromSlash(p)), b, 0o644)
	}
	data := exportAll(t, load(t, dir))
	doc, err := Decode(data)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := doc.ADRs[0].CustomSections[KeyBodyBase64]; !ok {
		t.Fatalf("the Latin-1 record has no %s: %v", KeyBodyBase64, doc.ADRs[0].CustomSections)
	}
	plan, err := PlanImport(doc, ImportOptions{Root: &adr.Root{Path: "doc/adr"}, Exists: func(string) ([]byte, bool) { return nil, false }})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range plan.Files {
		if !bytes.Equal(f.Data, files[f.Path]) {
			t.Errorf("%s: %q, want %q", f.Path, f.Data, files[f.Path])
		}
	}
}
