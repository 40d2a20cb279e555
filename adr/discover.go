package adr

import (
	"errors"
	"fmt"
	"io/fs"
	"path"
	"slices"
	"sort"
	"strings"

	"go.yaml.in/yaml/v3"
)

// ConventionalDirs are the ADR directories git-adr looks in when nothing is
// configured, in this order (adr-tools' default first).
var ConventionalDirs = []string{
	"doc/adr", "docs/adr", "docs/decisions", "docs/architecture/decisions",
	"doc/architecture/decisions", "docs/adrs", "doc/adrs", "docs/architecture/adr",
	"architecture/decisions", "adr", "adrs", "decisions", "docs/decision-records", "decision-records",
}

// wellKnownDirs is how many of ConventionalDirs are ADR directories by name
// alone: they are roots even while empty.
const wellKnownDirs = 4

// DiscoverOptions tunes discovery.
type DiscoverOptions struct {
	// Roots, when set, replace discovery (the global --root flag).
	Roots []string
	// RootNames, when set, name the Roots (by position): another state
	// of a repository is read with the roots, names included, that
	// discovery found in one.
	RootNames []string
	// Cwd is the starting directory relative to the repository root; the
	// adr-tools .adr-dir file is looked up from there upwards.
	Cwd string
	// AllowMissing lets Roots name directories that do not exist yet (init
	// creates them).
	AllowMissing bool
	// Lazy reads numbered and date-slug records by file name only, parsing
	// a sample for the root's style; Log.Ensure parses a record when it is
	// needed. For commands that touch few records of a large log (new).
	Lazy bool
	// NoSample, with Lazy, parses no sample either: the roots' writing
	// style stays unknown. For callers that write no record (the hooks,
	// which judge only the records a change touches).
	NoSample bool
	// Only, with Lazy, makes records for these repository paths alone
	// (a record folder's by its README.md): every other record of the
	// roots is known by its file name only, which still counts for the
	// roots' conventions and for [Root.Holders]. For a hook that judges
	// the few files a commit changes in a long log. Nil makes every
	// record.
	Only []string
	// Progress, when set, is told how many of a folder's records have
	// been read, once reading them has taken a while (a cold parse of a
	// long log), or from the first record when Parsed is set (each
	// record then costs its analysis too); never from two goroutines at
	// once.
	Progress func(done, total int)
	// Cache, when set, is the parse cache records are taken from and
	// added to (see [Cache]); nil parses every record read.
	Cache *Cache
	// Parsed, when set, is called from the reading goroutines with each
	// record of a root's folder (not its archive) whose text this load
	// read, once it is parsed and its title settled; never for a section
	// of a single-file log. It may analyse the text and let go of it
	// ([Record.ReleaseText]), so that a first load of a long log never
	// holds every text at once. The record may still be skipped after
	// (documentation beside the records).
	Parsed func(*Record)
}

// Scan limits keep automatic detection cheap in large repositories.
const (
	scanMaxDepth   = 6
	scanMaxEntries = 20000
)

// skipDirs are never scanned for ADR folders.
// toolDirs are the folders of skipDirs that tools make (never a log's).
var toolDirs = map[string]bool{"node_modules": true, "__pycache__": true, "venv": true, ".venv": true, "bower_components": true, "Pods": true, "coverage": true}

var skipDirs = map[string]bool{
	"node_modules": true, "vendor": true, "target": true, "build": true, "dist": true, "out": true,
	"third_party": true, "third-party": true, "testdata": true, "fixtures": true, "__pycache__": true,
	"venv": true, ".venv": true, "bower_components": true, "Pods": true, "coverage": true,
	// Docusaurus keeps a frozen copy of docs/ per release there: a log
	// found in it would be the log again, once per version.
	"versioned_docs": true,
}

