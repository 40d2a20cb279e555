package guard

import (
	"errors"
	"fmt"
	"github.com/git-adr/git-adr/internal/confine"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/git-adr/git-adr/adr"
)

// maxFindingPaths bounds the paths a finding names.
const maxFindingPaths = 20

// MaxTargeted is how many records one call may read by name before the
// call counts as an unscoped read of the log.
const MaxTargeted = 3

// GuardFiles are the files that configure the guard or install its agent
// hooks, relative to the repository's top; an agent's writes to them are
// judged (see docs/guard.md).
var GuardFiles = []string{
	adr.ConfigFile,
	".claude/settings.json", ".claude/settings.local.json",
	".codex/hooks.json", ".codex/config.toml",
	".opencode/plugin/git-adr-guard.js", ".opencode/plugins/git-adr-guard.js",
}

// hookMarker is text every installed agent hook holds.
const hookMarker = "adr guard --hook"

// Policy judges the tool calls of agents in one repository.
type Policy struct {
	// Setting is the mode in effect.
	Setting Setting
	// Scope is the protected layout and Log the log it was built from;
	// both nil when it could not be read (Err says why).
	Scope *Scope
	Log   *adr.Log
	// Err makes the guard degraded: the mode or the layout could not be
	// read. A mode that cannot be read judges as guard mode.
	Err error
	// Top is the work tree; GitConfig is the repository's own git config
	// file (written by `git config adr.guard.mode`).
	Top, GitConfig string
	// Session remembers warnings and reads (nil: none).
	Session *Session
	// Restored reads a file as `git restore` would write it: rel (from
	// the top) at rev, or in the index when rev is ""; ok is false when
	// the source has no such file. nil: not known, and a restore that
	// reaches a guard file is refused.
	Restored func(rev, rel string) (data []byte, ok bool, err error)
}

// Mode is the mode the policy judges in.
func (p *Policy) Mode() Mode {
	var me *ModeError
	if errors.As(p.Err, &me) {
		return Guard
	}
	if p.Setting.Mode == "" {
		return Off
	}
	return p.Setting.Mode
}

// Judge decides one tool call. It never fails: what it cannot judge is a
// finding ([RuleDegraded], [RuleUnparsed]) in the decision. A search
// refused only because it reaches the ADR roots carries the same search
// without them in Decision.Narrowed (see narrow).
func (p *Policy) Judge(r Request) Decision {
	d := p.judge(r)
	if d.Verdict == Deny {
		if n, ok := p.narrow(r, d.Findings); ok {
			d.Narrowed = n
			d.Reason += " " + narrowedText(r, *n)
		}
	}
	return d
}

// narrowedText names the narrowed call in a refusal.
func narrowedText(r, n Request) string {
	if r.Op == OpShell {
		return "To search everything else, run " + quote(n.Command) + "."
	}
	return "To search everything else, search again with the glob " + quote(n.Glob) + "."
}

func (p *Policy) judge(r Request) Decision {
	mode := p.Mode()
	if mode == Off {
		return Decision{Verdict: Allow, Mode: Off}
	}
	var findings []Finding
	accs, more := p.accesses(r)
	findings = append(findings, more...)
	findings = append(findings, p.configWrites(r, accs)...)
	var notes []string
	if p.Scope == nil {
		for _, a := range accs {
			if a.Kind == Read || a.Kind == Search {
				findings = append(findings, Finding{Rule: RuleDegraded, Err: p.Err})
				break
			}
		}
	} else {
		f, reads := p.judgeAccesses(accs)
		findings = append(findings, f...)
		notes = p.repeats(r, reads)
	}
	findings = mergeFindings(findings)
	if len(findings) == 0 {
		return Decision{Verdict: Allow, Mode: mode, Notes: notes}
	}
	var texts, keys []string
	for _, f := range findings {
		texts = append(texts, f.text(p.Log))
		keys = append(keys, f.key())
	}
	body := strings.Join(texts, " Also: ")
	if mode == Guard {
		return Decision{Verdict: Deny, Mode: mode, Findings: findings, Reason: "git-adr guard: " + body}
	}
	if p.Session != nil {
		if fresh, err := p.Session.warn(strings.Join(keys, "\x01")); err == nil && !fresh {
			return Decision{Verdict: Allow, Mode: mode, Findings: findings, Notes: notes}
		}
	}
	return Decision{Verdict: Warned, Mode: mode, Findings: findings, Notes: notes,
		Reason: "git-adr guard (warn mode: this call runs; in guard mode it is refused): " + body}
}

