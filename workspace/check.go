package workspace

import (
	"bytes"
	"errors"
	"fmt"
	"github.com/git-adr/git-adr/internal/lazyre"
	"sort"
	"strings"

	"github.com/git-adr/git-adr/adr"
)

// Finding kinds only a workspace can see.
const (
	// BrokenLink: a record names another repository's record
	// (platform:ADR-0012) that does not exist there.
	BrokenLink = "broken-workspace-link"
	// SharedStatus: records of several repositories share a title (a
	// shared decision each claims) but not a status.
	SharedStatus = "shared-decision-status"
	// NotReadRepository: a repository of the workspace could not be read
	// (not synced yet, not cloned here): neither its records nor the
	// links into it were checked. Only a [Workspace.Reading] view goes
	// on without it; its Path and Line are empty.
	NotReadRepository = "repository-not-read"
)

// Finding is one problem across repositories.
type Finding struct {
	Kind       string `json:"kind"`
	Repository string `json:"repository"`
	ID         string `json:"id"`
	Path       string `json:"path"`
	Line       int    `json:"line"`
	Message    string `json:"message"`
	Fix        string `json:"fix"`
}

// mentionRE finds qualified IDs in record text: a member's name, a colon,
// and an ID (ADR-0012, RFC-7) or a number.
var mentionRE = lazyre.New(`(?:^|[^A-Za-z0-9._/-])([A-Za-z0-9][A-Za-z0-9._-]{0,63}):([A-Za-z][A-Za-z0-9]*-[0-9]+[a-z]?|[0-9]+)\b`)

// mayMention reports whether line (or a text of lines) can hold a match
// of mentionRE: every
// match has a colon with a letter or a digit after it, which most lines
// of a record do not ("Date: 2026-01-05", a URL's "://"). The expression
// tries every position of a line it is given: run on every line of every
// record, it was two thirds of a workspace check's CPU.
func mayMention(line []byte) bool {
	for i := bytes.IndexByte(line, ':'); i >= 0 && i+1 < len(line); {
		if c := line[i+1]; c >= '0' && c <= '9' || c|0x20 >= 'a' && c|0x20 <= 'z' {
			return true
		}
		j := bytes.IndexByte(line[i+1:], ':')
		if j < 0 {
			return false
		}
		i += 1 + j
	}
	return false
}

type mention struct {
	from        Finding
	member, ref string
}

type claim struct {
	repo, id, path, title string
	status                adr.Status
}

