package view

import (
	"crypto/sha256"
	"encoding/hex"
	"sort"
	"strings"

	"github.com/git-adr/git-adr/adr"
)

// NewSelection is the selection of a summary plan's scope in one root:
// exact sources when ids is not empty, else a domain when domain is not
// empty, else every record.
func NewSelection(domain string, ids []string) Selection {
	domain = strings.TrimSpace(domain)
	switch {
	case len(ids) > 0:
		s := append([]string(nil), ids...)
		sort.Strings(s)
		return Selection{Mode: ModeSources, Sources: s, Rule: RuleUnarchived}
	case domain != "":
		return Selection{Mode: ModeDomain, Domain: domain, Rule: RuleUnarchived}
	}
	return Selection{Mode: ModeAll, Rule: RuleUnarchived}
}

// Members returns the records of root a selection chooses, in the root's
// order (number, then ID): its unarchived records, all of them, those
// tagged with the domain, or those whose ID is listed. It is the one
// definition of a view's scope: [Build] requires the sources it is given
// to be exactly these, and [Check] recomputes them to find records that
// entered or left the scope. Records a lazy log knows by name only are
// parsed when the selection needs their metadata.
func Members(l *adr.Log, root *adr.Root, sel Selection) []*adr.Record {
	ids := map[string]bool{}
	for _, id := range sel.Sources {
		ids[strings.ToLower(id)] = true
	}
	var out []*adr.Record
	for _, r := range root.Records {
		if r.Archived {
			continue
		}
		switch sel.Mode {
		case ModeAll:
		case ModeSources:
			if !ids[strings.ToLower(r.ID)] {
				continue
			}
		case ModeDomain:
			if l.Ensure(r) != nil || !r.InDomain(sel.Domain) {
				continue
			}
		default:
			continue
		}
		out = append(out, r)
	}
	return out
}

// MembershipHash hashes a record set: the SHA-256 of the sorted lines
// "path NUL id" joined by newlines. It is the formula compaction plans use
// for their membership, so a single-root plan and the view published from
// it carry the same value.
func MembershipHash(recs []*adr.Record) string {
	keys := make([]string, len(recs))
	for i, r := range recs {
		keys[i] = r.Path + "\x00" + r.ID
	}
	return membershipOf(keys)
}

func membershipOf(keys []string) string {
	sort.Strings(keys)
	h := sha256.Sum256([]byte(strings.Join(keys, "\n")))
	return hex.EncodeToString(h[:])
}

// Outside returns the records in force in root (accepted and not
// archived) that sel does not choose, in the root's order: a view over
// sel states nothing of them. Records a lazy log knows by name only are
// parsed for their status.
func Outside(l *adr.Log, root *adr.Root, sel Selection) []*adr.Record {
	in := map[*adr.Record]bool{}
	for _, r := range Members(l, root, sel) {
		in[r] = true
	}
	var out []*adr.Record
	for _, r := range root.Records {
		if r.Archived || in[r] || l.Ensure(r) != nil || r.Status != adr.Accepted {
			continue
		}
		out = append(out, r)
	}
	return out
}

// ByConsolidation reports whether a view was published by accepting a
// consolidation plan (their IDs start "c-", see compaction.PlanID). Such
// a view replaced the root's view with the decisions in force after the
// acceptance, so it must cover every one of them; a summary's view of a
// domain or of chosen sources is partial by design.
func ByConsolidation(m *Manifest) bool { return strings.HasPrefix(m.Plan, "c-") }
