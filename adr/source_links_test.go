package adr_test

import (
	"fmt"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"unicode"

	"github.com/git-adr/git-adr/adr"
)

// The supersession/links line of SOURCE.txt quotes relations as written;
// this file checks the formal ones against the parsed records.

// linkClaim is a formal relation SOURCE.txt quotes: the record (a number,
// file name or path; "reverse" means the previous claim's target), its
// label and target as written.
type linkClaim struct {
	Record, Label, Target string
}

var (
	claimQuote = regexp.MustCompile(`(\S+):\s+"([^"]*)"`)
	claimIDs   = regexp.MustCompile(`^(.+?)\s+((?i:adr|rfc)?-?\d+(?:\s*,\s*(?i:adr|rfc)?-?\d+)*)$`)
	alsoClause = regexp.MustCompile(`^\s*\(also ([^)]*)\)`)
	linkLabel  = regexp.MustCompile(`^([^\[\]]+?)\s*\[`)
	claimLink  = regexp.MustCompile(`\[[^\]]*\]\(([^)\s]+)\)`)
	statusPre  = regexp.MustCompile(`^(?i:(?:\*\*|__)?status(?:\*\*|__)?\s*:\s*(?:\*\*|__)?)\s*`)
)

// customLabels are relation labels that are not known types but are formal
// metadata (nats' "Updates" row).
var customLabels = map[string]bool{
	"updates": true, "updated by": true, "extends": true, "extended by": true,
	"depends on": true, "clarifies": true, "clarified by": true,
}

func formalLabel(label string) bool {
	return adr.ParseRelationType(label).Known() || customLabels[strings.ToLower(strings.TrimSpace(label))]
}

// parseLinkClaims reads the supersession/links line: every `KEY: "quote"`
// whose whole quote is a formal relation ("Label [text](target)[, [text](target)]"
// or a "| Label | targets |" table row, optionally after "- Status:"), plus
// "(also A, B -> T; C -> U)" lists that repeat the previous label for other
// records. Prose quotes, and quotes of a KEY marked "(prose)", are ignored.
func parseLinkClaims(line string) ([]linkClaim, error) {
	var out []linkClaim
	for _, m := range claimQuote.FindAllStringSubmatchIndex(line, -1) {
		key, q := line[m[2]:m[3]], line[m[4]:m[5]]
		if strings.Contains(strings.ToLower(key), "prose") {
			continue
		}
		q = strings.TrimSpace(strings.TrimLeft(strings.TrimSpace(q), "-*+ "))
		q = statusPre.ReplaceAllString(q, "")
		// "accepted; supersedes ADR-0045": the relation follows the status.
		if i := strings.LastIndexByte(q, ';'); i >= 0 && !strings.HasPrefix(q, "|") {
			q = strings.TrimSpace(q[i+1:])
		}
		// "⌛️ Superseded [0019](...)": an emoji decorates the label.
		q = strings.TrimLeftFunc(q, func(r rune) bool {
			return r > 0x7f && (unicode.IsSymbol(r) || unicode.Is(unicode.Variation_Selector, r)) || r == ' '
		})
		var label string
		var targets []string
		if strings.HasPrefix(q, "|") {
			var cells []string
			for _, c := range strings.Split(q, "|") {
				if c = strings.TrimSpace(c); c != "" {
					cells = append(cells, c)
				}
			}
			if len(cells) == 2 {
				label = cells[0]
				for _, tg := range strings.Split(cells[1], ",") {
					if tg = strings.TrimSpace(tg); tg != "" {
						targets = append(targets, tg)
					}
				}
			}
		} else if im := claimIDs.FindStringSubmatch(q); im != nil && !strings.Contains(q, "](") {
			// "superseded by ADR-0057": IDs, no link.
			label = im[1]
			for _, tg := range strings.Split(im[2], ",") {
				targets = append(targets, strings.TrimSpace(tg))
			}
		} else if lm := linkLabel.FindStringSubmatch(q); lm != nil {
			// Only links may follow the label, joined by "," or "and".
			rest := claimLink.ReplaceAllString(q[len(lm[1]):], "")
			if strings.Trim(strings.ReplaceAll(rest, " and ", ""), " ,.") == "" {
				label = strings.TrimSpace(lm[1])
				for _, l := range claimLink.FindAllStringSubmatch(q, -1) {
					targets = append(targets, l[1])
				}
			}
		}
		if label == "" || !formalLabel(label) {
			continue
		}
		for _, tg := range targets {
			out = append(out, linkClaim{Record: key, Label: label, Target: tg})
		}
		if am := alsoClause.FindStringSubmatch(line[m[1]:]); am != nil {
			for _, seg := range strings.Split(am[1], ";") {
				from, to, ok := strings.Cut(seg, "->")
				if !ok {
					continue // commentary, not a list of records
				}
				for _, f := range strings.Split(from, ",") {
					if f = strings.TrimSpace(f); f != "" {
						out = append(out, linkClaim{Record: f, Label: label, Target: strings.TrimSpace(to)})
					}
				}
			}
		}
	}
	return out, nil
}

