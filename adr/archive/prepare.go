package archive

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"github.com/git-adr/git-adr/adr"
	"github.com/git-adr/git-adr/adr/compaction"
	"github.com/git-adr/git-adr/adr/publish"
	"github.com/git-adr/git-adr/adr/view"
	"github.com/git-adr/git-adr/gitops"
)

// Request is what to plan.
type Request struct {
	Kind Kind
	// Base is the commit to plan from (HEAD).
	Base string
	// IDs name the records to archive, in any form `git adr` accepts.
	IDs []string
	// Layout is adr.ArchiveFlat or adr.ArchiveByYear.
	Layout string
	// Ack acknowledges the external-link risks the plan finds.
	Ack bool
	// Restore: the archival revision to undo, its plan ID and revision.
	Undo     *Plan
	PlanID   string
	Revision int
}

// RequestError is a request that names no record, or names one
// ambiguously: a usage error, nothing was planned.
type RequestError struct{ Msg, Hint string }

func (e *RequestError) Error() string { return e.Msg }

// Result is a plan with the commits that carry it out: one or two steps,
// each a list of tree changes on top of the step before (the base for
// the first).
type Result struct {
	Plan  *Plan
	Steps [][]gitops.TreeChange
	// After is the log as the plan leaves it.
	After *adr.Log
	// LocalChanges is set when a file the plan writes has uncommitted
	// changes (also a blocker): publish.ErrLocalChanges, wrapped.
	LocalChanges error
}

// planner holds what one Prepare reads.
type planner struct {
	repo    *gitops.Repo
	req     Request
	p       *Plan
	before  *adr.Log
	base    fs.FS
	entries map[string]gitops.TreeEntry
	paths   []string // every tracked path, sorted
	mv      *mover
	// files are the new contents, by path after the plan.
	files map[string]*change
	// exact maps a path as it is now to the blob it goes back to
	// (restore of a file nobody changed since the archival).
	exact map[string]string
}

type change struct {
	path, from, kind, mode string
	old, data              []byte
	links                  []LinkEdit
	exact                  bool
}

// Prepare computes the plan of req from the commit req.Base: wl is the
// work tree's log (its configuration and root options are used to read
// the commit the same way). It reads git objects and the work tree (for
// collisions and local changes) and writes only git objects (the trees it
// measures); blockers, risks and measurements are in the plan.
func Prepare(repo *gitops.Repo, wl *adr.Log, req Request) (*Result, error) {
	tfs, err := repo.TreeFS(req.Base)
	if err != nil {
		return nil, err
	}
	before, err := wl.Reload(tfs)
	if err != nil {
		return nil, err
	}
	list, err := repo.ListTree(req.Base)
	if err != nil {
		return nil, err
	}
	pl := &planner{repo: repo, req: req, before: before, base: tfs, entries: map[string]gitops.TreeEntry{}, files: map[string]*change{}, exact: map[string]string{}}
	for _, e := range list {
		pl.entries[e.Path] = e
		pl.paths = append(pl.paths, e.Path)
	}
	sort.Strings(pl.paths)
	layout := req.Layout
	if layout == "" {
		layout = adr.ArchiveFlat
	}
	pl.p = &Plan{Schema: Schema, Kind: req.Kind, State: Planned, Base: req.Base, Layout: layout,
		Records: []Move{}, Files: []File{}, Generated: []Generated{}, Risks: []Risk{}, Blockers: []string{}, Similarity: []Similarity{}}
	if req.Kind == KindRestore {
		pl.p.Layout = req.Undo.Layout
		err = pl.restoreMoves()
	} else {
		err = pl.archiveMoves()
	}
	if err != nil {
		return nil, err
	}
	moves := map[string]string{}
	for _, m := range pl.p.Records {
		moves[m.From] = m.To
	}
	pl.mv = newMover(moves)
	pl.collisions()
	if len(pl.p.Blockers) > 0 || len(moves) == 0 {
		pl.finish()
		return &Result{Plan: pl.p}, nil
	}
	if err := pl.rewriteAll(); err != nil {
		return nil, err
	}
	after, err := pl.afterLog(wl)
	if err != nil {
		return nil, err
	}
	if err := pl.generated(after); err != nil {
		return nil, err
	}
	pl.verify(after)
	if err := pl.risks(); err != nil {
		return nil, err
	}
	pl.files2plan()
	res := &Result{Plan: pl.p, After: after}
	if res.LocalChanges = publish.CheckClean(pl.repo, pl.req.Base, pl.changes()); res.LocalChanges != nil {
		pl.block("%v: commit or stash it first", res.LocalChanges)
	}
	pl.finish()
	if len(pl.p.Blockers) == 0 {
		if res.Steps, err = pl.measure(); err != nil {
			return nil, err
		}
	}
	return res, nil
}