// accesses turns a request into accesses, with the findings the request
// itself carries (person-only commands, an unparsable command).
func (p *Policy) accesses(r Request) ([]Access, []Finding) {
	cwd := r.Cwd
	if cwd == "" {
		cwd = p.Top
	}
	switch r.Op {
	case OpRead:
		var out []Access
		for _, x := range append([]string{r.Path}, r.Paths...) {
			if x != "" {
				out = append(out, Access{Kind: Read, Path: x, Dir: cwd, Via: r.Tool})
			}
		}
		return out, nil
	case OpSearch:
		var f Filter
		if r.Glob != "" {
			f = append(f, &RgGlobs{Globs: []string{r.Glob}})
		}
		if r.Include != "" {
			f = append(f, &NameGlob{Glob: r.Include})
		}
		if r.Type != "" {
			f = append(f, FileTypes{Types: []string{r.Type}})
		}
		pth := r.Path
		if pth == "" {
			pth = "."
		}
		return []Access{{Kind: Search, Path: pth, Dir: cwd, Recursive: true, Filter: f, Via: r.Tool}}, nil
	case OpWrite:
		return []Access{{Kind: Write, Path: r.Path, Dir: cwd, Via: r.Tool}}, nil
	case OpShell:
		rec := Recognise(r.Command, cwd)
		if rec.Err != nil {
			if p.namesLog(r.Command) {
				return nil, []Finding{{Rule: RuleUnparsed, Err: rec.Err}}
			}
			return nil, nil
		}
		return rec.Accesses, rec.Person
	}
	return nil, nil
}

// namesLog reports whether text mentions an ADR root, an archive or
// git-adr: an unparsable command that does is judged, others are not.
func (p *Policy) namesLog(text string) bool {
	if strings.Contains(text, "git adr") || strings.Contains(text, "git-adr") || strings.Contains(text, adr.ArchiveDir) {
		return true
	}
	if p.Scope == nil {
		return true
	}
	for _, r := range p.Scope.Roots() {
		if r.Path == "" || strings.Contains(text, r.Path) || strings.Contains(text, filepath.Base(r.Path)) {
			return true
		}
	}
	return false
}

// rel is a path's repository-relative form, lexically (links are not
// followed: the guard's own files are judged by name).
func (p *Policy) rel(dir, path string) string {
	abs := path
	if !filepath.IsAbs(abs) {
		if dir == "" {
			dir = p.Top
		}
		abs = filepath.Join(dir, abs)
	}
	if p.GitConfig != "" && filepath.Clean(abs) == filepath.Clean(p.GitConfig) {
		return ".git/config"
	}
	rel, err := filepath.Rel(p.Top, filepath.Clean(abs))
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return ""
	}
	return filepath.ToSlash(rel)
}

func isGuardFile(rel string) bool {
	if rel == ".git/config" {
		return true
	}
	for _, g := range GuardFiles {
		if strings.EqualFold(rel, g) {
			return true
		}
	}
	return false
}

