package view

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"sort"
	"strings"

	"github.com/git-adr/git-adr/adr"
)

// State is the freshness of a root's CURRENT view.
type State string

// States, from usable to unusable. Only a fresh view may be used as
// context; every other state falls back to the original records.
const (
	// Fresh: the pair is intact and every source, the membership and
	// every dependency are as the manifest pins them.
	Fresh State = "fresh"
	// Stale: the pair is intact but the log changed since the view was
	// reviewed.
	Stale State = "stale"
	// Missing: the root has neither CURRENT.md nor CURRENT.sources.json.
	Missing State = "missing"
	// Corrupt: the manifest is not a manifest, one file of the pair is
	// missing, or CURRENT.md is not the file the manifest pins (edited by
	// hand).
	Corrupt State = "corrupt"
	// Unsupported: the manifest's schema or selection rule is one this
	// git-adr does not know.
	Unsupported State = "unsupported"
)

// Reason kinds, roughly from most to least specific. Corrupt and
// unsupported views have one reason; stale views one per change.
const (
	ReasonManifestMissing = "manifest-missing" // CURRENT.md without CURRENT.sources.json
	ReasonCurrentMissing  = "current-missing"  // CURRENT.sources.json without CURRENT.md
	ReasonManifestInvalid = "manifest-invalid" // not JSON, or not a well-formed manifest
	ReasonPairMismatch    = "pair-mismatch"    // CURRENT.md is not the file the manifest pins
	ReasonSchema          = "schema"           // unknown schema, selection mode or rule
	ReasonDeleted         = "deleted"          // a source no longer exists
	ReasonArchived        = "archived"         // a source moved into the archive
	ReasonMoved           = "moved"            // a source has another path or ID
	ReasonStatus          = "status"           // a source's status changed
	ReasonAdded           = "added"            // a record entered the scope
	ReasonRemoved         = "removed"          // a source left the scope
	ReasonEdited          = "edited"           // a source's bytes changed
	ReasonUnits           = "units"            // a source's units read differently
	ReasonDependency      = "dependency"       // a dependency changed, moved or was deleted
	ReasonMembership      = "membership"       // the scope's record set changed otherwise
	ReasonOutside         = "outside"          // a record in force is outside a consolidation's view
)

var reasonOrder = map[string]int{
	ReasonManifestMissing: 0, ReasonCurrentMissing: 0, ReasonManifestInvalid: 0, ReasonPairMismatch: 0, ReasonSchema: 0,
	ReasonDeleted: 1, ReasonArchived: 2, ReasonMoved: 3, ReasonStatus: 4, ReasonAdded: 5, ReasonRemoved: 6,
	ReasonEdited: 7, ReasonUnits: 8, ReasonDependency: 9, ReasonMembership: 10, ReasonOutside: 5,
}

// MaxReasons bounds the reasons a Freshness lists; More counts the rest.
const MaxReasons = 8

// Reason is one cause of a view's state.
type Reason struct {
	Kind string `json:"kind"`
	// ID and Path name the record concerned (its path now, or where it
	// was when it is gone); empty when no record is concerned.
	ID   string `json:"id,omitempty"`
	Path string `json:"path,omitempty"`
	// File and Line locate the cause: the manifest entry of the source
	// (1-based line), CURRENT.md for a hand edit; Line 0 when no line
	// applies.
	File    string `json:"file"`
	Line    int    `json:"line"`
	Message string `json:"message"`
}

// Freshness is the state of one root's CURRENT pair.
type Freshness struct {
	Root         string `json:"root"`
	State        State  `json:"state"`
	CurrentPath  string `json:"current"`
	ManifestPath string `json:"manifest"`
	// Plan and Revision come from the manifest when it could be read.
	Plan     string `json:"plan,omitempty"`
	Revision int    `json:"revision,omitempty"`
	// Reasons are the causes of a state other than fresh and missing,
	// most specific first, at most MaxReasons; More counts the others.
	Reasons []Reason `json:"reasons"`
	More    int      `json:"more"`
	// Manifest is the decoded manifest (nil when it could not be read);
	// Current is CURRENT.md's bytes (nil when missing).
	Manifest *Manifest `json:"-"`
	Current  []byte    `json:"-"`
}