// Check reports what only a workspace can see: qualified IDs in a record
// that name no record of the repository they name, and records of
// several repositories that share a title but not a status (of those
// that state one). It reads
// each member twice at most (its records, then the targets of mentions
// into it), one at a time.
func (w *Workspace) Check() ([]Finding, error) {
	var mentions []mention
	titles := map[string][]claim{}
	err := w.Each(false, func(ld *Loaded) error {
		for _, r := range ld.Log.Records {
			if r.Archived {
				continue
			}
			// A record that states no status (as MADR allows) claims
			// none, so it cannot differ from another's: context holds it
			// in force, as an accepted one.
			if t := normTitle(r.Title); t != "" && (r.Status != adr.Unknown || r.RawStatus != "") {
				// Copies: a record's strings can be views of its log's
				// whole text, which must not outlive the member.
				titles[t] = append(titles[t], claim{ld.Member.Name, strings.Clone(r.ID), strings.Clone(r.Path), strings.Clone(r.Title), adr.Status(strings.Clone(string(r.Status)))})
			}
			mentions = append(mentions, w.mentions(ld, r)...)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	var out []Finding
	if w.skips != nil {
		for _, u := range w.skips.List(w) {
			var fix string
			switch {
			case errors.Is(u.Err, ErrNotSynced):
				fix = fmt.Sprintf("run `git adr workspace sync`; if %s's remote is gone, remove it from the workspace file", u.Member.Name)
			case errors.Is(u.Err, ErrNoPath):
				fix = fmt.Sprintf("clone %s at %s, or fix its path in the workspace file", u.Member.Name, u.Member.Given)
			default:
				fix = fmt.Sprintf("make %s the top of a git repository, or fix its path in the workspace file", u.Member.Given)
			}
			out = append(out, Finding{Kind: NotReadRepository, Repository: u.Member.Name,
				Message: fmt.Sprintf("%s could not be read (%s): its records were not checked, nor the links into it", u.Member.Name, u.Reason()),
				Fix:     fix})
		}
	}
	err = w.resolveMentions(mentions, func(m mention, mem *Member, target *adr.Record) {
		if target == nil {
			f := m.from
			f.Kind = BrokenLink
			f.Message = fmt.Sprintf("%s names no record of %s", Qualify(mem.Name, m.ref), mem.Name)
			f.Fix = fmt.Sprintf("correct the ID (`git adr --workspace FILE list` shows %s's), or run `git adr workspace sync` if %s has it since", mem.Name, mem.Name)
			out = append(out, f)
		}
	})
	if err != nil {
		return nil, err
	}
	keys := make([]string, 0, len(titles))
	for t, cs := range titles {
		if len(cs) > 1 {
			keys = append(keys, t)
		}
	}
	sort.Strings(keys)
	for _, t := range keys {
		cs := titles[t]
		repos, statuses := map[string]bool{}, map[adr.Status]bool{}
		for _, c := range cs {
			repos[c.repo] = true
			statuses[c.status] = true
		}
		if len(repos) < 2 || len(statuses) < 2 {
			continue
		}
		var desc []string
		for _, c := range cs {
			desc = append(desc, fmt.Sprintf("%s is %s", Qualify(c.repo, c.id), c.status))
		}
		// One message for every record of the decision: a decision
		// shared by n repositories has n findings naming all n.
		msg := fmt.Sprintf("the shared decision %q differs in status: %s", cs[0].title, strings.Join(desc, ", "))
		for _, c := range cs {
			out = append(out, Finding{Kind: SharedStatus, Repository: c.repo, ID: Qualify(c.repo, c.id), Path: c.path, Line: 1,
				Message: msg,
				Fix:     "give the shared decision one status in every repository, or retitle a record that is another decision"})
		}
	}
	return out, nil
}

// normTitle folds a title for comparison: case and runs of space.
func normTitle(t string) string { return strings.Join(strings.Fields(strings.ToLower(t)), " ") }

// mentions are the qualified IDs in a record's text that name a member.
func (w *Workspace) mentions(ld *Loaded, r *adr.Record) []mention {
	content := r.Content()
	if !mayMention(content) {
		return nil // most records: no line is split out
	}
	var out []mention
	lines := bytes.Split(content, []byte("\n"))
	first, _ := r.LineRange()
	first = max(first, 1)
	for i, line := range lines {
		if !mayMention(line) {
			continue
		}
		for _, m := range mentionRE.Re().FindAllSubmatch(line, -1) {
			target := w.Member(string(m[1]))
			if target == nil {
				continue
			}
			out = append(out, mention{
				from:   Finding{Repository: ld.Member.Name, ID: Qualify(ld.Member.Name, r.ID), Path: strings.Clone(r.Path), Line: first + i},
				member: target.Name, ref: string(m[2]),
			})
		}
	}
	return out
}

// resolveMentions looks every mention up in the member it names, opening
// each such member once; fn gets the record found, or nil.
func (w *Workspace) resolveMentions(ms []mention, fn func(m mention, mem *Member, target *adr.Record)) error {
	byMember := map[string][]mention{}
	for _, m := range ms {
		byMember[m.member] = append(byMember[m.member], m)
	}
	for _, mem := range w.Members {
		ms := byMember[mem.Name]
		if len(ms) == 0 {
			continue
		}
		ld, err := mem.Open(true)
		if err != nil && w.skip(mem, err) {
			continue // neither found nor missing: fn is not called
		}
		if err != nil {
			return err
		}
		for _, m := range ms {
			r, err := ld.Log.Resolve(m.ref)
			if err != nil {
				r = nil
			}
			fn(m, mem, r)
		}
		ld.Close()
	}
	return nil
}
