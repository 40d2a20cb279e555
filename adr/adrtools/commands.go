package adrtools

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/git-adr/git-adr/adr"
	"github.com/git-adr/git-adr/internal/lazyre"
)

// Commands are adr-tools' commands, as `adr help` and autocompletion list
// them.
var Commands = []string{"config", "generate", "help", "init", "link", "list", "new", "upgrade-repository"}

// helpers are the helper scripts of adr-tools' bin directory, which its
// autocompletion globs for subcommands (`_adr_generate_*` gives `adr
// generate graph` and `adr generate toc`).
var helpers = []string{
	"_adr_add_link", "_adr_autocomplete", "_adr_commands", "_adr_dir", "_adr_file",
	"_adr_generate_graph", "_adr_generate_toc", "_adr_help", "_adr_help_new", "_adr_links",
	"_adr_remove_status", "_adr_status", "_adr_title",
}

// Run runs `adr ARGS...` and returns what to do. Nothing is written to
// disk; the caller carries out the plan.
func (t *Tool) Run(args []string) Plan {
	t.pending, t.plan, t.listed = nil, Plan{}, nil
	cmd := ""
	if len(args) > 0 {
		cmd = args[0]
	}
	var rest []string
	if len(args) > 1 {
		rest = args[1:]
	}
	var err error
	switch cmd {
	case "new":
		err = t.newRecord(rest, "", "")
	case "init":
		err = t.init(rest)
	case "link":
		err = t.link(rest)
	case "list":
		var ls []string
		ls, err = t.List()
		for _, l := range ls {
			t.plan.Out += l + "\n"
		}
	case "generate":
		err = t.generate(rest)
	case "upgrade-repository":
		err = t.upgrade()
	case "help":
		t.plan.Out, t.plan.Pager = t.help(rest), true
	case "config":
		t.plan.Out = fmt.Sprintf("adr_bin_dir=\"%s\"\nadr_template_dir=\"%s\"\n", t.BinDir, t.BinDir)
	default:
		t.plan.Out, t.plan.Pager, t.plan.Code = t.help(nil), true, 1
	}
	if err != nil {
		f, ok := err.(*Failure)
		if !ok {
			f = &Failure{Err: "adr: " + err.Error() + "\n", Code: 1}
		}
		return Plan{Out: t.plan.Out + f.Out, Err: f.Err, Code: f.Code}
	}
	return t.plan
}

func (t *Tool) script(name string) string { return t.BinDir + "/" + name }

// getopts is bash's getopts loop over OPTSTRING as adr-new and
// _adr_generate_graph run it: options stop at the first argument that is
// not one, and at "--"; a bad option is reported as bash reports it, then
// by the script ("Not implemented: ?").
func (t *Tool) getopts(script, optstring string, args []string) (opts [][2]string, rest []string, err error) {
	i := 0
	for i < len(args) {
		a := args[i]
		if a == "--" {
			i++
			break
		}
		if len(a) < 2 || a[0] != '-' {
			break
		}
		i++
		for j := 1; j < len(a); j++ {
			c := a[j]
			k := strings.IndexByte(optstring, c)
			if k < 0 || c == ':' {
				return nil, nil, fail(1, "%s: illegal option -- %c\nNot implemented: ?", script, c)
			}
			if k+1 < len(optstring) && optstring[k+1] == ':' {
				val := a[j+1:]
				if val == "" {
					if i >= len(args) {
						return nil, nil, fail(1, "%s: option requires an argument -- %c\nNot implemented: ?", script, c)
					}
					val = args[i]
					i++
				}
				opts = append(opts, [2]string{string(c), val})
				break
			}
			opts = append(opts, [2]string{string(c), ""})
		}
	}
	return opts, args[i:], nil
}

