package audit

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/git-adr/git-adr/adr"
)

// declaredKinds are the string constants of a finding kind or governance
// rule type (FindingKind, Rule, govern.Rule) declared in the non-test Go
// files of dir.
func declaredKinds(t *testing.T, dir string) []string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(token.NewFileSet(), name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range f.Decls {
			g, ok := d.(*ast.GenDecl)
			if !ok || g.Tok != token.CONST {
				continue
			}
			for _, s := range g.Specs {
				vs := s.(*ast.ValueSpec)
				var typ string
				switch tt := vs.Type.(type) {
				case *ast.Ident:
					typ = tt.Name
				case *ast.SelectorExpr:
					typ = tt.Sel.Name
				}
				if typ != "FindingKind" && typ != "Rule" {
					continue
				}
				for _, v := range vs.Values {
					if lit, ok := v.(*ast.BasicLit); ok && lit.Kind == token.STRING {
						s, _ := strconv.Unquote(lit.Value)
						out = append(out, s)
					}
				}
			}
		}
	}
	return out
}

// Every finding kind the log declares, and every rule of the pre-commit
// hook and of the ledger that --since applies, is one Run can report.
func TestKindsComplete(t *testing.T) {
	kinds := Kinds()
	var declared []string
	for _, dir := range []string{"..", "../govern", "../ledger"} {
		declared = append(declared, declaredKinds(t, dir)...)
	}
	if len(declared) < 30 {
		t.Fatalf("found only %d declared kinds: the scan misses their declarations", len(declared))
	}
	for _, k := range declared {
		if !slices.Contains(kinds, adr.FindingKind(k)) {
			t.Errorf("kind %q is declared but not in audit.Kinds", k)
		}
	}
	seen := map[adr.FindingKind]bool{}
	for _, k := range kinds {
		if seen[k] {
			t.Errorf("kind %q is listed twice", k)
		}
		seen[k] = true
	}
}

// Every kind check can report has its row in docs/commands/check.md: a
// kind added without documentation fails here.
func TestKindsDocumented(t *testing.T) {
	data, err := os.ReadFile("../../docs/commands/check.md")
	if err != nil {
		t.Fatal(err)
	}
	rows := map[string]bool{}
	for _, line := range strings.Split(string(data), "\n") {
		// A table row whose first cell is a kind: | `kind` ... |
		if rest, ok := strings.CutPrefix(line, "| `"); ok {
			if kind, _, ok := strings.Cut(rest, "`"); ok {
				rows[kind] = true
			}
		}
	}
	for _, k := range Kinds() {
		if !rows[string(k)] {
			t.Errorf("docs/commands/check.md has no table row for the kind %q", k)
		}
	}
}