// Exists reports whether the root has at least one file of a pair.
func (f Freshness) Exists() bool { return f.State != Missing }

// Summary says in one line why the view is not fresh: the first reason
// and how many others there are ("" when fresh or missing).
func (f Freshness) Summary() string {
	if len(f.Reasons) == 0 {
		return ""
	}
	s := f.Reasons[0].Message
	if n := len(f.Reasons) - 1 + f.More; n > 0 {
		s += fmt.Sprintf(" (and %d more)", n)
	}
	return s
}

// Fix is the command that makes the view fresh again. A view that no
// longer covers a decision in force is drafted again over the whole
// root: its own selection would leave that decision out again.
func (f Freshness) Fix() string {
	for _, r := range f.Reasons {
		if r.Kind == ReasonOutside {
			return "git adr compaction --mode summary"
		}
	}
	if f.Manifest != nil {
		return f.Manifest.RegenerateCommand()
	}
	return "git adr compaction --mode summary"
}

// Check decides, from l's file system (a work tree, the index or a commit
// tree: whatever l was loaded from), whether root's CURRENT pair is fresh.
// It reads the two files, hashes only the sources and dependencies the
// manifest lists (records a lazy log has not parsed are read, not
// parsed, unless their content changed) and computes the membership in
// one pass over the root's records. It never looks at modification
// times. A checkout that converts line endings (core.autocrlf) does not
// make a view stale: content is compared as git stores it.
func Check(l *adr.Log, root *adr.Root) Freshness {
	f := Freshness{Root: root.Dir(), CurrentPath: root.Join(CurrentFile), ManifestPath: root.Join(ManifestFile), Reasons: []Reason{}}
	if root.Refused != nil || root.File {
		// Nothing in a refused root is read (loading noted why); a
		// single-file log has no folder for a view.
		f.State = Missing
		return f
	}
	cur, curErr := fs.ReadFile(l.FS, f.CurrentPath)
	man, manErr := fs.ReadFile(l.FS, f.ManifestPath)
	curGone, manGone := errors.Is(curErr, fs.ErrNotExist), errors.Is(manErr, fs.ErrNotExist)
	if curGone && manGone {
		f.State = Missing
		return f
	}
	if curErr == nil {
		f.Current = cur
	}
	corrupt := func(kind, file string, line int, format string, args ...any) Freshness {
		f.State = Corrupt
		f.Reasons = []Reason{{Kind: kind, File: file, Line: line, Message: fmt.Sprintf(format, args...)}}
		return f
	}
	switch {
	case manGone && !Generated(cur):
		// A CURRENT.md of the team's own, not a view: git-adr neither
		// uses nor reports it (and publication refuses to overwrite it).
		f.State = Missing
		f.Current = nil
		return f
	case manGone:
		return corrupt(ReasonManifestMissing, f.CurrentPath, 0, "%s exists without %s", f.CurrentPath, ManifestFile)
	case manErr != nil:
		return corrupt(ReasonManifestInvalid, f.ManifestPath, 0, "%s cannot be read: %v", f.ManifestPath, manErr)
	}
	m, err := DecodeManifest(man)
	if errors.Is(err, ErrUnsupported) {
		f.State = Unsupported
		f.Reasons = []Reason{{Kind: ReasonSchema, File: f.ManifestPath, Line: lineOf(man, `"schema"`, 0),
			Message: fmt.Sprintf("%s: %v", f.ManifestPath, err)}}
		return f
	}
	if err != nil {
		return corrupt(ReasonManifestInvalid, f.ManifestPath, errorLine(man, err), "%s is not a valid manifest: %v", f.ManifestPath, err)
	}
	f.Manifest, f.Plan, f.Revision = m, m.Plan, m.Revision
	switch {
	case curGone:
		return corrupt(ReasonCurrentMissing, f.ManifestPath, 0, "%s exists without %s", f.ManifestPath, CurrentFile)
	case curErr != nil:
		return corrupt(ReasonPairMismatch, f.CurrentPath, 0, "%s cannot be read: %v", f.CurrentPath, curErr)
	case m.Root != root.Dir() || m.Summary.Path != f.CurrentPath:
		return corrupt(ReasonPairMismatch, f.ManifestPath, lineOf(man, `"root"`, 0),
			"%s describes root %q and summary %q, not this root's %s", f.ManifestPath, m.Root, m.Summary.Path, f.CurrentPath)
	case !sameContent(cur, m.Summary.SHA256, SummaryHash):
		return corrupt(ReasonPairMismatch, f.CurrentPath, 0,
			"%s is not the file %s pins (edited by hand, or the pair was mixed up)", f.CurrentPath, ManifestFile)
	case membershipOfSources(m.Sources) != m.Membership:
		return corrupt(ReasonManifestInvalid, f.ManifestPath, lineOf(man, `"membership"`, 0),
			"%s: the membership does not match the sources it lists", f.ManifestPath)
	}
	f.Reasons = staleReasons(l, root, m, man)
	if len(f.Reasons) == 0 {
		f.State = Fresh
		return f
	}
	f.State = Stale
	if len(f.Reasons) > MaxReasons {
		f.More = len(f.Reasons) - MaxReasons
		f.Reasons = f.Reasons[:MaxReasons]
	}
	return f
}