// newRecord is adr-new. template and editor override $ADR_TEMPLATE and
// $VISUAL for init ("" keeps the environment's).
func (t *Tool) newRecord(args []string, template, editor string) error {
	opts, rest, err := t.getopts(t.script("adr-new"), "s:l:", args)
	if err != nil {
		return err
	}
	var superseded, links []string
	for _, o := range opts {
		if o[0] == "s" {
			superseded = append(superseded, o[1])
		} else {
			links = append(links, o[1])
		}
	}
	dstdir := t.Dir()
	tmpl, err := t.template(dstdir, template)
	if err != nil {
		return err
	}
	title := strings.Join(rest, " ")
	if title == "" {
		return &Failure{Out: "ERROR: no title given\n", Code: 1}
	}
	newnum := 1
	if t.isDir(dstdir) {
		newnum = t.maxNumber(dstdir) + 1
	}
	newid := fmt.Sprintf("%04d", newnum)
	dstfile := dstdir + "/" + newid + "-" + Slug(title) + ".md"
	date := t.getenv("ADR_DATE")
	if date == "" {
		date = t.Today
	}
	for _, v := range []struct{ name, value string }{{"title", title}, {"ADR_DATE", date}} {
		// adr-tools puts them in a sed s|...|...| expression, which they
		// would break.
		if strings.ContainsAny(v.value, "|\n") {
			return fail(1, "adr: the %s %q holds a %q, which adr-tools' sed expression cannot take", v.name, v.value, v.value[strings.IndexAny(v.value, "|\n")])
		}
	}
	t.mkdir(dstdir)
	parts := strings.Split(tmpl, "\n")
	for i, l := range parts {
		l = sedReplace(l, "NUMBER", strconv.Itoa(newnum))
		l = sedReplace(l, "TITLE", title)
		l = sedReplace(l, "DATE", date)
		l = sedReplace(l, "STATUS", "Accepted")
		parts[i] = l
	}
	t.write(dstfile, []byte(strings.Join(parts, "\n")))
	for _, target := range superseded {
		if err := t.addLink(target, t.Spelling.supersededBy(), dstfile); err != nil {
			return err
		}
		if err := t.removeStatus("Accepted", target); err != nil {
			return err
		}
		if err := t.addLink(dstfile, t.Spelling.supersedes(), target); err != nil {
			return err
		}
	}
	for _, l := range links {
		target, forward, reverse := cutField(l, 1), cutField(l, 2), cutField(l, 3)
		if err := t.addLink(dstfile, forward, target); err != nil {
			return err
		}
		if err := t.addLink(target, reverse, dstfile); err != nil {
			return err
		}
	}
	if editor == "" {
		editor = t.getenv("VISUAL")
		if editor == "" {
			editor = t.getenv("EDITOR")
		}
	}
	if words := strings.Fields(editor); len(words) > 0 && editor != "true" {
		t.plan.Editor = append(words, strings.Fields(dstfile)...)
		t.plan.EditFile = dstfile
	}
	t.plan.Out += strings.Join(strings.Fields(dstfile), " ") + "\n"
	return nil
}

// template is the template adr-new reads: $ADR_TEMPLATE, else the ADR
// directory's templates/template.md, else template.md beside the shim,
// else adr-tools' own.
func (t *Tool) template(dstdir, override string) (string, error) {
	name := override
	if name == "" {
		name = t.getenv("ADR_TEMPLATE")
	}
	builtin := adr.AdrToolsTemplate()
	if override != "" {
		builtin = adr.AdrToolsInitRecord()
	}
	if name == "" {
		name = dstdir + "/templates/template.md"
		if fi, err := os.Stat(name); err != nil || fi.IsDir() {
			name = t.script("template.md")
		}
	}
	data, err := t.read(name)
	if err == nil {
		return string(data), nil
	}
	if name == t.script("template.md") || name == t.script("init.md") {
		return builtin, nil
	}
	return "", fail(1, "cat: %s: No such file or directory", name)
}

// maxNumber is `ls DIR | grep -Eo '^[0-9]+' | sed -e 's/^0*//' | sort -rn
// | head -1`: the largest leading number of a name in DIR.
func (t *Tool) maxNumber(dir string) int {
	names := map[string]bool{}
	if entries, err := os.ReadDir(dir); err == nil {
		for _, e := range entries {
			names[e.Name()] = true
		}
	}
	for k := range t.pending {
		if filepath.Dir(k) == filepath.Clean(dir) {
			names[filepath.Base(k)] = true
		}
	}
	max := 0
	for n := range names {
		if strings.HasPrefix(n, ".") {
			continue // ls hides them
		}
		d := 0
		for d < len(n) && n[d] >= '0' && n[d] <= '9' {
			d++
		}
		if d == 0 {
			continue
		}
		if v, err := strconv.Atoi(strings.TrimLeft(n[:d], "0")); err == nil && v > max {
			max = v
		}
	}
	return max
}