// Discover finds the ADR roots of a repository. Precedence: --root flags;
// .adr.toml roots; adr-tools .adr-dir (walking up from Cwd as adr-tools
// does) and log4brains' .log4brains.yml; otherwise conventional directories
// plus a bounded scan for folders of records that are ADRs by structure or
// by name.
// notes say what was found and how.
func Discover(fsys fs.FS, cfg *Config, opt DiscoverOptions) (roots []*Root, notes []string, err error) {
	if cfg == nil {
		cfg = &Config{}
	}
	add := func(p, source, name string) {
		p = cleanRel(p)
		for _, r := range roots {
			if r.Path == p {
				return
			}
		}
		roots = append(roots, newRoot(cfg, p, source, name))
	}
	if len(opt.Roots) > 0 {
		for i, p := range opt.Roots {
			name := ""
			if i < len(opt.RootNames) {
				name = opt.RootNames[i]
			}
			add(p, "--root", name)
		}
		return roots, nil, nil
	}
	if len(cfg.Roots) > 0 {
		for _, rc := range cfg.Roots {
			add(rc.Path, ConfigFile, rc.Name)
		}
		return roots, nil, nil
	}
	p, ok, err := adrDirFile(fsys, opt.Cwd)
	if err != nil {
		return nil, nil, err
	}
	if ok {
		add(p, ".adr-dir", "")
	}
	l4b, l4bNotes := log4brainsRoots(fsys)
	notes = append(notes, l4bNotes...)
	for _, r := range l4b {
		add(r[0], ".log4brains.yml", r[1])
	}
	if len(roots) > 0 {
		return roots, notes, nil
	}
	found := detectRemembered(fsys, opt.Cache)
	for _, p := range found {
		src := "detected"
		for _, c := range ConventionalDirs {
			if strings.EqualFold(c, p) {
				src = "conventional"
			}
		}
		add(p, src, "")
	}
	if len(roots) > 0 {
		var ds []string
		files := false
		for _, r := range roots {
			if r.Source == "detected" {
				ds = append(ds, r.Dir())
				files = files || recordExt(r.Path) != ""
			}
		}
		if files {
			notes = append(notes, fmt.Sprintf("no ADR directory configured; detected %s (pin with `git adr init --dir DIR` or list roots in %s; a single-file log is read, never written)", strings.Join(ds, ", "), ConfigFile))
		} else if len(ds) > 0 {
			notes = append(notes, fmt.Sprintf("no ADR directory configured; detected %s (pin with `git adr init --dir DIR` or list roots in %s)", strings.Join(ds, ", "), ConfigFile))
		}
	}
	return roots, notes, nil
}

func newRoot(cfg *Config, p, source, name string) *Root {
	r := &Root{Path: p, Source: source, Name: name, Prefix: "ADR-", Digits: 4, Sep: "-", Style: StyleNygard}
	if cfg.Prefix != "" {
		r.Prefix, r.prefixSet = cfg.Prefix, true
	}
	if cfg.Digits > 0 {
		r.Digits, r.digitsSet = cfg.Digits, true
	}
	if s, ok := ParseStyle(cfg.Style); ok {
		r.Style, r.configured = s, true
	}
	r.indexFile = cfg.IndexFile
	for _, rc := range cfg.Roots {
		if cleanRel(rc.Path) != p {
			continue
		}
		if rc.Prefix != "" {
			r.Prefix, r.prefixSet = rc.Prefix, true
		}
		if rc.Digits > 0 {
			r.Digits, r.digitsSet = rc.Digits, true
		}
		if s, ok := ParseStyle(rc.Style); ok {
			r.Style, r.configured = s, true
		}
		r.Template = rc.Template
		if rc.IndexFile != "" {
			r.indexFile = rc.IndexFile
		}
	}
	return r
}

// adrDirFile follows adr-tools: from the working directory upwards, the
// first .adr-dir names the directory relative to where it lies; a doc/adr
// directory found first wins the same way.
func adrDirFile(fsys fs.FS, cwd string) (string, bool, error) {
	dir := cleanRel(cwd)
	for {
		f := path.Join(dir, ".adr-dir")
		if dir == "" {
			f = ".adr-dir"
		}
		if data, err := fs.ReadFile(fsys, f); err == nil {
			target := strings.TrimSpace(strings.SplitN(string(data), "\n", 2)[0])
			if target != "" {
				p := cleanRel(path.Join(dir, target))
				if path.IsAbs(target) || p == ".." || strings.HasPrefix(p, "../") {
					return "", false, &ConfigError{Path: f, Msg: fmt.Sprintf("names %q, which is outside the repository", target)}
				}
				return p, true, nil
			}
		}
		if dir != "" {
			if fi, err := fs.Stat(fsys, path.Join(dir, "doc/adr")); err == nil && fi.IsDir() {
				return path.Join(dir, "doc/adr"), true, nil
			}
		}
		if dir == "" {
			return "", false, nil
		}
		dir = dirOf(dir)
	}
}