func membershipOfSources(ss []Source) string {
	keys := make([]string, len(ss))
	for i, s := range ss {
		keys[i] = s.Path + "\x00" + s.ID
	}
	return membershipOf(keys)
}

// staleReasons compares the log with a sound manifest.
func staleReasons(l *adr.Log, root *adr.Root, m *Manifest, man []byte) []Reason {
	var out []Reason
	since := fmt.Sprintf("since plan %s revision %d", m.Plan, m.Revision)
	mf := root.Join(ManifestFile)
	members := Members(l, root, m.Selection)
	isMember := map[*adr.Record]bool{}
	for _, r := range members {
		isMember[r] = true
	}
	srcPaths := map[string]bool{}
	for _, s := range m.Sources {
		srcPaths[s.Path] = true
	}
	explained := map[*adr.Record]bool{} // members a source moved to
	// newcomers are members the manifest does not list, by blob, to
	// recognise a renumbered record.
	var newcomers []*adr.Record
	for _, r := range members {
		if !srcPaths[r.Path] {
			newcomers = append(newcomers, r)
		}
	}
	lines := manifestLines(man)
	for _, s := range m.Sources {
		add := func(kind, path, format string, args ...any) {
			out = append(out, Reason{Kind: kind, ID: s.ID, Path: path, File: mf, Line: lines.of("sources", s.ID), Message: fmt.Sprintf(format, args...)})
		}
		r := l.ByPath(s.Path)
		if r == nil {
			n := findByID(root.Records, s.ID)
			if n == nil {
				// A renumbered record: the same bytes, or (its title and
				// links rewritten) the same decision units.
				for _, c := range newcomers {
					if !explained[c] && (sameContent(content(l, c), s.Blob, BlobHash) || l.Ensure(c) == nil && sameUnitText(c, s)) {
						n = c
						break
					}
				}
			}
			switch {
			case n == nil:
				add(ReasonDeleted, s.Path, "%s (%s) was deleted %s", s.ID, s.Path, since)
			case n.Archived:
				add(ReasonArchived, n.Path, "%s was archived to %s %s", s.ID, n.Path, since)
			default:
				explained[n] = true
				what := "content unchanged"
				switch {
				case sameContent(content(l, n), s.Blob, BlobHash):
				case l.Ensure(n) == nil && sameUnitText(n, s):
					what = "decision units unchanged"
				default:
					what = "and changed"
				}
				if n.ID != s.ID {
					add(ReasonMoved, n.Path, "%s (%s) is now %s (%s), %s", s.ID, s.Path, n.ID, n.Path, what)
				} else {
					add(ReasonMoved, n.Path, "%s moved from %s to %s %s, %s", s.ID, s.Path, n.Path, since, what)
				}
			}
			continue
		}
		if r.ID != s.ID {
			add(ReasonMoved, r.Path, "%s (%s) is now %s", s.ID, s.Path, r.ID)
		}
		if !isMember[r] {
			add(ReasonRemoved, r.Path, "%s left the view's scope %s", s.ID, since)
		}
		if !sameContent(content(l, r), s.Blob, BlobHash) {
			if l.Ensure(r) == nil && string(r.Status) != s.Status {
				add(ReasonStatus, r.Path, "%s changed status from %s to %s %s", s.ID, s.Status, r.Status, since)
			} else {
				add(ReasonEdited, r.Path, "%s changed %s", s.ID, since)
			}
			continue
		}
		if r.Text() != nil && !sameUnits(r, s) {
			add(ReasonUnits, r.Path, "%s is divided into decision units differently by this git-adr than when the view was built", s.ID)
		}
	}
	memLine := lines.of("membership", "")
	for _, r := range newcomers {
		if explained[r] {
			continue
		}
		where := "a new record in " + root.Dir()
		if m.Selection.Mode == ModeDomain {
			where = fmt.Sprintf("a record in domain %q", m.Selection.Domain)
		}
		out = append(out, Reason{Kind: ReasonAdded, ID: r.ID, Path: r.Path, File: mf, Line: memLine,
			Message: fmt.Sprintf("%s entered the view's scope %s (%s)", r.ID, since, where)})
	}
	// A consolidation's view stands for every decision in force in its
	// root (acceptance refuses one that does not): a record in force
	// outside its scope, accepted since, means it no longer does.
	if ByConsolidation(m) {
		for _, r := range Outside(l, root, m.Selection) {
			if srcPaths[r.Path] || explained[r] {
				continue
			}
			out = append(out, Reason{Kind: ReasonOutside, ID: r.ID, Path: r.Path, File: mf, Line: memLine,
				Message: fmt.Sprintf("%s is in force in %s but outside the view, which plan %s revision %d published for the decisions in force then", r.ID, root.Dir(), m.Plan, m.Revision)})
		}
	}
	for _, d := range m.Dependencies {
		add := func(path, format string, args ...any) {
			out = append(out, Reason{Kind: ReasonDependency, ID: d.ID, Path: path, File: mf, Line: lines.of("dependencies", d.ID), Message: fmt.Sprintf(format, args...)})
		}
		r := l.ByPath(d.Path)
		if r == nil {
			if n := findByID(l.Records, d.ID); n != nil {
				add(n.Path, "dependency %s moved from %s to %s %s", d.ID, d.Path, n.Path, since)
			} else {
				add(d.Path, "dependency %s (%s) was deleted %s", d.ID, d.Path, since)
			}
			continue
		}
		if !sameContent(content(l, r), d.Blob, BlobHash) {
			if l.Ensure(r) == nil && string(r.Status) != d.Status {
				add(r.Path, "dependency %s changed status from %s to %s %s", d.ID, d.Status, r.Status, since)
			} else {
				add(r.Path, "dependency %s changed %s", d.ID, since)
			}
		}
	}
	if len(out) == 0 && MembershipHash(members) != m.Membership {
		out = append(out, Reason{Kind: ReasonMembership, File: mf, Line: memLine,
			Message: fmt.Sprintf("the records in the view's scope changed %s", since)})
	}
	sort.SliceStable(out, func(i, j int) bool { return reasonOrder[out[i].Kind] < reasonOrder[out[j].Kind] })
	return out
}