// finish derives the plan's identity and its inverse.
func (pl *planner) finish() {
	p := pl.p
	p.Acknowledged = pl.req.Ack && len(p.Risks) > 0
	if p.Kind == KindRestore {
		p.ID, p.Undoes = pl.req.PlanID, pl.req.Revision
		p.Inverse = "git adr archive " + strings.Join(p.IDs(), " ")
		return
	}
	p.ID = NewID(p.Kind, p.Base, p.Layout, p.Acknowledged, p.Records)
	p.Inverse = "git adr archive restore " + p.ID
}

func (pl *planner) block(format string, args ...any) {
	pl.p.Blockers = append(pl.p.Blockers, fmt.Sprintf(format, args...))
}

// archiveMoves resolves the records to archive and checks that each is
// wholly retired, with the compaction analysis's rules: superseded,
// rejected or deprecated (every section of a sectioned container), no
// unresolved issue touching it; age alone never qualifies.
func (pl *planner) archiveMoves() error {
	l := pl.before
	var bad, hints []string
	var recs []*adr.Record
	seen := map[*adr.Record]bool{}
	for _, id := range pl.req.IDs {
		r, err := l.Resolve(id)
		var amb *adr.AmbiguousError
		switch {
		case errors.As(err, &amb):
			bad = append(bad, fmt.Sprintf("%q is ambiguous (%s)", id, amb.Paths()))
			hints = append(hints, "name an ambiguous record by its path")
		case err != nil:
			bad = append(bad, fmt.Sprintf("%q names no committed record", id))
			hints = append(hints, "`git adr list` shows every ID; archival reads the log at HEAD, so commit a new record first")
		case !seen[r]:
			seen[r] = true
			recs = append(recs, r)
		}
	}
	if len(bad) > 0 {
		return &RequestError{Msg: strings.Join(bad, "; "), Hint: hints[0]}
	}
	a, err := compaction.Analyze(l, compaction.AnalyzeOptions{})
	if err != nil {
		return err
	}
	class := map[string]compaction.RecordClass{}
	for _, rc := range a.Records {
		class[rc.Path] = rc
	}
	sort.SliceStable(recs, func(i, j int) bool { return logPos(l, recs[i]) < logPos(l, recs[j]) })
	for _, r := range recs {
		m := Move{ID: r.ID, Status: string(r.Status), From: r.Path}
		rc, ok := class[r.Path]
		switch {
		case r.Archived:
			pl.block("%s is already archived at %s", r.ID, r.Path)
			m.Reason = "already archived"
		case !ok:
			pl.block("%s (%s) cannot be classified", r.ID, r.Path)
		case rc.Class != compaction.ArchivalCandidate:
			pl.block("%s is not wholly retired (%s): %s", r.ID, r.Status, rc.Reason)
			m.Reason = rc.Reason
		default:
			m.Reason = rc.Reason
		}
		if !r.Archived {
			year := ""
			if pl.p.Layout == adr.ArchiveByYear {
				if year = pl.year(r); year == "" {
					pl.block("%s has no date to file it under archive/<year>/", r.ID)
				}
			}
			m.To = r.Root.ArchivePath(path.Base(r.Path), year)
		}
		pl.p.Records = append(pl.p.Records, m)
	}
	return nil
}

func logPos(l *adr.Log, r *adr.Record) int {
	for i, x := range l.Records {
		if x == r {
			return i
		}
	}
	return len(l.Records)
}

// year is the year archive/<year>/ files a record under: its date's, else
// the year of the commit that added it.
func (pl *planner) year(r *adr.Record) string {
	if len(r.Date) >= 4 && adr.IsArchiveYear(r.Date[:4]) {
		return r.Date[:4]
	}
	out, err := pl.repo.Git("log", "--diff-filter=A", "--format=%ad", "--date=format:%Y", pl.req.Base, "--", r.Path)
	if err != nil {
		return ""
	}
	lines := strings.Fields(string(out))
	if len(lines) == 0 || !adr.IsArchiveYear(lines[len(lines)-1]) {
		return ""
	}
	return lines[len(lines)-1]
}