// configWrites judges writes to the guard's own configuration: a shell
// write to any of its files, and an edit tool's change that touches the
// [guard] table of .adr.toml or removes an installed hook.
func (p *Policy) configWrites(r Request, accs []Access) []Finding {
	var out []Finding
	for _, a := range accs {
		if a.Kind != Write {
			continue
		}
		if a.Restore {
			if g := p.restoreWeakens(a); g != "" {
				out = append(out, Finding{Rule: RuleConfig, Paths: []string{g}, Via: r.Command, Shell: true})
			}
			continue
		}
		rel := p.rel(a.Dir, a.Path)
		if !isGuardFile(rel) {
			continue
		}
		if r.Op == OpShell {
			out = append(out, Finding{Rule: RuleConfig, Paths: []string{rel}, Via: r.Command, Shell: true})
			continue
		}
		if p.editWeakens(rel, r) {
			out = append(out, Finding{Rule: RuleConfig, Paths: []string{rel}, Via: r.Tool})
		}
	}
	return out
}

// restoreWeakens judges a git restore or checkout of the pathspec a.Path
// from a.Rev: the guard file it would change the guard through, or "". A
// guard file the pathspec names is refused whatever the source holds, as
// any shell write to it is; one a wider pathspec covers (".", a folder,
// a glob) is refused only when the source would change the guard (the
// mode in .adr.toml, an installed hook), or cannot be read.
func (p *Policy) restoreWeakens(a Access) string {
	for _, g := range GuardFiles {
		explicit, reach := p.pathspecReaches(a.Dir, a.Path, g)
		if !reach {
			continue
		}
		cur, err := readGuardFile(p.Top, g)
		exists := err == nil
		switch {
		case explicit:
			return g
		case p.Restored == nil:
			if exists {
				return g
			}
			continue
		}
		src, ok, err := p.Restored(a.Rev, g)
		switch {
		case err != nil:
			return g
		case !ok && (!exists || a.Rev == ""):
			continue // nothing to put back: left alone (an untracked file too)
		case !ok:
			return g // git restore --source deletes a file its source lacks
		case exists && string(src) == string(cur):
			continue
		case p.editWeakens(g, Request{WholeFile: true, Content: string(src)}):
			return g
		}
	}
	return ""
}

// pathspecReaches reports whether the git pathspec spec, written in dir,
// names the guard file g (explicit) or covers it (a folder above it, ".",
// a glob, ":/").
func (p *Policy) pathspecReaches(dir, spec, g string) (explicit, reach bool) {
	if strings.HasPrefix(spec, ":") {
		base := p.rel(dir, ".")
		sub := ""
		if base != "" && within(g, base) {
			sub = strings.TrimPrefix(strings.TrimPrefix(g, base), "/")
			if base == "." {
				sub = g
			}
		}
		return false, (Pathspecs{Specs: []string{spec}}).Keep(g, sub)
	}
	rel := p.rel(dir, spec)
	if rel == "" {
		return false, false
	}
	if strings.EqualFold(rel, g) {
		return true, true
	}
	return false, specMatch(rel, g)
}

// readGuardFile reads the guard file rel under top without blocking: a
// named pipe put in its place is an error (which refuses the change), not
// a wait that would outlast the agent's hook timeout and let the call run.
func readGuardFile(top, rel string) ([]byte, error) {
	return confine.ReadRegularFileUpTo(filepath.Join(top, filepath.FromSlash(rel)), -1)
}

// editWeakens reports whether an edit tool's write of the guard file rel
// changes the guard.
func (p *Policy) editWeakens(rel string, r Request) bool {
	cur, err := readGuardFile(p.Top, rel)
	if err != nil && !os.IsNotExist(err) {
		return true
	}
	switch {
	case rel == ".git/config":
		return true
	case strings.EqualFold(rel, adr.ConfigFile):
		if !r.WholeFile {
			return strings.Contains(strings.ToLower(r.Old+r.New), "guard")
		}
		was, werr := FileMode(cur)
		now, nerr := FileMode([]byte(r.Content))
		return was != now || werr == nil && nerr != nil
	case strings.HasSuffix(rel, ".js"):
		return true
	}
	if !r.WholeFile {
		return strings.Contains(r.Old, hookMarker) || strings.Contains(r.Old, "git-adr-guard")
	}
	return strings.Contains(string(cur), hookMarker) && !strings.Contains(r.Content, hookMarker)
}