// log4brainsRoots reads .log4brains.yml: project.adrFolder and every
// packages[].adrFolder (with the package name as module name). Folders that
// do not exist are reported in notes.
func log4brainsRoots(fsys fs.FS) (roots [][2]string, notes []string) {
	data, err := fs.ReadFile(fsys, ".log4brains.yml")
	if err != nil {
		return nil, nil
	}
	var cfg struct {
		Project struct {
			AdrFolder string `yaml:"adrFolder"`
			Packages  []struct {
				Name      string `yaml:"name"`
				AdrFolder string `yaml:"adrFolder"`
			} `yaml:"packages"`
		} `yaml:"project"`
	}
	if err := yaml.Unmarshal(data, &cfg); err != nil {
		return nil, []string{fmt.Sprintf(".log4brains.yml is not valid YAML (%v); ignored", err)}
	}
	try := func(folder, name string) {
		if folder == "" {
			return
		}
		p := cleanRel(folder)
		if fi, err := fs.Stat(fsys, dirOrDot(p)); err != nil || !fi.IsDir() {
			why := "which does not exist"
			if errors.Is(err, fs.ErrPermission) {
				why = err.Error()
			}
			notes = append(notes, fmt.Sprintf(".log4brains.yml names %q, %s; skipped", folder, why))
			return
		}
		roots = append(roots, [2]string{p, name})
	}
	try(cfg.Project.AdrFolder, "")
	for _, pkg := range cfg.Project.Packages {
		try(pkg.AdrFolder, pkg.Name)
	}
	return roots, notes
}

func dirOrDot(p string) string {
	if p == "" {
		return "."
	}
	return p
}

// detect scans the tree breadth-first, within limits, for folders holding
// numbered (or date-slug) records with ADR structure, and for single-file
// logs (a file named like "DECISIONS.md" holding decision sections). A nested find that
// is a translation mirror, templates, assets or drafts is dropped (archives
// are not scanned); any other folder of records inside a found root (one
// log per component: "adr/operator/", "adr/payments/") is a root of its
// own, even with a single record.
func detect(fsys fs.FS) []string {
	type item struct {
		dir   string
		depth int
	}
	queue := []item{{"", 0}}
	visited := 0
	var found, files []string
	for len(queue) > 0 && visited < scanMaxEntries {
		it := queue[0]
		queue = queue[1:]
		entries, err := fs.ReadDir(fsys, dirOrDot(it.dir))
		if err != nil {
			continue
		}
		visited += len(entries)
		// A repository nested in the work tree (a clone, a submodule's
		// checkout) is another repository, with logs of its own: a
		// commit of this one holds none of its files.
		if it.dir != "" && slices.ContainsFunc(entries, func(e fs.DirEntry) bool { return e.Name() == ".git" }) {
			continue
		}
		// Inside a log already found, one record makes a component's
		// folder a root of its own.
		inLog := false
		for _, f := range found {
			inLog = inLog || f != "" && strings.HasPrefix(it.dir, f+"/") && !notALog(path.Base(it.dir))
		}
		// Below a folder whose name says ADR ("contributing/ADRs/back-end/"),
		// a folder is read as a log's would be: a team that files its
		// records by area keeps no record at the top.
		if !inLog && it.dir != "" && !notALog(path.Base(it.dir)) {
			for d := path.Dir(it.dir); d != "." && d != ""; d = path.Dir(d) {
				if folderSaysADR(path.Base(d)) {
					inLog = true
					break
				}
			}
		}
		// A well-known folder is the log whatever it holds (below): its
		// records need not be read to say so.
		if wellKnown(fsys, it.dir) || qualifies(fsys, it.dir, entries, inLog) {
			found = append(found, it.dir)
		}
		files = append(files, logFilesIn(fsys, it.dir, entries)...)
		if it.depth >= scanMaxDepth {
			continue
		}
		// Inside a log, a folder named like vendored code ("third-party/",
		// "vendor/") holds records about others (their reviews), not
		// their code: only tool folders are passed over there.
		within := inLog || slices.Contains(found, it.dir) && it.dir != ""
		for _, e := range entries {
			n := e.Name()
			if !e.IsDir() || strings.HasPrefix(n, ".") || skipDirs[n] && !(within && !toolDirs[n]) || n == ArchiveDir {
				continue
			}
			queue = append(queue, item{path.Join(it.dir, n), it.depth + 1})
		}
	}
	sort.Strings(found)
	var out []string
	for _, f := range found {
		nested := false
		for _, o := range out {
			if o != "" && strings.HasPrefix(f, o+"/") && notALog(path.Base(f)) {
				nested = true
			}
		}
		if !nested {
			out = append(out, f)
		}
	}
	// The well-known directories count as soon as they exist (adr-tools
	// treats an existing doc/adr as the log); the others once they hold a
	// record file.
	for i, c := range ConventionalDirs {
		// "docs/ADR" and "Doc/Adr" are the same folder to people (and to
		// case-insensitive file systems): match the name without case.
		c = foldPath(fsys, c)
		if contains(out, c) {
			continue
		}
		entries, err := fs.ReadDir(fsys, c)
		if err != nil {
			// One that is there but may not be read (a link leading out of
			// the repository) is still the log: loading reports it.
			if i < wellKnownDirs && errors.Is(err, fs.ErrPermission) {
				out = append(out, c)
			}
			continue
		}
		if i < wellKnownDirs {
			out = append(out, c)
			continue
		}
		if len(recordNames(fsys, c, entries, 1)) > 0 {
			out = append(out, c)
		}
	}
	// A single-file log ("docs/DECISIONS.md") is a root of its own, unless
	// it lies in a folder of records (an index beside them).
	for _, f := range files {
		inRoot := false
		for _, o := range out {
			inRoot = inRoot || o == dirOf(f) || o != "" && strings.HasPrefix(f, o+"/")
		}
		if !inRoot {
			out = append(out, f)
		}
	}
	sort.Strings(out)
	return out
}