// Slug is adr-new's file-name slug: `echo -n $title | tr -Ccs [:alnum:] -
// | tr [:upper:] [:lower:]`, then no dash at either end. It works on
// bytes: a letter outside ASCII becomes a dash, as it does in adr-tools.
func Slug(title string) string {
	words := strings.Fields(title)
	// echo takes leading -n, -e, -E words as its options.
	for len(words) > 0 && echoOption(words[0]) {
		words = words[1:]
	}
	s := strings.Join(words, " ")
	var b []byte
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= 'a' && c <= 'z', c >= '0' && c <= '9':
			b = append(b, c)
		case c >= 'A' && c <= 'Z':
			b = append(b, c+'a'-'A')
		default:
			if len(b) == 0 || b[len(b)-1] != '-' {
				b = append(b, '-')
			}
		}
	}
	return strings.Trim(string(b), "-")
}

func echoOption(w string) bool {
	if len(w) < 2 || w[0] != '-' {
		return false
	}
	for _, c := range w[1:] {
		if c != 'n' && c != 'e' && c != 'E' {
			return false
		}
	}
	return true
}

// cutField is `echo $l | cut -d : -f N`: a spec without ":" is the whole
// spec for every field.
func cutField(spec string, n int) string {
	s := strings.Join(strings.Fields(spec), " ")
	if !strings.Contains(s, ":") {
		return s
	}
	fs := strings.Split(s, ":")
	if n > len(fs) {
		return ""
	}
	return fs[n-1]
}

// init is adr-init [DIRECTORY].
func (t *Tool) init(args []string) error {
	if len(args) > 0 && args[0] != "" && len(strings.Fields(args[0])) == 1 {
		t.mkdir(args[0])
		t.write(".adr-dir", []byte(args[0]+"\n"))
	}
	return t.newRecord([]string{"record-architecture-decisions"}, t.script("init.md"), "true")
}

// link is adr-link SOURCE LINK TARGET REVERSE-LINK.
func (t *Tool) link(args []string) error {
	names := []string{"SOURCE", "LINK", "TARGET", "REVERSE-LINK"}
	for i, n := range names {
		if i >= len(args) || args[i] == "" {
			return fail(1, "%s: line %d: %d: %s", t.script("adr-link"), 17+i, i+1, n)
		}
	}
	if err := t.addLink(args[0], args[1], args[2]); err != nil {
		return err
	}
	return t.addLink(args[2], args[3], args[0])
}

// generate is adr-generate [REPORT [OPTION ...]].
func (t *Tool) generate(args []string) error {
	if len(args) == 0 || args[0] == "" {
		t.plan.Out = "graph\ntoc\n"
		return nil
	}
	switch args[0] {
	case "toc":
		return t.toc(args[1:])
	case "graph":
		return t.graph(args[1:])
	}
	return fail(127, "%s: line 34: %s: No such file or directory", t.script("adr-generate"), t.script("_adr_generate_"+args[0]))
}

// getopt is util-linux getopt(1) in its traditional form
// (`getopt i:o:p: $*`): options first, then "--", then the other
// arguments.
func getopt(optstring string, args []string) ([]string, error) {
	var opts, rest []string
	var errs []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--":
			rest = append(rest, args[i+1:]...)
			i = len(args)
			continue
		case strings.HasPrefix(a, "--"):
			errs = append(errs, fmt.Sprintf("getopt: unrecognized option '%s'", a))
			continue
		case len(a) < 2 || a[0] != '-':
			rest = append(rest, a)
			continue
		}
		for j := 1; j < len(a); j++ {
			c := a[j]
			k := strings.IndexByte(optstring, c)
			if k < 0 || c == ':' {
				errs = append(errs, fmt.Sprintf("getopt: invalid option -- '%c'", c))
				continue
			}
			if k+1 < len(optstring) && optstring[k+1] == ':' {
				val := a[j+1:]
				if val == "" {
					if i+1 >= len(args) {
						errs = append(errs, fmt.Sprintf("getopt: option requires an argument -- '%c'", c))
						break
					}
					i++
					val = args[i]
				}
				opts = append(opts, "-"+string(c), val)
				break
			}
			opts = append(opts, "-"+string(c))
		}
	}
	if len(errs) > 0 {
		return nil, fail(1, "%s", strings.Join(errs, "\n"))
	}
	out := append(opts, "--")
	return append(out, rest...), nil
}