// reach is what one set of accesses (one path, or one expansion) reaches.
type reach struct {
	live, archived []Candidate
	seen           map[string]bool
	via            string
	order          int
	// read: the set is read (not only searched), so a repeat counts.
	read bool
}

func (s *reach) add(c Candidate) {
	if s.seen[c.Rel] {
		return
	}
	if s.seen == nil {
		s.seen = map[string]bool{}
	}
	s.seen[c.Rel] = true
	if c.Archived {
		s.archived = append(s.archived, c)
	} else {
		s.live = append(s.live, c)
	}
}

// judgeAccesses applies the archived and unscoped rules; it returns the
// findings and the single live files read (not searched) by name, for
// repeat reads.
func (p *Policy) judgeAccesses(accs []Access) ([]Finding, []Candidate) {
	sets := map[int]*reach{}
	for i, a := range accs {
		if a.Kind != Read && a.Kind != Search {
			continue
		}
		key := a.Group
		if key == 0 {
			key = -(i + 1)
		}
		dir := a.Dir
		if dir == "" {
			dir = p.Scope.Top()
		}
		pl := p.Scope.Locate(dir, a.Path)
		if a.Rev != "" && pl.Class != Archived && pl.Record == nil {
			// git show OLDREV:doc/adr/0002-x.md: where an archived record
			// was before it was archived (or its root moved).
			if c, ok := p.Scope.ArchivedNamed(pl.Rel); ok {
				s := sets[key]
				if s == nil {
					s = &reach{via: a.Via, order: i}
					sets[key] = s
				}
				s.read = true
				s.add(c)
				continue
			}
		}
		if pl.Rel == "" || pl.Class == Unrelated {
			continue
		}
		s := sets[key]
		if s == nil {
			s = &reach{via: a.Via, order: i}
			sets[key] = s
		}
		s.read = s.read || a.Kind == Read
		if pl.Class != Archived && p.Scope.IsDir(pl) {
			if !a.Recursive {
				continue
			}
			for _, c := range p.Scope.Under(pl.Rel) {
				sub := strings.TrimPrefix(c.Rel, pl.Rel+"/")
				if pl.Rel == "." {
					sub = c.Rel
				}
				if a.Filter.Keep(c.Rel, sub) {
					s.add(c)
				}
			}
			continue
		}
		switch {
		case pl.Class == Archived:
			s.add(Candidate{Rel: pl.Rel, Root: pl.Root, Record: pl.Record, Archived: true})
		case pl.Record != nil:
			s.add(Candidate{Rel: pl.Rel, Root: pl.Root, Record: pl.Record})
		}
	}
	var keys []int
	for k := range sets {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool { return sets[keys[i]].order < sets[keys[j]].order })
	var out []Finding
	var targeted, reads []Candidate
	for _, k := range keys {
		s := sets[k]
		n := len(s.live) + len(s.archived)
		switch {
		case n >= 2:
			out = append(out, unscoped(append(append([]Candidate(nil), s.live...), s.archived...), len(s.archived), s.via))
		case len(s.archived) == 1:
			c := s.archived[0]
			f := Finding{Rule: RuleArchived, Paths: []string{c.Rel}, Via: s.via}
			if c.Record != nil {
				f.Records = []*adr.Record{c.Record}
			}
			out = append(out, f)
		case len(s.live) == 1:
			targeted = append(targeted, s.live[0])
			if s.read {
				reads = append(reads, s.live[0])
			}
		}
	}
	distinct := map[string]bool{}
	for _, c := range targeted {
		distinct[c.Rel] = true
	}
	if len(distinct) > MaxTargeted {
		out = append(out, unscoped(targeted, 0, ""))
	}
	return out, reads
}