// restoreMoves reverses an archival's moves: each record must still be
// where the archival put it.
func (pl *planner) restoreMoves() error {
	for _, m := range pl.req.Undo.Records {
		r := pl.before.ByPath(m.To)
		back := Move{ID: m.ID, From: m.To, To: m.From, Status: m.Status,
			Reason: "restored to where it was; it keeps its status (restoring a location does not restore authority)"}
		switch {
		case r == nil:
			pl.block("%s is no longer at %s, where archive plan %s put it", m.ID, m.To, pl.req.PlanID)
		default:
			back.Status = string(r.Status)
		}
		pl.p.Records = append(pl.p.Records, back)
	}
	for _, f := range pl.req.Undo.Files {
		if e, ok := pl.entries[f.Path]; ok && e.Hash == f.After {
			pl.exact[f.Path] = f.Before
		}
	}
	return nil
}

// collisions refuses a destination that is taken, in HEAD, the index or
// the work tree, or that a file or a symbolic link stands in the way of.
func (pl *planner) collisions() {
	seen := map[string]string{}
	for _, m := range pl.p.Records {
		if m.To == "" {
			continue
		}
		if other, ok := seen[m.To]; ok {
			pl.block("%s and %s would both move to %s", other, m.ID, m.To)
			continue
		}
		seen[m.To] = m.ID
		if _, ok := pl.entries[m.To]; ok {
			pl.block("%s cannot move to %s: that path exists (collision)", m.ID, m.To)
			continue
		}
		dir := path.Dir(m.To)
		for d := dir; d != "." && d != ""; d = path.Dir(d) {
			if e, ok := pl.entries[d]; ok {
				what := "a file"
				if e.Mode == "120000" {
					what = "a symbolic link"
				}
				pl.block("%s cannot move to %s: %s is %s in HEAD", m.ID, m.To, d, what)
			}
		}
		if in, err := pl.repo.IndexBlob(m.To); err == nil && in != "" {
			pl.block("%s cannot move to %s: that path is staged in the index (collision)", m.ID, m.To)
		}
		if msg := workInTheWay(pl.repo.Top, m.To); msg != "" {
			pl.block("%s cannot move to %s: %s", m.ID, m.To, msg)
		}
	}
}

// workInTheWay says what in the work tree stops a file from being
// written at p: the file itself, or a folder on the way that is a file or
// a symbolic link (git-adr never writes through links).
func workInTheWay(top, p string) string {
	parts := strings.Split(p, "/")
	for i := range parts {
		sub := strings.Join(parts[:i+1], "/")
		fi, err := os.Lstat(filepath.Join(top, filepath.FromSlash(sub)))
		if errors.Is(err, fs.ErrNotExist) {
			return ""
		}
		switch {
		case err != nil:
			return err.Error()
		case fi.Mode()&fs.ModeSymlink != 0:
			return sub + " is a symbolic link in the work tree; git-adr does not write through links"
		case i == len(parts)-1:
			return sub + " exists in the work tree (an untracked file; collision)"
		case !fi.IsDir():
			return sub + " is a file in the work tree"
		}
	}
	return ""
}

// markdown reports a file name Markdown link rewriting reads.
func markdown(p string) bool {
	switch strings.ToLower(path.Ext(p)) {
	case ".md", ".markdown", ".mdx":
		return true
	}
	return false
}

// rewriteAll rewrites the links of every tracked Markdown file: the moved
// files' own (outbound) links, and every link that reaches a moved file
// (inbound). Files that cannot mention a moved file are not parsed.
func (pl *planner) rewriteAll() error {
	var needles [][]byte
	for from := range pl.mv.moves {
		b := path.Base(from)
		needles = append(needles, []byte(strings.TrimSuffix(b, path.Ext(b))))
	}
	for _, p := range pl.paths {
		e := pl.entries[p]
		if e.Type != "blob" || e.Mode == "120000" || !markdown(p) {
			continue
		}
		to := pl.mv.where(p)
		data, err := pl.repo.ReadBlob(e.Hash)
		if err != nil {
			return err
		}
		if to == p && !containsAny(data, needles) {
			continue
		}
		t := adr.NewText(data)
		edits, risks := pl.mv.rewrite(t, p, to)
		pl.p.Risks = append(pl.p.Risks, risks...)
		if len(edits) == 0 && to == p {
			continue
		}
		c := &change{path: to, kind: pl.kindOf(p), mode: e.Mode, old: data}
		if to != p {
			c.from = p
		}
		var ae []adr.Edit
		for _, ed := range edits {
			ae = append(ae, ed.Edit)
			c.links = append(c.links, LinkEdit{Line: ed.line, Old: ed.old, New: ed.new})
		}
		c.data = t.Apply(ae...)
		pl.files[to] = c
	}
	// A restore gives back the exact bytes of what nobody changed since.
	for now, back := range pl.exact {
		to := pl.mv.where(now)
		e := pl.entries[now]
		data, err := pl.repo.ReadBlob(back)
		if err != nil {
			return fmt.Errorf("the archival's copy of %s: %w", now, err)
		}
		c := pl.files[to]
		if c == nil {
			old, err := pl.repo.ReadBlob(e.Hash)
			if err != nil {
				return err
			}
			c = &change{path: to, kind: pl.kindOf(now), mode: e.Mode, old: old}
			if to != now {
				c.from = now
			}
			pl.files[to] = c
		}
		c.data, c.exact = data, true
	}
	return nil
}

