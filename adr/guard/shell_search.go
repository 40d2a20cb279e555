package guard

import (
	"os"
	"strings"
)

// optSpec says which options of a command take a value.
type optSpec struct {
	short string          // short options with a value ("efmABC")
	long  map[string]bool // long options with a value, without "--"
}

type opt struct {
	name, value string // name as "-r" or "--include"
}

// parseOpts splits args into options and operands (GNU style: options
// may follow operands; "--" ends options).
func parseOpts(args []field, spec optSpec) (opts []opt, ops []field) {
	for i := 0; i < len(args); i++ {
		a := args[i]
		s := a.s
		switch {
		case a.unknown || a.tree != nil || s == "-" || !strings.HasPrefix(s, "-"):
			ops = append(ops, a)
		case s == "--":
			return opts, append(ops, args[i+1:]...)
		case strings.HasPrefix(s, "--"):
			name, val, has := strings.Cut(s[2:], "=")
			if !has && spec.long[name] && i+1 < len(args) {
				i++
				val = args[i].s
			}
			opts = append(opts, opt{name: "--" + name, value: val})
		default:
			for k := 1; k < len(s); k++ {
				c := s[k]
				if strings.IndexByte(spec.short, c) >= 0 {
					val := s[k+1:]
					if val == "" && i+1 < len(args) {
						i++
						val = args[i].s
					}
					opts = append(opts, opt{name: "-" + string(c), value: val})
					break
				}
				opts = append(opts, opt{name: "-" + string(c)})
			}
		}
	}
	return opts, ops
}

func long(names ...string) map[string]bool { return set(names...) }

var grepSpec = optSpec{short: "efmABCdD", long: long("regexp", "file", "max-count", "after-context", "before-context", "context",
	"directories", "devices", "include", "exclude", "exclude-dir", "exclude-from", "label", "binary-files", "color", "colour", "group-separator")}

var rgSpec = optSpec{short: "efgtTmABCjMrEd", long: long("regexp", "file", "glob", "iglob", "type", "type-not", "max-count",
	"after-context", "before-context", "context", "threads", "max-columns", "replace", "encoding", "max-depth", "type-add",
	"type-clear", "ignore-file", "pre", "pre-glob", "sort", "sortr", "path-separator", "colors", "context-separator",
	"field-context-separator", "field-match-separator", "engine", "max-filesize", "dfa-size-limit", "regex-size-limit",
	"hostname-bin", "hyperlink-format", "generate", "color")}

var agSpec = optSpec{short: "GgABCmp", long: long("file-search-regex", "ignore", "ignore-dir", "after", "before", "context", "max-count", "depth", "pager", "path-to-ignore", "type")}

// search judges grep, rg, ag and their kin.
func (sh *shell) search(name string, args []field, in *stream) *stream {
	v := sh.via(name, args, 3)
	switch name {
	case "rg":
		return sh.rg(args, in, v)
	case "grep", "egrep", "fgrep", "rgrep", "zgrep", "ugrep", "ug":
		opts, ops := parseOpts(args, grepSpec)
		recursive := name == "rgrep"
		pattern := false
		var includes AnyName
		var filter Filter
		for _, o := range opts {
			switch o.name {
			case "-r", "-R", "--recursive", "--dereference-recursive":
				recursive = true
			case "-d", "--directories":
				recursive = recursive || o.value == "recurse"
			case "-e", "-f", "--regexp", "--file":
				pattern = true
			case "--include":
				includes = append(includes, &NameGlob{Glob: o.value})
			case "--exclude":
				filter = append(filter, &NameGlob{Glob: o.value, Not: true})
			case "--exclude-dir":
				filter = append(filter, &ExcludeDir{Glob: o.value})
			}
		}
		if len(includes) > 0 {
			filter = append(filter, includes)
		}
		if !pattern && len(ops) > 0 {
			ops = ops[1:]
		}
		if len(ops) == 0 {
			if !recursive || in != nil {
				return unknownStream // searches its input
			}
			ops = []field{{s: "."}}
		}
		for _, o := range ops {
			sh.access(Search, o, recursive, filter, v)
		}
	default: // ag, ack, pt: recursive, pattern first
		_, ops := parseOpts(args, agSpec)
		if len(ops) > 0 {
			ops = ops[1:]
		}
		if len(ops) == 0 {
			if in != nil {
				return unknownStream
			}
			ops = []field{{s: "."}}
		}
		for _, o := range ops {
			sh.access(Search, o, true, nil, v)
		}
	}
	return unknownStream
}

