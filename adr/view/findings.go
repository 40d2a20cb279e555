package view

import (
	"fmt"
	"strings"

	"github.com/git-adr/git-adr/adr"
)

// Findings are what `git adr check --compaction` adds to the log's own
// findings: one per root whose CURRENT view is stale, corrupt or of an
// unsupported schema, and one per generated INDEX.md that differs from
// what the records give. A root without any view file, and an INDEX.md
// that is missing or hand-written, are not findings: the project does not
// use them there. A manifest without CURRENT.md (or the reverse) is a
// corrupt view.
func Findings(l *adr.Log) ([]adr.Finding, error) {
	var out []adr.Finding
	several := len(l.Roots) > 1
	for _, root := range l.Roots {
		f := Check(l, root)
		var kind adr.FindingKind
		switch f.State {
		case Stale:
			kind = adr.KindViewStale
		case Corrupt:
			kind = adr.KindViewCorrupt
		case Unsupported:
			kind = adr.KindViewUnsupported
		default:
			continue
		}
		first := f.Reasons[0]
		fd := adr.Finding{Kind: kind, Path: first.File, Line: first.Line, IDs: []string{}, Fix: findingFix(f, root, several)}
		seen := map[string]bool{}
		var msgs []string
		for i, r := range f.Reasons {
			if r.ID != "" && !seen[r.ID] {
				seen[r.ID] = true
				fd.IDs = append(fd.IDs, r.ID)
			}
			if i < 3 {
				msgs = append(msgs, r.Message)
			}
		}
		msg := strings.Join(msgs, "; ")
		if n := len(f.Reasons) - len(msgs) + f.More; n > 0 {
			msg += fmt.Sprintf(" (and %d more)", n)
		}
		switch f.State {
		case Stale:
			fd.Message = fmt.Sprintf("the CURRENT view of %s is stale: %s", root.Dir(), msg)
		default:
			fd.Message = msg
		}
		out = append(out, fd)
	}
	ixs, err := l.Indexes()
	if err != nil {
		return nil, err
	}
	for _, ix := range ixs {
		if ix.State != adr.IndexStale {
			continue
		}
		out = append(out, adr.Finding{Kind: adr.KindIndexStale, Path: ix.Path, IDs: []string{},
			Message: fmt.Sprintf("%s differs from what the records of %s give", ix.Path, ix.Root.Dir()),
			Fix:     "git adr index"})
	}
	return out, nil
}

// findingFix is the command (or edit) that resolves a view finding.
func findingFix(f Freshness, root *adr.Root, several bool) string {
	regen := f.Fix()
	if several {
		regen = strings.Replace(regen, "git adr ", "git adr --root "+adr.ShellWord(root.Dir())+" ", 1)
	}
	switch f.State {
	case Unsupported:
		return "upgrade git-adr to one that reads this manifest, or regenerate the view with this one: " + regen
	case Corrupt:
		switch f.Reasons[0].Kind {
		case ReasonPairMismatch:
			return fmt.Sprintf("undo the hand edit (git checkout -- %s) and change the view through a reviewed summary: %s", adr.ShellWord(f.CurrentPath), regen)
		case ReasonCurrentMissing:
			return fmt.Sprintf("restore %s (git checkout -- %s) or regenerate the pair: %s", f.CurrentPath, adr.ShellWord(f.CurrentPath), regen)
		default:
			return fmt.Sprintf("restore %s (git checkout -- %s) or regenerate the pair: %s", f.ManifestPath, adr.ShellWord(f.ManifestPath), regen)
		}
	}
	return regen
}