// content returns a record's bytes without parsing it.
func content(l *adr.Log, r *adr.Record) []byte {
	if r.Text() != nil {
		return r.Text().Src
	}
	data, err := fs.ReadFile(l.FS, r.Path)
	if err != nil {
		return nil
	}
	return data
}

// sameContent compares data with a pinned hash, also as git would store
// it when a checkout converted LF to CRLF.
func sameContent(data []byte, want string, hash func([]byte) string) bool {
	if data == nil {
		return false
	}
	if hash(data) == want {
		return true
	}
	return bytes.Contains(data, []byte("\r\n")) && hash(bytes.ReplaceAll(data, []byte("\r\n"), []byte("\n"))) == want
}

func sameUnits(r *adr.Record, s Source) bool {
	if len(r.Units()) != len(s.Units) {
		return false
	}
	for i, u := range r.Units() {
		if u.ID != s.Units[i].Locator || u.Hash != s.Units[i].Hash {
			return false
		}
	}
	return true
}

// sameUnitText reports units with the same anchors and text as a
// source's, whatever the record's ID.
func sameUnitText(r *adr.Record, s Source) bool {
	if len(r.Units()) != len(s.Units) || len(r.Units()) == 0 {
		return false
	}
	for i, u := range r.Units() {
		_, anchor := adr.SplitLocator(s.Units[i].Locator)
		if u.Anchor != anchor || u.Hash != s.Units[i].Hash {
			return false
		}
	}
	return true
}