func (sh *shell) rg(args []field, in *stream, v string) *stream {
	opts, ops := parseOpts(args, rgSpec)
	pattern, files := false, false
	var filter Filter
	var globs, iglobs []string
	var types, notTypes []string
	for _, o := range opts {
		switch o.name {
		case "-e", "-f", "--regexp", "--file":
			pattern = true
		case "--files":
			files = true
		case "-g", "--glob":
			globs = append(globs, o.value)
		case "--iglob":
			iglobs = append(iglobs, o.value)
		case "-t", "--type":
			types = append(types, o.value)
		case "-T", "--type-not":
			notTypes = append(notTypes, o.value)
		case "--type-list", "--version", "-V", "-h", "--help":
			return nil
		}
	}
	if len(globs) > 0 {
		filter = append(filter, &RgGlobs{Globs: globs})
	}
	if len(iglobs) > 0 {
		filter = append(filter, &RgGlobs{Globs: iglobs, Fold: true})
	}
	if len(types) > 0 {
		filter = append(filter, FileTypes{Types: types})
	}
	if len(notTypes) > 0 {
		filter = append(filter, FileTypes{Types: notTypes, Not: true})
	}
	if !pattern && !files && len(ops) > 0 {
		ops = ops[1:]
	}
	if len(ops) == 0 {
		if in != nil && !files {
			return unknownStream
		}
		ops = []field{{s: "."}}
	}
	if files {
		out := &stream{}
		g := sh.newGroup()
		for _, o := range ops {
			if o.unknown || o.tree != nil {
				out.unknown = true
				continue
			}
			sh.add(Access{Kind: List, Path: o.s, Dir: sh.dir, Via: v})
			out.fields = append(out.fields, field{tree: &tree{dir: o.s, base: sh.dir, filter: filter}, group: g})
		}
		return out
	}
	for _, o := range ops {
		sh.access(Search, o, true, filter, v)
	}
	return unknownStream
}

// git judges the git commands that read files: grep, show REV:PATH,
// cat-file, ls-files; adr; and config writes of the guard's mode.
func (sh *shell) git(args []field, in *stream) *stream {
	g := sh
	i := 0
	for i < len(args) {
		a := args[i].s
		switch {
		case a == "-C" && i+1 < len(args):
			if g == sh {
				g = sh.clone()
			}
			g.dir = joinDir(g.dir, args[i+1].s)
			i += 2
		case a == "-c" || a == "--git-dir" || a == "--work-tree" || a == "--namespace" || a == "--config-env":
			i += 2
		case strings.HasPrefix(a, "-"):
			i++
		default:
			goto sub
		}
	}
	return nil
sub:
	sub, rest := args[i].s, args[i+1:]
	v := sh.via("git "+sub, rest, 3)
	switch sub {
	case "adr":
		g.gitAdr(rest, "git adr")
	case "grep":
		g.gitGrep(rest, v)
	case "show", "cat-file":
		for _, a := range rest {
			if a.unknown || strings.HasPrefix(a.s, "-") {
				continue
			}
			rev, p, ok := strings.Cut(a.s, ":")
			if !ok || p == "" || rev == "" && strings.HasPrefix(p, "/") {
				continue
			}
			if rev == "" {
				rev = ":" // the index
			}
			if strings.HasPrefix(p, "./") || strings.HasPrefix(p, "../") {
				g.add(Access{Kind: Read, Path: p, Dir: g.dir, Via: v, Rev: rev})
			} else {
				g.add(Access{Kind: Read, Path: p, Dir: "", Via: v, Rev: rev}) // relative to the top
			}
		}
	case "checkout", "restore":
		g.restore(sub, rest, v)
	case "config":
		g.gitConfig(rest)
	case "ls-files", "ls-tree":
		ops := operands(rest)
		if sub == "ls-tree" && len(ops) > 0 {
			ops = ops[1:]
		}
		if len(ops) == 0 {
			ops = []field{{s: "."}}
		}
		out := &stream{}
		gr := g.newGroup()
		for _, o := range ops {
			if o.unknown {
				out.unknown = true
				continue
			}
			out.fields = append(out.fields, field{tree: &tree{dir: o.s, base: g.dir}, group: gr})
		}
		return out
	}
	return unknownStream
}