func TestParseLinkClaims(t *testing.T) {
	tests := []struct {
		line string
		want []linkClaim
	}{
		{`yes: 0004: "Superseded by [DNS Infrastructure](0015-dns-infrastructure.md)"; 0010: "Amended by [17. Terraform Data Structure](0017-terraform-data-structure.md)"; 0017: "Amends [10. Terraform directory structure](0010-terraform-directory-structure.md)"; 0033 (prose): "This ADR in part supersedes [0003](0003-aws-networking-outline.md)."`,
			[]linkClaim{{"0004", "Superseded by", "0015-dns-infrastructure.md"}, {"0010", "Amended by", "0017-terraform-data-structure.md"}, {"0017", "Amends", "0010-terraform-directory-structure.md"}}},
		{`yes (amend links only, no supersession): doc/adr/0005-help-comments.md: "Amended by [9. Help scripts](0009-help-scripts.md)"; reverse link in 0009: "Amends [5. Help comments](0005-help-comments.md)"`,
			[]linkClaim{{"doc/adr/0005-help-comments.md", "Amended by", "0009-help-scripts.md"}, {"0009", "Amends", "0005-help-comments.md"}}},
		{`yes: docs/adr/20200926-a.md: "- Status: superseded by [20201016-b](20201016-b.md)"; reverse: "- Supersedes [20200926-a](20200926-a.md)"`,
			[]linkClaim{{"docs/adr/20200926-a.md", "superseded by", "20201016-b.md"}, {"reverse", "Supersedes", "20200926-a.md"}}},
		{`yes (an "Updates" metadata row, no "Superseded" field): adr/ADR-48.md: "| Updates  | ADR-8                                   |" (also ADR-54, 57, 58 -> ADR-8; ADR-60 -> ADR-59). Deprecation is noted in revision rows, e.g. ADR-15: "| final    | 2024/07/17 | Deprecate in favor of ADR-37 |"`,
			[]linkClaim{{"adr/ADR-48.md", "Updates", "ADR-8"}, {"ADR-54", "Updates", "ADR-8"}, {"57", "Updates", "ADR-8"}, {"58", "Updates", "ADR-8"}, {"ADR-60", "Updates", "ADR-59"}}},
		{`yes (cross references, no formal supersession): 0002: "L'ADR [0001-style-d-architecture](./0001-style-d-architecture.md) proposait de ne pas implémenter..." (0002 effectively revises 0001, which is marked "Obsolète")`, nil},
		{`yes (prose, partial supersession): adr-017-simplify-chimera-model.md: "Note: this ADR supersedes some aspects of [ADR-15](adr-015-data-abstraction-model.md) and [ADR-16](adr-016-db-migrations.md)."`, nil},
		{`yes, prose only: adr-073-libp2p.md: "This ADR supersedes the decisions made in ADRs 60 and 61, but"; cross refs like "[ADR 021](./adr-021-abci-events.md)"`, nil},
		{``, nil},
		{`yes: 0004: "⌛️ Superseded [0019](0019-x.md)"; 0045: "superseded by ADR-0057"; 0057: "accepted; supersedes ADR-0045"`,
			[]linkClaim{{"0004", "Superseded", "0019-x.md"}, {"0045", "superseded by", "ADR-0057"}, {"0057", "supersedes", "ADR-0045"}}},
		{`yes: 0007: "Supersedes [1. A](0001-a.md) and [2. B](0002-b.md)."; 0008 (prose): "Supersedes [3](0003-c.md) in part"; 0009: "Amends [4](0004-d.md) in part"; 0010: "| Supersedes | ADR-1, ADR-2 |" (also 11 -> ADR-3; see the notes)`,
			[]linkClaim{{"0007", "Supersedes", "0001-a.md"}, {"0007", "Supersedes", "0002-b.md"}, {"0010", "Supersedes", "ADR-1"}, {"0010", "Supersedes", "ADR-2"}, {"11", "Supersedes", "ADR-3"}}},
	}
	for _, tt := range tests {
		got, err := parseLinkClaims(tt.line)
		if err != nil {
			t.Errorf("parseLinkClaims(%q): %v", tt.line, err)
			continue
		}
		if fmt.Sprint(got) != fmt.Sprint(tt.want) {
			t.Errorf("parseLinkClaims(%q)\n got %v\nwant %v", tt.line, got, tt.want)
		}
	}
}

func checkLinkClaims(t *testing.T, dir string, log *adr.Log, claims []linkClaim) {
	t.Helper()
	var prev *adr.Record
	var prevTarget string
	for _, c := range claims {
		var rec *adr.Record
		if c.Record == "reverse" {
			if prev == nil {
				t.Errorf("claim %v: \"reverse\" without a previous claim", c)
				continue
			}
			rec = log.Target(prev, prevTarget)
			if rec == nil {
				t.Errorf("claim %v: the previous target %q names no record", c, prevTarget)
				continue
			}
		} else {
			r, err := log.Resolve(c.Record)
			if err != nil {
				t.Errorf("claim %v: %v", c, err)
				continue
			}
			rec = r
		}
		prev, prevTarget = rec, c.Target
		want := adr.ParseRelationType(c.Label)
		var found *adr.Relation
		for i, rel := range rec.Relations {
			if rel.Target == c.Target && (rel.Type == want || strings.EqualFold(string(rel.Type), c.Label)) {
				found = &rec.Relations[i]
				break
			}
		}
		if found == nil {
			t.Errorf("%s: no %q relation to %q; relations: %+v", rec.Path, c.Label, c.Target, rec.Relations)
			continue
		}
		// Where the target exists (a file beside the record, or an ID that
		// resolves), the relation must resolve to it.
		var wantRec *adr.Record
		if p := path.Join(path.Dir(rec.Path), c.Target); fileExists(filepath.Join(dir, filepath.FromSlash(p))) {
			wantRec = log.ByPath(p)
		} else if !strings.Contains(c.Target, "/") && !strings.HasSuffix(c.Target, ".md") {
			wantRec, _ = log.Resolve(c.Target)
		}
		if wantRec != nil && found.TargetID != wantRec.ID {
			t.Errorf("%s: relation %q -> %q resolves to %q, want %q", rec.Path, c.Label, c.Target, found.TargetID, wantRec.ID)
		}
	}
}

func fileExists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}