// toc is _adr_generate_toc [-i INTRO] [-o OUTRO] [-p LINK_PREFIX].
func (t *Tool) toc(args []string) error {
	words, err := getopt("i:o:p:", strings.Fields(strings.Join(args, " ")))
	if err != nil {
		return err
	}
	// `set -- $args`, then a for loop over the words that shifts the
	// positional parameters two at a time, as the script does.
	params := strings.Fields(strings.Join(words, " "))
	var intro, outro, prefix string
	shift := func(n int) bool {
		if n > len(params) {
			return false
		}
		params = params[n:]
		return true
	}
	second := func() string {
		if len(params) > 1 {
			return params[1]
		}
		return ""
	}
loop:
	for _, arg := range append([]string(nil), params...) {
		switch arg {
		case "-i", "-o", "-p":
			v := second()
			switch arg {
			case "-i":
				intro = v
			case "-o":
				outro = v
			default:
				prefix = v
			}
			if !shift(2) {
				return &Failure{Code: 1}
			}
		case "--":
			shift(1)
			break loop
		}
	}
	t.plan.Out = "# Architecture Decision Records\n\n"
	if intro != "" {
		data, err := t.read(intro)
		if err != nil {
			return fail(1, "cat: %s: No such file or directory", intro)
		}
		t.plan.Out += string(data) + "\n"
	}
	list, err := t.List()
	if err != nil {
		return err
	}
	for _, f := range list {
		file, err := t.File(f)
		if err != nil {
			return err
		}
		title, err := t.title(file)
		if err != nil {
			return err
		}
		t.plan.Out += "* [" + title + "](" + prefix + basename(f) + ")\n"
	}
	if outro != "" {
		t.plan.Out += "\n"
		data, err := t.read(outro)
		if err != nil {
			return fail(1, "cat: %s: No such file or directory", outro)
		}
		t.plan.Out += string(data)
	}
	return nil
}

var leadingZeros = lazyre.New(`^0*`)

// graph is _adr_generate_graph [-p LINK_PREFIX] [-e LINK-EXTENSION].
func (t *Tool) graph(args []string) error {
	opts, _, err := t.getopts(t.script("_adr_generate_graph"), "e:p:", args)
	if err != nil {
		return err
	}
	prefix, ext := "", ".html"
	for _, o := range opts {
		if o[0] == "e" {
			ext = o[1]
		} else {
			prefix = o[1]
		}
	}
	list, err := t.List()
	if err != nil {
		return err
	}
	index := func(f string) string {
		b := basename(f)
		if i := strings.IndexByte(b, '-'); i >= 0 {
			b = b[:i]
		}
		return leadingZeros.ReplaceAllString(b, "")
	}
	var b strings.Builder
	b.WriteString("digraph {\n  node [shape=plaintext];\n  subgraph {\n")
	for _, f := range list {
		n := index(f)
		file, err := t.File(f)
		if err != nil {
			return err
		}
		title, err := t.title(file)
		if err != nil {
			return err
		}
		fmt.Fprintf(&b, "    _%s [label=\"%s\"; URL=\"%s%s%s\"];\n", n, title, prefix, strings.TrimSuffix(basename(f), ".md"), ext)
		if v, err := strconv.Atoi(n); err == nil && v > 1 {
			fmt.Fprintf(&b, "    _%d -> _%s [style=\"dotted\", weight=1];\n", v-1, n)
		}
	}
	b.WriteString("  }\n")
	for _, f := range list {
		n := index(f)
		ls, err := t.links(f)
		if err != nil {
			return err
		}
		for _, l := range ls {
			if strings.HasSuffix(l, " by") {
				continue
			}
			num, label, _ := strings.Cut(l, "=")
			fmt.Fprintf(&b, "  _%s -> _%s [label=\"%s\", weight=0]\n", n, num, label)
		}
	}
	b.WriteString("}\n")
	t.plan.Out = b.String()
	return nil
}

var ddmmyyyy = lazyre.New(`Date: ([0-9]{2})/([0-9]{2})/([0-9]{4})`)

// upgrade is adr-upgrade-repository: dates written DD/MM/YYYY become ISO
// 8601.
func (t *Tool) upgrade() error {
	list, err := t.List()
	if err != nil {
		return err
	}
	for _, f := range list {
		data, err := t.read(f)
		if err != nil {
			return fail(1, "sed: can't read %s: No such file or directory", f)
		}
		parts := strings.Split(string(data), "\n")
		changed := false
		for i, l := range parts {
			if m := ddmmyyyy.FindStringSubmatchIndex(l); m != nil {
				parts[i] = l[:m[0]] + "Date: " + l[m[6]:m[7]] + "-" + l[m[4]:m[5]] + "-" + l[m[2]:m[3]] + l[m[1]:]
				changed = true
			}
		}
		if changed {
			t.write(f, []byte(strings.Join(parts, "\n")))
		}
	}
	return nil
}