func containsAny(data []byte, needles [][]byte) bool {
	for _, n := range needles {
		if bytes.Contains(data, n) {
			return true
		}
	}
	return false
}

// kindOf classifies a file for the preview.
func (pl *planner) kindOf(p string) string {
	if _, ok := pl.mv.moves[p]; ok {
		return FileRecord
	}
	if pl.before.ByPath(p) != nil {
		return FileInbound
	}
	for _, root := range pl.before.Roots {
		switch p {
		case root.Join(adr.IndexFile):
			return FileIndex
		case root.Join(view.CurrentFile), root.Join(view.ManifestFile):
			return FileView
		}
		rest, ok := strings.CutPrefix(p, root.Join(""))
		if root.Path == "" {
			rest, ok = p, true
		}
		if first, _, nested := strings.Cut(rest, "/"); ok && nested && languageTag(first) {
			return FileTranslation
		}
	}
	return FileMarkdown
}

// languageTag reports a folder name a translation mirror uses: "zh",
// "de", "pt-BR", "zh_CN".
func languageTag(s string) bool {
	lang, region, _ := strings.Cut(strings.ReplaceAll(s, "_", "-"), "-")
	if len(lang) < 2 || len(lang) > 3 || strings.ToLower(lang) != lang || s == "adr" {
		return false
	}
	for _, r := range lang {
		if r < 'a' || r > 'z' {
			return false
		}
	}
	return region == "" || len(region) >= 2 && len(region) <= 4
}

// afterLog is the log as the plan leaves it: the base commit with the
// moved and rewritten files over it.
func (pl *planner) afterLog(wl *adr.Log) (*adr.Log, error) {
	ov := &adr.Overlay{Base: pl.base, Files: map[string][]byte{}}
	for _, c := range pl.files {
		if c.from != "" {
			ov.Files[c.from] = nil
		}
		ov.Files[c.path] = c.data
	}
	for from, to := range pl.mv.moves {
		if _, ok := ov.Files[to]; !ok {
			data, err := fs.ReadFile(pl.base, from)
			if err != nil {
				return nil, err
			}
			ov.Files[from], ov.Files[to] = nil, data
		}
	}
	return wl.Reload(ov)
}

