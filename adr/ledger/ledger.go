// Package ledger is the decision ledger: the trailers git-adr writes into
// every commit that accepts decisions or publishes a reviewed view, and
// the checks that read them back (at acceptance before the branch moves,
// in the pre-push and pre-receive hooks, and in `git adr check --since`).
//
// # Trailers
//
//	ADR-Plan: c-0123456789@3          the reviewed plan revision (plan acceptance and view publication)
//	ADR-Accepted: ADR-0010, ADR-0011  the records the commit accepts
//	ADR-Supersedes: ADR-0010 -> ADR-0004   one line per retired record and its successor
//	ADR-View: doc/adr/CURRENT.md      a published CURRENT view (its manifest beside it)
//	ADR-Approved-By: Ada Lovelace <ada@example.com>   the person who accepted
//	ADR-Archive-On-Accept: a-0123456789 <sha256>     an archive plan the acceptance authorises
//
// ADR-Archive-On-Accept names the archive plan (refs/adr/archives/<id>)
// the person approved with the acceptance, and the SHA-256 of its content:
// the moves are carried out in commits of their own after this one, only
// when the plan computed again on the new HEAD has exactly that content.
// It is not a ledger key by itself: the commit that carries it accepts.
//
// A commit carrying any of ADR-Plan, ADR-Accepted or ADR-Supersedes is a
// ledger commit: [Check] compares its ledger with the files it changes,
// and in strict mode [Verify] requires a good signature by an allowed
// signer who is an approver and is the person ADR-Approved-By names.
package ledger

import (
	"fmt"
	"sort"
	"strings"

	"github.com/git-adr/git-adr/adr/govern"
)

// Trailer keys.
const (
	KeyPlan       = "ADR-Plan"
	KeyAccepted   = "ADR-Accepted"
	KeySupersedes = "ADR-Supersedes"
	KeyView       = "ADR-View"
	KeyApprovedBy = "ADR-Approved-By"
	KeyArchive    = "ADR-Archive-On-Accept"
)

// Rules the ledger checks add to package govern's.
const (
	// RuleLedger: a ledger commit changes files its trailers do not name,
	// names files it does not change, or says something about a record
	// that its files do not show.
	RuleLedger govern.Rule = "ledger"
	// RuleSignature: in strict mode, a ledger commit is not signed by an
	// allowed signer who is an approver and the named approver.
	RuleSignature govern.Rule = "signature"
)

// Pair is one supersession: New retires Old.
type Pair struct {
	New, Old string
}

func (p Pair) String() string { return p.New + " -> " + p.Old }

// Ledger is what a commit's trailers say.
type Ledger struct {
	// Plan is "<plan-id>@<revision>" ("" for `git adr decide`).
	Plan       string
	Accepted   []string
	Supersedes []Pair
	Views      []string
	ApprovedBy string
	// Archive is the archive plan the acceptance authorises (zero: none).
	Archive ArchiveOnAccept
}

// ArchiveOnAccept names an archive plan by its ID and the SHA-256 of its
// content.
type ArchiveOnAccept struct {
	Plan, Digest string
}

func (a ArchiveOnAccept) String() string { return a.Plan + " " + a.Digest }

// IsLedger reports whether the commit is a ledger commit: one that
// accepts a decision or publishes a reviewed plan.
func (l Ledger) IsLedger() bool {
	return l.Plan != "" || len(l.Accepted) > 0 || len(l.Supersedes) > 0
}

// Trailers renders the ledger as the last paragraph of a commit message,
// in a fixed order.
func (l Ledger) Trailers() string {
	var b strings.Builder
	if l.Plan != "" {
		fmt.Fprintf(&b, "%s: %s\n", KeyPlan, l.Plan)
	}
	if len(l.Accepted) > 0 {
		fmt.Fprintf(&b, "%s: %s\n", KeyAccepted, strings.Join(l.Accepted, ", "))
	}
	for _, p := range l.Supersedes {
		fmt.Fprintf(&b, "%s: %s\n", KeySupersedes, p)
	}
	for _, v := range l.Views {
		fmt.Fprintf(&b, "%s: %s\n", KeyView, v)
	}
	if l.Archive.Plan != "" {
		fmt.Fprintf(&b, "%s: %s\n", KeyArchive, l.Archive)
	}
	if l.ApprovedBy != "" {
		fmt.Fprintf(&b, "%s: %s\n", KeyApprovedBy, l.ApprovedBy)
	}
	return b.String()
}