func findByID(recs []*adr.Record, id string) *adr.Record {
	for _, r := range recs {
		if strings.EqualFold(r.ID, id) {
			return r
		}
	}
	return nil
}

// lineIndex finds manifest lines for reasons; it is built on first use,
// in one pass, so a fresh view costs nothing.
type lineIndex struct {
	data  []byte
	built bool
	// at maps "sources\x00ID" and "dependencies\x00ID" to the line of the
	// entry's "id", and "membership\x00" to the membership line.
	at map[string]int
}

func manifestLines(data []byte) *lineIndex { return &lineIndex{data: data} }

func (x *lineIndex) of(section, id string) int {
	if !x.built {
		x.built = true
		x.at = map[string]int{}
		sec := ""
		for i, ln := range bytes.Split(x.data, []byte("\n")) {
			t := bytes.TrimSpace(ln)
			switch {
			case bytes.HasPrefix(t, []byte(`"sources":`)):
				sec = "sources"
			case bytes.HasPrefix(t, []byte(`"dependencies":`)):
				sec = "dependencies"
			case bytes.HasPrefix(t, []byte(`"membership":`)):
				x.at["membership\x00"] = i + 1
			case bytes.HasPrefix(t, []byte(`"id":`)) && sec != "":
				var v string
				if json.Unmarshal(bytes.TrimSuffix(bytes.TrimSpace(t[len(`"id":`):]), []byte(",")), &v) == nil {
					if k := sec + "\x00" + v; x.at[k] == 0 {
						x.at[k] = i + 1
					}
				}
			}
		}
	}
	return x.at[section+"\x00"+id]
}

// lineOf returns the 1-based line of the first occurrence of needle in
// data at or after line from (1-based; 0 for the start), 0 when absent.
func lineOf(data []byte, needle string, from int) int {
	lines := bytes.Split(data, []byte("\n"))
	for i := max(from-1, 0); i < len(lines); i++ {
		if bytes.Contains(lines[i], []byte(needle)) {
			return i + 1
		}
	}
	return 0
}

// errorLine is the 1-based line of a JSON syntax error, 0 otherwise.
func errorLine(data []byte, err error) int {
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	off := int64(-1)
	switch {
	case errors.As(err, &se):
		off = se.Offset
	case errors.As(err, &te):
		off = te.Offset
	}
	if off < 0 || off > int64(len(data)) {
		return 0
	}
	return bytes.Count(data[:off], []byte("\n")) + 1
}
