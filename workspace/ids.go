package workspace

import (
	"errors"
	"fmt"
	"strings"

	"github.com/git-adr/git-adr/adr"
)

// Qualify is the ID a record has in a workspace: "payments:ADR-0012".
func Qualify(member, id string) string { return member + ":" + id }

// SplitQualified splits "payments:ADR-0012" into the member's name and
// the record's reference; ok is false when ref names no member of w (an
// unqualified reference, or one whose text merely holds a colon).
func (w *Workspace) SplitQualified(ref string) (m *Member, rest string, ok bool) {
	name, rest, found := strings.Cut(ref, ":")
	if !found {
		return nil, ref, false
	}
	if m := w.Member(name); m != nil {
		return m, rest, true
	}
	return nil, ref, false
}

// UnknownMemberError is a qualified reference whose member the workspace
// does not name.
type UnknownMemberError struct {
	Name  string
	Names []string
}

func (e *UnknownMemberError) Error() string {
	return fmt.Sprintf("the workspace names no repository %q", e.Name)
}

// AmbiguousError is an unqualified reference that resolves in several
// members: the qualified IDs of the candidates.
type AmbiguousError struct {
	Ref        string
	Candidates []string
}

func (e *AmbiguousError) Error() string {
	return fmt.Sprintf("%q names records in %d repositories", e.Ref, len(e.Candidates))
}

// Found is a record found in a member, its log still open (Close it).
type Found struct {
	*Loaded
	Record *adr.Record
	// Anchor is the unit locator of the reference ("decision" of
	// payments:ADR-0012#decision), "" when none.
	Anchor string
}

// Find resolves ref: "name:ID" in that member only; an unqualified ID in
// every member, which must find it in exactly one. It returns the
// member's log open, the record parsed. Errors: *UnknownMemberError, a
// member's *adr.AmbiguousError or not-found error (adr.IsNotFound),
// *AmbiguousError across members.
func (w *Workspace) Find(ref string) (*Found, error) {
	_, anchor := adr.SplitLocator(ref)
	if m, rest, ok := w.SplitQualified(ref); ok {
		ld, err := m.Open(true)
		if err != nil {
			return nil, err
		}
		rec, err := ld.Log.Lookup(rest)
		if err == nil {
			err = ld.Log.Ensure(rec)
		}
		if err != nil {
			ld.Close()
			return nil, err
		}
		return &Found{Loaded: ld, Record: rec, Anchor: anchor}, nil
	}
	if name, _, ok := strings.Cut(ref, ":"); ok && nameRE.MatchString(name) && !strings.ContainsAny(name, ".") {
		var names []string
		for _, m := range w.Members {
			names = append(names, m.Name)
		}
		return nil, &UnknownMemberError{Name: name, Names: names}
	}
	var hits []string
	var first *Found
	for _, m := range w.Members {
		ld, err := m.Open(true)
		if err != nil && w.skip(m, err) {
			continue
		}
		if err != nil {
			if first != nil {
				first.Close()
			}
			return nil, err
		}
		rec, err := ld.Log.Lookup(ref)
		var amb *adr.AmbiguousError
		switch {
		case err == nil:
			hits = append(hits, Qualify(m.Name, rec.ID))
			if first == nil {
				if err := ld.Log.Ensure(rec); err != nil {
					ld.Close()
					return nil, err
				}
				first = &Found{Loaded: ld, Record: rec, Anchor: anchor}
				continue
			}
		case errors.As(err, &amb):
			for _, c := range amb.Candidates {
				hits = append(hits, Qualify(m.Name, c.ID))
			}
		case !adr.IsNotFound(err):
			ld.Close()
			if first != nil {
				first.Close()
			}
			return nil, fmt.Errorf("repo %q: %w", m.Name, err)
		}
		ld.Close()
	}
	if err := w.noneRead(); err != nil {
		return nil, err
	}
	switch {
	case len(hits) == 0:
		return nil, &adr.NotFoundError{Ref: ref}
	case len(hits) > 1:
		if first != nil {
			first.Close()
		}
		return nil, &AmbiguousError{Ref: ref, Candidates: hits}
	}
	return first, nil
}