// Parse reads the ledger from a commit message's trailers (its last
// paragraph). Malformed values are returned in Bad, each with its line.
func Parse(msg string) (l Ledger, bad []string) {
	tr := Trailers(msg)
	if v := tr[KeyPlan]; len(v) > 0 {
		l.Plan = v[0]
		if len(v) > 1 {
			bad = append(bad, fmt.Sprintf("%s is given %d times", KeyPlan, len(v)))
		}
	}
	for _, v := range tr[KeyAccepted] {
		for _, id := range strings.Split(v, ",") {
			if id = strings.TrimSpace(id); id != "" {
				l.Accepted = append(l.Accepted, id)
			}
		}
	}
	for _, v := range tr[KeySupersedes] {
		n, o, ok := strings.Cut(v, "->")
		n, o = strings.TrimSpace(n), strings.TrimSpace(o)
		if !ok || n == "" || o == "" {
			bad = append(bad, fmt.Sprintf("%s: %q is not \"NEW -> OLD\"", KeySupersedes, v))
			continue
		}
		l.Supersedes = append(l.Supersedes, Pair{New: n, Old: o})
	}
	l.Views = append(l.Views, tr[KeyView]...)
	if v := tr[KeyApprovedBy]; len(v) > 0 {
		l.ApprovedBy = v[0]
	}
	if v := tr[KeyArchive]; len(v) > 0 {
		id, digest, ok := strings.Cut(v[0], " ")
		if !ok || len(v) > 1 || id == "" || len(strings.TrimSpace(digest)) != 64 {
			bad = append(bad, fmt.Sprintf("%s: %q is not \"PLAN-ID SHA256\" given once", KeyArchive, v[0]))
		} else {
			l.Archive = ArchiveOnAccept{Plan: id, Digest: strings.TrimSpace(digest)}
		}
	}
	return l, bad
}

// Trailers reads "Key: value" lines of a commit message's last paragraph.
func Trailers(msg string) map[string][]string {
	paras := strings.Split(strings.TrimSpace(strings.ReplaceAll(msg, "\r\n", "\n")), "\n\n")
	out := map[string][]string{}
	last := paras[len(paras)-1]
	for _, line := range strings.Split(last, "\n") {
		k, v, ok := strings.Cut(line, ": ")
		if ok && !strings.ContainsAny(k, " \t") && k != "" {
			out[k] = append(out[k], strings.TrimSpace(v))
		}
	}
	return out
}

// Email is the address in "Name <email>" (the whole text when it has no
// angle brackets), lower case.
func Email(ident string) string {
	if i := strings.LastIndexByte(ident, '<'); i >= 0 {
		if j := strings.IndexByte(ident[i:], '>'); j > 0 {
			return strings.ToLower(strings.TrimSpace(ident[i+1 : i+j]))
		}
	}
	return strings.ToLower(strings.TrimSpace(ident))
}

// SamePerson reports whether a signer (an allowed-signers principal, or a
// gpg user ID "Name <email>") and a person ("Name <email>", an e-mail
// address or a principal) are the same: equal, or with the same address.
func SamePerson(signer, person string) bool {
	if signer == "" || person == "" {
		return false
	}
	return signer == person || Email(signer) == Email(person)
}

// sortedPairs returns pairs sorted by new, then old.
func sortedPairs(ps []Pair) []Pair {
	out := append([]Pair(nil), ps...)
	sort.Slice(out, func(i, j int) bool {
		if out[i].New != out[j].New {
			return out[i].New < out[j].New
		}
		return out[i].Old < out[j].Old
	})
	return out
}