// generated refreshes each root's INDEX.md (regenerated when it was up to
// date) and CURRENT view (relocated without a model when it can be).
func (pl *planner) generated(after *adr.Log) error {
	ixs, err := pl.before.Indexes()
	if err != nil {
		return err
	}
	rewritten := map[string]string{}
	for _, c := range pl.files {
		// Link rewrites, verified below, and exact restores of what an
		// archival's verified rewrite left.
		if c.kind != FileIndex && c.kind != FileView {
			rewritten[c.path] = view.BlobHash(c.old)
		}
	}
	for _, ix := range ixs {
		if ix.State != adr.IndexUpToDate {
			continue // hand-written or stale: its links were rewritten like any file's
		}
		if c := pl.files[ix.Path]; c != nil && c.exact {
			c.kind, c.links = FileIndex, nil
			pl.generatedNote(ix.Path, "given back its bytes from before the archival")
			continue
		}
		root := rootAt(after, ix.Root.Path)
		if root == nil {
			continue
		}
		data := adr.RenderIndex(root, after)
		if bytes.Equal(data, ix.Current) {
			delete(pl.files, ix.Path)
			continue
		}
		pl.files[ix.Path] = &change{path: ix.Path, kind: FileIndex, mode: pl.entries[ix.Path].Mode, old: ix.Current, data: data}
		pl.generatedNote(ix.Path, "regenerated: "+pl.indexNote(ix.Root))
	}
	for _, root := range pl.before.Roots {
		f := view.Check(pl.before, root)
		if f.Manifest == nil {
			continue
		}
		curPath, manPath := f.CurrentPath, f.ManifestPath
		if c := pl.files[curPath]; c != nil && c.exact {
			pl.generatedNote(curPath, "given back its bytes from before the archival, with "+view.ManifestFile)
			continue
		}
		cur := f.Current
		if c := pl.files[curPath]; c != nil {
			cur = c.data
		}
		nr := rootAt(after, root.Path)
		m, data, err := view.Moved(after, nr, f.Manifest, cur, view.Moves{Paths: pl.mv.moves, Rewritten: rewritten})
		if err == nil {
			again := freshness(after, nr, map[string][]byte{curPath: data, manPath: m.Encode()})
			if f.State == view.Fresh && again.State != view.Fresh {
				err = fmt.Errorf("relocated, it would be %s: %s", again.State, again.Summary())
			}
		}
		if err != nil {
			touched := pl.touches(f)
			delete(pl.files, curPath) // a pair is changed whole or not at all
			if touched {
				pl.generatedNote(curPath, fmt.Sprintf("left as it is (%v); regenerate it with `%s`", err, f.Fix()))
			}
			continue
		}
		manData := m.Encode()
		oldMan, _ := fs.ReadFile(pl.base, manPath)
		if bytes.Equal(data, f.Current) && bytes.Equal(manData, oldMan) {
			continue
		}
		pl.files[curPath] = &change{path: curPath, kind: FileView, mode: modeOr(pl.entries[curPath].Mode), old: f.Current, data: data, links: linksOf(pl.files[curPath])}
		pl.files[manPath] = &change{path: manPath, kind: FileView, mode: modeOr(pl.entries[manPath].Mode), old: oldMan, data: manData}
		state := "stays fresh"
		if f.State != view.Fresh {
			state = "still " + string(f.State) + ": " + f.Summary()
		}
		pl.generatedNote(curPath, "relocated without a model (paths, blobs and unit hashes in "+view.ManifestFile+"); "+state)
	}
	return nil
}

func linksOf(c *change) []LinkEdit {
	if c == nil {
		return nil
	}
	return c.links
}

func modeOr(m string) string {
	if m == "" {
		return "100644"
	}
	return m
}

// touches reports whether a view pins or links a moved file.
func (pl *planner) touches(f view.Freshness) bool {
	for _, s := range append(append([]view.Source(nil), f.Manifest.Sources...), f.Manifest.Dependencies...) {
		if _, ok := pl.mv.moves[s.Path]; ok {
			return true
		}
	}
	return pl.files[f.CurrentPath] != nil
}

func (pl *planner) indexNote(root *adr.Root) string {
	var ids []string
	for _, m := range pl.p.Records {
		if r := pl.before.ByPath(m.From); r != nil && r.Root == root {
			ids = append(ids, m.ID)
		}
	}
	if len(ids) == 0 {
		return "links to the moved records follow them"
	}
	if pl.p.Kind == KindRestore {
		return joinIDs(ids, 5) + " listed with the live records again"
	}
	return joinIDs(ids, 5) + " listed under Archived"
}

func (pl *planner) generatedNote(p, action string) {
	pl.p.Generated = append(pl.p.Generated, Generated{Path: p, Action: action})
}

func rootAt(l *adr.Log, p string) *adr.Root {
	for _, r := range l.Roots {
		if r.Path == p {
			return r
		}
	}
	return nil
}

// freshness checks a root's view of l with the pair's files replaced.
func freshness(l *adr.Log, root *adr.Root, pair map[string][]byte) view.Freshness {
	c := *l
	c.FS = &adr.Overlay{Base: l.FS, Files: pair}
	return view.Check(&c, root)
}