// wellKnown reports one of the ADR directories that are roots by name
// alone ("doc/adr", or "docs/ADR" when no other case of it exists).
func wellKnown(fsys fs.FS, dir string) bool {
	for _, c := range ConventionalDirs[:wellKnownDirs] {
		if strings.EqualFold(c, dir) && foldPath(fsys, c) == dir {
			return true
		}
	}
	return false
}

// mirrorName reports a folder name that is a language tag (an ISO 639-1
// code, optionally with a region: "zh", "fr", "pt-br", "zh_CN"): inside an
// ADR root such a folder mirrors the log in another language, and is not
// a log of its own. Other folders that hold
// records of their own inside a root ("operator/", "payments/": one log
// per component) are roots too.
func mirrorName(name string) bool {
	lang, region, _ := strings.Cut(strings.ToLower(name), "-")
	if l, r, ok := strings.Cut(lang, "_"); ok {
		lang, region = l, r
	}
	if len(lang) != 2 || !strings.Contains(iso639_1, " "+lang+" ") {
		return false // "api", "ui", "ops": a component, not a language
	}
	for i := 0; i < len(region); i++ {
		if region[i] < 'a' || region[i] > 'z' {
			return false
		}
	}
	return region == "" || len(region) == 2 || len(region) == 4
}

// iso639_1 are the two-letter language codes (ISO 639-1), space-separated.
const iso639_1 = " aa ab ae af ak am an ar as av ay az ba be bg bh bi bm bn bo br bs ca ce ch co cr cs cu cv cy da de dv dz ee el en eo es et eu fa ff fi fj fo fr fy ga gd gl gn gu gv ha he hi ho hr ht hu hy hz ia id ie ig ii ik io is it iu ja jv ka kg ki kj kk kl km kn ko kr ks ku kv kw ky la lb lg li ln lo lt lu lv mg mh mi mk ml mn mr ms mt my na nb nd ne ng nl nn no nr nv ny oc oj om or os pa pi pl ps pt qu rm rn ro ru rw sa sc sd se sg si sk sl sm sn so sq sr ss st su sv sw ta te tg th ti tk tl tn to tr ts tt tw ty ug uk ur uz ve vi vo wa wo xh yi yo za zh zu "

// notALog reports a folder inside an ADR root that is never a log of its
// own: a translation mirror, templates, assets or drafts.
func notALog(name string) bool { return mirrorName(name) || specialFolder(name) != "" }

// leadSaysADR reports a file-name lead that names ADRs ("adr-",
// "ODH-ADR-") or decision records ("DR_", "DDR-"), as record names at the
// repository root must.
func leadSaysADR(lead string) bool {
	l := strings.ToLower(lead)
	switch strings.TrimRight(l, "-_. ") {
	case "dr", "ddr":
		return true
	}
	return strings.HasPrefix(l, "adr") || strings.Contains(l, "-adr") || strings.Contains(l, "_adr")
}

// foldPath returns the folder of fsys that p names without regard to case
// ("docs/ADR" for "docs/adr"), or p itself when it exists as written, when
// none does, or when two folders differ only in case.
func foldPath(fsys fs.FS, p string) string {
	if fi, err := fs.Stat(fsys, p); err == nil && fi.IsDir() {
		return p
	}
	dir := "."
	var got []string
	for _, part := range strings.Split(p, "/") {
		entries, err := fs.ReadDir(fsys, dir)
		if err != nil {
			return p
		}
		match := ""
		for _, e := range entries {
			if e.IsDir() && strings.EqualFold(e.Name(), part) {
				if match != "" {
					return p // ambiguous
				}
				match = e.Name()
			}
		}
		if match == "" {
			return p
		}
		got = append(got, match)
		dir = path.Join(dir, match)
	}
	return strings.Join(got, "/")
}

func contains(ss []string, s string) bool {
	for _, x := range ss {
		if x == s {
			return true
		}
	}
	return false
}