func unscoped(cs []Candidate, archived int, via string) Finding {
	count := map[*adr.Root]int{}
	var root *adr.Root
	seen := map[string]bool{}
	var paths []string
	for _, c := range cs {
		if seen[c.Rel] {
			continue
		}
		seen[c.Rel] = true
		if len(paths) < maxFindingPaths {
			paths = append(paths, c.Rel)
		}
		count[c.Root]++
		if root == nil || count[c.Root] > count[root] {
			root = c.Root
		}
	}
	return Finding{Rule: RuleUnscoped, Paths: paths, Count: len(seen), Archived: archived, Root: root, Via: via}
}

// mergeFindings keeps one finding per rule and path set, archived reads
// merged into one.
func mergeFindings(fs []Finding) []Finding {
	var out []Finding
	arch := -1
	seen := map[string]bool{}
	for _, f := range fs {
		if f.Rule == RuleArchived {
			if arch >= 0 {
				a := &out[arch]
				for i, p := range f.Paths {
					if !contains(a.Paths, p) {
						a.Paths = append(a.Paths, p)
						if i < len(f.Records) {
							a.Records = append(a.Records, f.Records[i])
						}
					}
				}
				continue
			}
			arch = len(out)
		}
		k := f.key()
		if seen[k] {
			continue
		}
		seen[k] = true
		out = append(out, f)
	}
	sort.SliceStable(out, func(i, j int) bool { return ruleRank(out[i].Rule) < ruleRank(out[j].Rule) })
	return out
}

func ruleRank(r Rule) int {
	switch r {
	case RulePerson:
		return 0
	case RuleConfig:
		return 1
	case RuleArchived:
		return 2
	case RuleUnscoped:
		return 3
	}
	return 4
}

func contains(ss []string, s string) bool {
	for _, x := range ss {
		if x == s {
			return true
		}
	}
	return false
}

// repeats notes reads, by name, of files already read in this session
// whose content has not changed since.
func (p *Policy) repeats(r Request, reads []Candidate) []string {
	if p.Session == nil {
		return nil
	}
	var notes []string
	for _, c := range reads {
		fi, err := os.Stat(filepath.Join(p.Scope.Top(), filepath.FromSlash(c.Rel)))
		if err != nil {
			continue
		}
		before, same, err := p.Session.read(c.Rel, fingerprint(fi))
		if err != nil || before == 0 || !same {
			continue
		}
		id := ""
		alt := quote("git adr context --task \"what you are doing\"")
		if c.Record != nil {
			id = " (" + c.Record.ID + ")"
			alt = quote("git adr context " + c.Record.ID)
		}
		notes = append(notes, fmt.Sprintf("git-adr guard: %s%s was already read %s in this session and has not changed since: use what you read, or %s for the decision in force.",
			c.Rel, id, times(before), alt))
	}
	return notes
}

func times(n int) string {
	if n == 1 {
		return "once"
	}
	return fmt.Sprintf("%d times", n)
}

// GitRestorer is [Policy.Restored] through git: run runs git in the
// repository and returns its standard output. A revision git cannot
// read is an error (the restore is then refused); a file the revision
// or the index does not hold is not ok.
func GitRestorer(run func(args ...string) ([]byte, error)) func(rev, rel string) ([]byte, bool, error) {
	return func(rev, rel string) ([]byte, bool, error) {
		if strings.HasPrefix(rev, "-") || strings.ContainsAny(rev, "\x00\n:") {
			return nil, false, fmt.Errorf("the revision %q is not one git-adr asks git about", rev)
		}
		if rev != "" {
			if _, err := run("rev-parse", "--verify", "--quiet", rev+"^{tree}"); err != nil {
				return nil, false, fmt.Errorf("git cannot read the revision %q", rev)
			}
		}
		obj := rev + ":" + rel
		if _, err := run("cat-file", "-e", obj); err != nil {
			return nil, false, nil
		}
		data, err := run("cat-file", "blob", obj)
		if err != nil {
			return nil, false, err
		}
		return data, true, nil
	}
}