// verify proves the plan changes nothing but locations: every record
// keeps its ID, status, title and units (only the moved ones change
// whether they are archived), and every rewritten Markdown file differs
// from before only in how its link destinations are written, each still
// reaching the file it reached.
func (pl *planner) verify(after *adr.Log) {
	for _, r := range pl.before.Records {
		to := pl.mv.where(r.Path)
		n := after.ByPath(to)
		_, moved := pl.mv.moves[r.Path]
		want := r.Archived != moved
		switch {
		case n == nil && r.Root != nil && r.Root.Source == "detected":
			pl.block("after the move, %s would not be read as a record at %s: %s is a detected root, and too few records would be left in it to detect it; pin it first with `git adr init --dir %s`", r.ID, to, r.Root.Dir(), r.Root.Dir())
		case n == nil:
			pl.block("after the move, %s would not be read as a record at %s", r.ID, to)
		case n.ID != r.ID:
			pl.block("after the move, %s at %s would be read as %s", r.ID, to, n.ID)
		case n.Status != r.Status || n.Title != r.Title || len(n.Units) != len(r.Units):
			pl.block("after the move, %s would read differently (status, title or sections)", r.ID)
		case n.Archived != want:
			pl.block("after the move, %s would not be read as %s", r.ID, map[bool]string{true: "archived", false: "live"}[want])
		}
	}
	for _, c := range pl.files {
		if c.kind == FileIndex || c.kind == FileView || c.exact {
			continue
		}
		from := c.path
		if c.from != "" {
			from = c.from
		}
		if pl.mv.normalize(adr.NewText(c.old), from, true) != pl.mv.normalize(adr.NewText(c.data), c.path, false) {
			pl.block("rewriting %s would change more than where its links point (a bug: please report it)", c.path)
		}
	}
}

// files2plan lists the changes in the plan, sorted by path.
func (pl *planner) files2plan() {
	var ps []string
	for p := range pl.files {
		ps = append(ps, p)
	}
	sort.Strings(ps)
	for _, p := range ps {
		c := pl.files[p]
		f := File{Path: c.path, From: c.from, Kind: c.kind, Mode: modeOr(c.mode), Before: view.BlobHash(c.old), After: view.BlobHash(c.data),
			Links: c.links, Exact: c.exact}
		if f.Links == nil {
			f.Links = []LinkEdit{}
		}
		pl.p.Files = append(pl.p.Files, f)
	}
	// Moved records whose bytes stay the same are files of the plan too.
	for _, m := range pl.p.Records {
		if _, ok := pl.files[m.To]; ok {
			continue
		}
		e := pl.entries[m.From]
		pl.p.Files = append(pl.p.Files, File{Path: m.To, From: m.From, Kind: FileRecord, Mode: modeOr(e.Mode), Before: e.Hash, After: e.Hash, Links: []LinkEdit{}})
	}
	sort.SliceStable(pl.p.Files, func(i, j int) bool { return pl.p.Files[i].Path < pl.p.Files[j].Path })
}

// changes are all the plan's tree changes as one step.
func (pl *planner) changes() []gitops.TreeChange {
	var out []gitops.TreeChange
	for _, f := range pl.p.Files {
		c := pl.files[f.Path]
		data := []byte(nil)
		if c != nil {
			data = c.data
		} else if d, err := fs.ReadFile(pl.base, f.From); err == nil {
			data = d
		}
		out = append(out, gitops.TreeChange{Path: f.Path, From: f.From, Data: data, Mode: f.Mode})
	}
	return out
}

// measure decides between one commit and two with git's own rename
// detection, the one `git log --follow` uses: one commit when every moved
// file is found as a rename with its rewrite in the same commit; else the
// tracked rename first, alone, and the rewriting second.
func (pl *planner) measure() ([][]gitops.TreeChange, error) {
	all := pl.changes()
	tree, err := pl.repo.BuildTree(pl.req.Base, all)
	if err != nil {
		return nil, err
	}
	found, err := pl.repo.Renames(pl.req.Base, tree)
	if err != nil {
		return nil, err
	}
	one := true
	for _, m := range pl.p.Records {
		c := pl.files[m.To]
		s := Similarity{Path: m.To, Changed: c != nil && !bytes.Equal(c.old, c.data), Followed: found[m.To] == m.From}
		one = one && s.Followed
		pl.p.Similarity = append(pl.p.Similarity, s)
	}
	if one {
		pl.p.Commits = 1
		return [][]gitops.TreeChange{all}, nil
	}
	pl.p.Commits = 2
	var renames, rewrites []gitops.TreeChange
	for _, c := range all {
		if c.From == "" {
			rewrites = append(rewrites, c)
			continue
		}
		orig, err := fs.ReadFile(pl.base, c.From)
		if err != nil {
			return nil, err
		}
		renames = append(renames, gitops.TreeChange{Path: c.Path, From: c.From, Data: orig, Mode: c.Mode})
		if !bytes.Equal(orig, c.Data) {
			rewrites = append(rewrites, gitops.TreeChange{Path: c.Path, Data: c.Data, Mode: c.Mode})
		}
	}
	return [][]gitops.TreeChange{renames, rewrites}, nil
}