// restore judges git restore and git checkout with pathspecs, which
// overwrite work tree files from a revision or the index: each pathspec
// is a Write with Restore set (`git checkout REV -- .adr.toml` puts back a
// guard mode the team has since raised). A checkout without pathspecs
// switches branches and is not judged (docs/guard.md lists it).
func (sh *shell) restore(sub string, args []field, via string) {
	rev := ""
	var pre, post []field // operands before and after "--"
	dash := false
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a.unknown:
			return // a pathspec or revision the recogniser does not know
		case dash:
			post = append(post, a)
		case a.s == "--":
			dash = true
		case a.s == "-b" || a.s == "-B" || a.s == "--orphan":
			return // a new branch
		case a.s == "-s" || a.s == "--source":
			if i+1 < len(args) {
				i++
				rev = args[i].s
			}
		case strings.HasPrefix(a.s, "--source="):
			rev = strings.TrimPrefix(a.s, "--source=")
		case a.s == "--conflict" || a.s == "--pathspec-from-file":
			i++
		case strings.HasPrefix(a.s, "-"):
		default:
			pre = append(pre, a)
		}
	}
	var ops []field
	switch {
	case sub == "restore":
		// --staged alone writes only the index.
		if containsWord(args, "--staged", "-S") && !containsWord(args, "--worktree", "-W") {
			return
		}
		ops = append(pre, post...)
	case dash:
		// git checkout [REV] -- PATH...
		if len(pre) > 0 {
			rev = pre[len(pre)-1].s
		}
		ops = post
	case len(pre) > 0:
		// git checkout REV PATH...: the first operand is a revision
		// unless it is a file of the work tree; one operand alone that is
		// no file is a branch to switch to.
		ops = pre
		if _, err := os.Lstat(joinDir(sh.dir, pre[0].s)); err != nil {
			if len(pre) == 1 {
				return
			}
			rev, ops = pre[0].s, pre[1:]
		}
	}
	for _, o := range ops {
		sh.add(Access{Kind: Write, Path: o.s, Dir: sh.dir, Via: via, Restore: true, Rev: rev})
	}
}

var gitGrepSpec = optSpec{short: "efmABCO", long: long("regexp", "file", "max-count", "after-context", "before-context", "context", "open-files-in-pager", "threads", "max-depth", "color")}

// gitGrep judges git grep: a search of the tracked files below the
// working directory, narrowed by pathspecs.
func (sh *shell) gitGrep(args []field, v string) {
	// Revisions and pathspecs: after "--" only pathspecs.
	var before, after []field
	dash := false
	for i, a := range args {
		if a.s == "--" && !a.unknown {
			dash = true
			after = args[i+1:]
			break
		}
		before = append(before, a)
	}
	opts, ops := parseOpts(before, gitGrepSpec)
	pattern := false
	for _, o := range opts {
		if o.name == "-e" || o.name == "-f" || o.name == "--regexp" || o.name == "--file" {
			pattern = true
		}
	}
	if !pattern && len(ops) > 0 {
		ops = ops[1:]
	}
	var specs []string
	if !dash {
		// Without "--", git takes existing paths as pathspecs, the rest
		// as revisions (which are searched as wholes).
		for _, o := range ops {
			if o.unknown {
				continue
			}
			if _, err := os.Lstat(joinDir(sh.dir, o.s)); err == nil || strings.ContainsAny(o.s, "*?[") || strings.HasPrefix(o.s, ":") {
				specs = append(specs, o.s)
			}
		}
	} else {
		for _, o := range after {
			if !o.unknown {
				specs = append(specs, o.s)
			}
		}
	}
	var filter Filter
	if len(specs) > 0 {
		filter = Filter{Pathspecs{Specs: specs}}
	}
	sh.add(Access{Kind: Search, Path: ".", Dir: sh.dir, Recursive: true, Filter: filter, Via: v})
}

