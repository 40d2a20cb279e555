package retrieve

import (
	"slices"
	"strings"
	"testing"
)

// TestAbbreviations: a definition in either order is found, with the
// long form's terms as the analyser gives them; a parenthesis that is not
// a definition (its letters are not the long form's in order) is not.
func TestAbbreviations(t *testing.T) {
	for _, c := range []struct {
		text  string
		short string
		long  string // "" when no definition is found
	}{
		{"We generate a Software Bill of Materials (SBOM) for every package.", "sbom", "softwar bill materi"},
		{"Policies are enforced by OPA (Open Policy Agent) in the cluster.", "opa", "open polici agent"},
		{"Tokens are JSON Web Tokens (JWT).", "jwt", "json web token"},
		{"All of it is Infrastructure as Code (IaC).", "iac", "infrastructur code"},
		{"We run on Amazon Elastic Kubernetes Service (EKS) clusters.", "eks", "elast kubernet servic"},
		{"Traffic goes through the Istio Gateway (Envoy).", "", ""},
		{"Use Label-Based Scraping (Default) for metrics.", "", ""},
		{"It runs (see ADR-12) nightly.", "", ""},
		{"The API (Pattern A) is used.", "", ""},
		{"an unclosed (SBOM", "", ""},
	} {
		got := Abbreviations(c.text, English)
		if c.long == "" {
			if len(got) != 0 {
				t.Errorf("%q: %v, want none", c.text, got)
			}
			continue
		}
		if len(got) != 1 || got[0].Short != c.short || strings.Join(got[0].Long, " ") != c.long {
			t.Errorf("%q: %v, want %s = %s", c.text, got, c.short, c.long)
		}
	}
}

// TestGlossaryRidesInTheIndex: the abbreviations a document defines are
// known to an index built from it, and to the same index stored and
// opened, and they score nothing.
func TestGlossaryRidesInTheIndex(t *testing.T) {
	a := Analyze(Doc{Fields: []Field{{Text: "We generate a Software Bill of Materials (SBOM) with Syft."}}})
	b := Analyze(Doc{Fields: []Field{{Text: "Syft scans container images."}}})
	a = WithGlossary(a, Abbreviations("We generate a Software Bill of Materials (SBOM) with Syft.", English))
	built := IndexTerms([]string{"a", "b"}, []DocTerms{a, b})
	opened, rest, err := OpenIndex(AppendIndex(nil, built), []string{"a", "b"})
	if err != nil || len(rest) != 0 {
		t.Fatal(err)
	}
	for name, ix := range map[string]*Index{"built": built, "opened": opened} {
		g := ix.Glossary()
		if len(g) != 1 || g[0].Short != "sbom" || !slices.Equal(g[0].Long, []string{"softwar", "bill", "materi"}) {
			t.Errorf("%s: glossary %v", name, g)
		}
		q := ExpandGlossary(Query("which tool makes the software bill of materials", English), "which tool makes the software bill of materials", English, g)
		if !slices.ContainsFunc(q, func(t QueryTerm) bool { return t.Text == "sbom" }) {
			t.Errorf("%s: the long form did not add the short one: %v", name, q)
		}
		q = ExpandGlossary(Query("which tool makes the SBOM", English), "which tool makes the SBOM", English, g)
		if !slices.ContainsFunc(q, func(t QueryTerm) bool { return t.Text == "materi" && t.Weight < 1 }) {
			t.Errorf("%s: the short form did not add the long one: %v", name, q)
		}
		// The glossary's own term scores nothing and matches no request.
		for _, h := range ix.Search([]QueryTerm{{Text: "syft", Weight: 1}}) {
			if h.Score <= 0 {
				t.Errorf("%s: %+v", name, h)
			}
		}
	}
}

// FuzzAbbreviations: any text gives abbreviations whose short form is one
// term and whose long form has two terms or more, none equal to it.
func FuzzAbbreviations(f *testing.F) {
	for _, s := range []string{"Software Bill of Materials (SBOM)", "OPA (Open Policy Agent)", "(((", "A (B)", "x (ÉÉ) y", "Ünicode SStuff (ÜS)"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		for _, a := range Abbreviations(text, English) {
			if a.Short == "" || len(a.Long) < 2 || slices.Contains(a.Long, a.Short) {
				t.Fatalf("%q: %+v", text, a)
			}
			if strings.ContainsAny(a.Short+strings.Join(a.Long, ""), glossaryMark+glossarySep+" ") {
				t.Fatalf("%q: a term holds a separator: %+v", text, a)
			}
		}
	})
}