// gitConfig refuses changes to adr.guard.* through git config.
func (sh *shell) gitConfig(args []field) {
	key := false
	for _, a := range args {
		if strings.HasPrefix(strings.ToLower(a.s), "adr.guard") {
			key = true
		}
	}
	if !key {
		return
	}
	for _, a := range args {
		switch a.s {
		case "--get", "--get-all", "--get-regexp", "--get-urlmatch", "-l", "--list", "get", "list", "--show-origin", "--show-scope":
			if a.s != "--show-origin" && a.s != "--show-scope" {
				return
			}
		}
	}
	// `git config KEY` alone reads it.
	ops := operands(args)
	if len(ops) == 1 && !containsWord(args, "--unset", "--unset-all", "--add", "--replace-all", "--remove-section", "--rename-section", "set", "unset") {
		return
	}
	sh.rec.Person = append(sh.rec.Person, Finding{Rule: RulePerson, Command: sh.via("git config", args, 6), What: "changes the read guard's mode"})
}

func containsWord(args []field, words ...string) bool {
	for _, a := range args {
		for _, w := range words {
			if a.s == w {
				return true
			}
		}
	}
	return false
}

// gitAdr recognises the git-adr commands only a person may run.
func (sh *shell) gitAdr(args []field, prog string) {
	i := 0
	for i < len(args) {
		a := args[i].s
		switch {
		case a == "-C" || a == "--root":
			i += 2
		case strings.HasPrefix(a, "--root=") || a == "-h" || a == "--help":
			i++
		default:
			goto sub
		}
	}
	return
sub:
	sub, rest := args[i].s, args[i+1:]
	cmd := sh.via(prog, args, 8)
	person := func(what string) {
		sh.rec.Person = append(sh.rec.Person, Finding{Rule: RulePerson, Command: cmd, What: what})
	}
	ops := operands(rest)
	has := func(flag string) bool {
		for _, a := range rest {
			if a.s == flag || strings.HasPrefix(a.s, flag+"=") {
				return true
			}
		}
		return false
	}
	switch sub {
	case "decide":
		what := "changes which decisions bind"
		if len(ops) > 1 {
			switch strings.ToLower(ops[1].s) {
			case "accept", "accepted":
				what = "accepts a decision"
			case "reject", "rejected":
				what = "rejects a decision"
			case "deprecate", "deprecated":
				what = "deprecates a decision"
			}
		}
		person(what)
	case "compaction":
		if has("--confirm") {
			person("accepts a reviewed compaction plan")
		}
	case "archive":
		// `archive --confirm` and `archive restore --confirm` carry out
		// a plan that moves records: the approval a person gives.
		if has("--confirm") {
			person("carries out an archive plan")
		}
	case "config":
		if len(ops) > 1 && ops[0].s == "guard" {
			person("changes the read guard's mode")
		}
	case "guard":
		if len(ops) > 0 && ops[0].s == "uninstall" {
			person("removes the read guard")
		}
	case "trust":
		if !has("--show") {
			person("decides whether the repository's .adr.toml may run programs and send credentials")
		}
	case "hooks":
		if len(ops) > 0 && ops[0].s == "uninstall" {
			person("removes git-adr's git hooks")
		}
	}
}
