package guard

import (
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/git-adr/git-adr/adr"
	"github.com/git-adr/git-adr/internal/lazyre"
	"mvdan.cc/sh/v3/syntax"
)

// readers print the content of their file operands. Every operand that
// is not an option is taken as a file: a value of an option read as a
// file names nothing protected, so this errs only toward judging.
var readers = set("cat", "tac", "nl", "less", "more", "most", "head", "tail", "bat", "batcat", "strings",
	"xxd", "od", "hexdump", "hd", "base64", "base32", "fold", "fmt", "pr", "cut", "sort", "uniq", "rev",
	"column", "expand", "unexpand", "paste", "join", "comm", "diff", "sdiff", "diff3", "cmp", "iconv", "jq", "yq",
	"sed", "gsed", "awk", "gawk", "mawk", "nawk", "view", "glow", "mdcat", "pandoc", "tr", "grepdiff", "split", "csplit")

// searchers search the content of files.
var searchers = set("grep", "egrep", "fgrep", "rgrep", "zgrep", "rg", "ag", "ack", "ack-grep", "pt", "ugrep", "ug")

// shells run their -c script.
var shells = set("sh", "bash", "dash", "zsh", "ksh", "mksh", "ash", "fish")

// interpreters run inline code given with an option; their logic is not
// evaluated, only the paths the code names literally.
var interpreters = map[string][]string{
	"python": {"-c"}, "python3": {"-c"}, "python2": {"-c"}, "pypy3": {"-c"},
	"node": {"-e", "--eval", "-p", "--print"}, "nodejs": {"-e", "--eval", "-p", "--print"},
	"bun": {"-e", "--eval", "-p", "--print"}, "deno": {"eval"},
	"perl": {"-e", "-E"}, "ruby": {"-e"}, "php": {"-r"}, "lua": {"-e"}, "Rscript": {"-e"},
	"pwsh": {"-c", "-Command"}, "osascript": {"-e"},
}

// producers print file names: what they print can feed xargs, a loop or a
// command substitution.
var listers = set("ls", "tree", "exa", "eza", "lsd", "du", "stat", "file", "realpath", "readlink", "dirname", "basename", "wc", "test", "[")

func set(names ...string) map[string]bool {
	m := make(map[string]bool, len(names))
	for _, n := range names {
		m[n] = true
	}
	return m
}

// call runs one simple command.
func (sh *shell) call(args []field, in *stream) *stream {
	for len(args) > 0 {
		name := args[0]
		if name.unknown || name.tree != nil {
			return unknownStream
		}
		base := path.Base(name.s)
		rest := args[1:]
		if n, ok := sh.wrapper(base, rest); ok {
			if n < 0 {
				return unknownStream
			}
			args = rest[n:]
			continue
		}
		return sh.run(base, rest, in)
	}
	return nil
}

// wrapper skips the options of a command that runs another one (sudo,
// env, nice, timeout, command, exec, ...): it returns how many arguments
// precede the command run.
func (sh *shell) wrapper(name string, args []field) (int, bool) {
	i := 0
	skipOpts := func(withValue string) {
		for i < len(args) && strings.HasPrefix(args[i].s, "-") && args[i].s != "-" {
			a := args[i].s
			i++
			if a == "--" {
				return
			}
			if len(a) == 2 && strings.IndexByte(withValue, a[1]) >= 0 {
				i++
			}
		}
	}
	switch name {
	case "sudo", "doas":
		skipOpts("ugpChDrtUR")
	case "command", "builtin", "exec", "nohup", "chronic", "unbuffer", "caffeinate", "ionice", "stdbuf", "time":
		if name == "command" && i < len(args) && (args[i].s == "-v" || args[i].s == "-V") {
			return -1, true // prints where a command is
		}
		skipOpts("aocni")
	case "nice":
		skipOpts("n")
	case "timeout":
		skipOpts("sk")
		i++ // the duration
	case "env":
		for i < len(args) {
			a := args[i].s
			switch {
			case a == "-i" || a == "-0" || a == "--ignore-environment" || a == "--null":
				i++
			case a == "-u" || a == "--unset":
				i += 2
			case a == "-C" || a == "--chdir":
				if i+1 < len(args) {
					sh.dir = joinDir(sh.dir, args[i+1].s)
				}
				i += 2
			case a == "-S" || a == "--split-string":
				if i+1 < len(args) && !args[i+1].unknown {
					sh.script(args[i+1].s, args[i+2:])
				}
				return -1, true
			case a == "--":
				i++
				return i, true
			case strings.Contains(a, "=") && !strings.HasPrefix(a, "-"):
				i++
			default:
				return i, true
			}
		}
	case "busybox":
	default:
		return 0, false
	}
	if i > len(args) {
		i = len(args)
	}
	return i, true
}

func joinDir(dir, p string) string {
	if filepath.IsAbs(p) {
		return filepath.Clean(p)
	}
	return filepath.Join(dir, p)
}

// via is the command as it would be quoted in a message.
func (sh *shell) via(name string, args []field, n int) string {
	if sh.cur != "" {
		return sh.cur
	}
	words := []string{name}
	for _, a := range args {
		if len(words) > n {
			words = append(words, "...")
			break
		}
		if a.unknown || a.tree != nil {
			words = append(words, "...")
			continue
		}
		words = append(words, adr.ShellWord(a.s))
	}
	return strings.Join(words, " ")
}

// run judges one command by name.
func (sh *shell) run(name string, args []field, in *stream) *stream {
	switch {
	case name == "cd" || name == "pushd":
		sh.cd(args)
		return nil
	case name == "git":
		return sh.git(args, in)
	case name == "git-adr":
		sh.gitAdr(args, "git-adr")
		return unknownStream
	case name == "xargs":
		return sh.xargs(args, in)
	case name == "find":
		return sh.find(args)
	case name == "echo" || name == "printf":
		out := &stream{}
		for _, a := range args {
			if !strings.HasPrefix(a.s, "-") || a.unknown {
				out.fields = append(out.fields, a)
			}
		}
		out.text, out.hasText = printed(name, args)
		return out
	case name == "source" || name == ".":
		// source /dev/stdin runs its input.
		if ops := operands(args); len(ops) > 0 && isStdin(ops[0]) && in != nil && in.hasText {
			sh.script(in.text, nil)
		}
		return unknownStream
	case name == "eval":
		var words []string
		for _, a := range args {
			if a.unknown {
				return unknownStream
			}
			words = append(words, a.s)
		}
		sh.script(strings.Join(words, " "), nil)
		return unknownStream
	case shells[name]:
		return sh.shellC(args, in)
	case searchers[name]:
		return sh.search(name, args, in)
	case name == "cat" && len(operands(args)) == 0 && in != nil:
		return in // cat copies its input: cat <<'EOF' | sh
	case readers[name]:
		sh.read(name, args)
		return unknownStream
	case interpreters[name] != nil:
		sh.interpret(name, args, in)
		return unknownStream
	case name == "tee":
		for _, a := range operands(args) {
			sh.access(Write, a, false, nil, "tee")
		}
		return unknownStream
	case name == "rm" || name == "unlink" || name == "shred" || name == "truncate" || name == "mv":
		ops := operands(args)
		for _, a := range ops {
			sh.access(Write, a, false, nil, name)
		}
		if name == "mv" && len(ops) > 1 {
			sh.remember(ops[:len(ops)-1], ops[len(ops)-1])
		}
		return unknownStream
	case name == "cp" || name == "install" || name == "ln":
		ops := operands(args)
		if len(ops) > 1 {
			sh.copy(name, args, ops[:len(ops)-1], ops[len(ops)-1])
		}
		return unknownStream
	case name == "dd":
		sh.dd(args)
		return unknownStream
	case name == "fd" || name == "fdfind":
		return sh.fd(args)
	case listers[name]:
		return sh.list(name, args)
	}
	return unknownStream
}

// operands are the arguments that are not options (all after "--").
func operands(args []field) []field {
	var out []field
	for i, a := range args {
		if a.s == "--" && !a.unknown {
			return append(out, args[i+1:]...)
		}
		if strings.HasPrefix(a.s, "-") && len(a.s) > 1 && !a.unknown {
			continue
		}
		out = append(out, a)
	}
	return out
}

func (sh *shell) cd(args []field) {
	ops := operands(args)
	if len(ops) == 0 {
		if h := os.Getenv("HOME"); h != "" {
			sh.dir = h
		}
		return
	}
	if ops[0].unknown || ops[0].tree != nil || ops[0].s == "-" {
		return
	}
	sh.dir = joinDir(sh.dir, ops[0].s)
}

// read judges a reader: every operand is read; sed -i and perl -i write.
func (sh *shell) read(name string, args []field) {
	kind := Read
	recursive := false
	for _, a := range args {
		switch {
		case (name == "sed" || name == "gsed") && (a.s == "-i" || strings.HasPrefix(a.s, "-i") && !strings.HasPrefix(a.s, "-in") || strings.HasPrefix(a.s, "--in-place")):
			kind = Write
		case (name == "diff" || name == "diff3") && (a.s == "-r" || a.s == "--recursive" || strings.HasPrefix(a.s, "-") && !strings.HasPrefix(a.s, "--") && strings.Contains(a.s, "r")):
			recursive = true
		}
	}
	v := sh.via(name, args, 3)
	for _, a := range operands(args) {
		sh.access(kind, a, recursive, nil, v)
	}
}

// interpret judges inline code by the paths it names literally.
var codePath = lazyre.New(`[A-Za-z0-9_.~*?/\-]*/[A-Za-z0-9_.*?/\-]+|[A-Za-z0-9_.*?\-]+\.(?:md|markdown|rst|adoc|txt)\b`)

func (sh *shell) interpret(name string, args []field, in *stream) {
	flags := interpreters[name]
	// Code from the input: python3 - <<'EOF', node < /dev/stdin, perl
	// with no script. Its paths are judged as inline code's are.
	if in != nil && in.hasText && readsCodeFromInput(args, flags) {
		v := sh.via(name, args, 3)
		for _, p := range codePath.FindAllString(in.text, 64) {
			for _, f := range sh.join([]piece{{s: p, pat: p, glob: strings.ContainsAny(p, "*?[")}}) {
				sh.access(Read, f, false, nil, v)
			}
		}
	}
	for i := 0; i < len(args); i++ {
		a := args[i]
		isCode := false
		for _, f := range flags {
			if a.s == f {
				isCode = true
			}
		}
		if !isCode || i+1 >= len(args) {
			continue
		}
		code := args[i+1]
		i++
		if code.unknown {
			continue
		}
		v := sh.via(name, args, 3)
		for _, p := range codePath.FindAllString(code.s, 64) {
			fs := sh.join([]piece{{s: p, pat: p, glob: strings.ContainsAny(p, "*?[")}})
			for _, f := range fs {
				sh.access(Read, f, false, nil, v)
			}
		}
	}
	if name == "perl" || name == "ruby" {
		// perl -ne 'print' FILE reads its operands.
		ops := operands(args)
		for _, o := range ops {
			if !strings.ContainsAny(o.s, " ;(){}'\"") {
				sh.access(Read, o, false, nil, name)
			}
		}
	}
}

// readsCodeFromInput reports an interpreter run without inline code and
// without a script file, or with "-" or /dev/stdin as its script.
func readsCodeFromInput(args []field, codeFlags []string) bool {
	for _, a := range args {
		if a.unknown {
			return false
		}
		for _, f := range codeFlags {
			if a.s == f {
				return false
			}
		}
		if isStdin(a) {
			return true
		}
		if !strings.HasPrefix(a.s, "-") {
			return false // a script file
		}
	}
	return true
}

// script parses and judges a shell script given as text (sh -c, eval,
// env -S) with positional parameters.
func (sh *shell) script(src string, params []field) {
	if sh.depth >= maxShellDepth {
		return
	}
	f, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(src), "")
	if err != nil {
		return
	}
	sub := sh.clone()
	sub.depth++
	sub.src = src
	for i, p := range params {
		sub.vars[itoa(i)] = []field{p}
	}
	if len(params) > 1 {
		sub.vars["@"] = params[1:]
		sub.vars["*"] = params[1:]
	}
	sub.stmts(f.Stmts, nil)
}

func itoa(i int) string {
	if i < 10 {
		return string(rune('0' + i))
	}
	return string(rune('0'+i/10)) + string(rune('0'+i%10))
}

// shellC judges sh -c SCRIPT [ARG0 ARGS...], and a shell that reads its
// script from its input (no operand, -s, - or /dev/stdin): `echo 'git adr
// decide 3 accept' | sh`, `bash <<'EOF'`.
func (sh *shell) shellC(args []field, in *stream) *stream {
	for i := 0; i < len(args); i++ {
		a := args[i].s
		if a == "-c" || strings.HasPrefix(a, "-") && !strings.HasPrefix(a, "--") && strings.Contains(a, "c") {
			j := i + 1
			for j < len(args) && strings.HasPrefix(args[j].s, "-") {
				j++
			}
			if j < len(args) && !args[j].unknown {
				sh.script(args[j].s, args[j+1:])
			}
			return unknownStream
		}
		if a == "-o" || a == "-O" || a == "--rcfile" || a == "--init-file" {
			i++
			continue
		}
		if a == "-s" || a == "-" || a == "--" {
			break
		}
		if !strings.HasPrefix(a, "-") {
			if !isStdin(args[i]) {
				return unknownStream // a script file: not read here
			}
			break
		}
	}
	if in != nil && in.hasText {
		sh.script(in.text, nil)
	}
	return unknownStream
}

// isStdin reports an operand that names standard input.
func isStdin(f field) bool {
	return !f.unknown && (f.s == "-" || f.s == "/dev/stdin" || f.s == "/proc/self/fd/0" || f.s == "/dev/fd/0")
}

// printed is what echo or printf prints, when every argument is known:
// echo's words joined by spaces (-n: no newline, -e: \n and \t read), and
// printf's format with %s filled in and \n, \t, \\ read (any other
// directive: unknown).
func printed(name string, args []field) (string, bool) {
	for _, a := range args {
		if a.unknown || a.tree != nil {
			return "", false
		}
	}
	esc := strings.NewReplacer(`\n`, "\n", `\t`, "\t", `\\`, `\`)
	if name == "echo" {
		nl, escapes := true, false
		i := 0
		for ; i < len(args) && len(args[i].s) > 1 && strings.Trim(args[i].s, "-neE") == "" && args[i].s[0] == '-'; i++ {
			nl = nl && !strings.Contains(args[i].s, "n")
			escapes = escapes || strings.Contains(args[i].s, "e")
		}
		var words []string
		for _, a := range args[i:] {
			words = append(words, a.s)
		}
		t := strings.Join(words, " ")
		if escapes {
			t = esc.Replace(t)
		}
		if nl {
			t += "\n"
		}
		return t, true
	}
	if len(args) == 0 {
		return "", false
	}
	format, rest := args[0].s, args[1:]
	var b strings.Builder
	for i := 0; i < len(format); i++ {
		c := format[i]
		if c != '%' {
			b.WriteByte(c)
			continue
		}
		if i+1 >= len(format) {
			return "", false
		}
		i++
		switch format[i] {
		case '%':
			b.WriteByte('%')
		case 's':
			if len(rest) > 0 {
				b.WriteString(rest[0].s)
				rest = rest[1:]
			}
		default:
			return "", false
		}
	}
	return esc.Replace(b.String()), true
}

// outputs are the names that write to the terminal or the command's own
// output: a copy onto one of them prints the file.
var outputs = lazyre.New(`^(?:/dev/(?:stdout|stderr|tty|console|pts/\d+|fd/\d+)|/proc/(?:self|thread-self|\d+)/fd/\d+)$`)

// copy judges cp, install and ln SOURCES... DEST: a copy onto the
// terminal or the command's output (cp FILE /dev/stdout) reads the
// sources; any other copy is remembered, so that reading it later in the
// command reads the source.
func (sh *shell) copy(name string, args, sources []field, dest field) {
	sh.access(Write, dest, false, nil, name)
	if !dest.unknown && dest.tree == nil && outputs.MatchString(dest.s) {
		recursive := false
		for _, a := range args {
			if a.s == "-r" || a.s == "-R" || a.s == "-a" || a.s == "--recursive" || a.s == "--archive" {
				recursive = true
			}
		}
		v := sh.via(name, args, 3)
		for _, src := range sources {
			sh.access(Read, src, recursive, nil, v)
		}
		return
	}
	if name == "ln" {
		// ln -s TARGET LINK: the target is named from the link's folder.
		symbolic := false
		for _, a := range args {
			if a.s == "-s" || a.s == "--symbolic" || strings.HasPrefix(a.s, "-") && !strings.HasPrefix(a.s, "--") && strings.Contains(a.s, "s") {
				symbolic = true
			}
		}
		if symbolic && !dest.unknown {
			var targets []field
			for _, t := range sources {
				if !t.unknown && t.tree == nil && !filepath.IsAbs(t.s) {
					t.base = filepath.Dir(joinDir(sh.dir, dest.s))
				}
				targets = append(targets, t)
			}
			sources = targets
		}
	}
	sh.remember(sources, dest)
}

// remember notes that dest (a file, or a folder the sources go into) now
// holds copies of sources.
func (sh *shell) remember(sources []field, dest field) {
	if dest.unknown || dest.tree != nil || dest.s == "" {
		return
	}
	d := joinDir(sh.dir, dest.s)
	into := len(sources) > 1 || strings.HasSuffix(dest.s, "/")
	if fi, err := os.Stat(d); err == nil && fi.IsDir() {
		into = true
	}
	for _, src := range sources {
		if src.unknown || src.tree != nil {
			continue
		}
		if src.base == "" {
			src.base = sh.dir
		}
		key := d
		if into {
			key = filepath.Join(d, filepath.Base(src.s))
		}
		if len(sh.copies[key]) < maxFields {
			sh.copies[key] = append(sh.copies[key], src)
		}
	}
}

// dd judges dd if=FILE: without of= (or with of= the output) it prints
// the file; with of=FILE it copies it.
func (sh *shell) dd(args []field) {
	var src, dst *field
	for i := range args {
		a := args[i]
		if a.unknown {
			continue
		}
		if v, ok := strings.CutPrefix(a.s, "if="); ok {
			src = &field{s: v, group: a.group}
		}
		if v, ok := strings.CutPrefix(a.s, "of="); ok {
			dst = &field{s: v}
		}
	}
	if src == nil {
		return
	}
	if dst == nil || outputs.MatchString(dst.s) {
		sh.access(Read, *src, false, nil, sh.via("dd", args, 3))
		return
	}
	sh.access(Write, *dst, false, nil, "dd")
	sh.remember([]field{*src}, *dst)
}

// list judges a lister: names only; what it prints can feed xargs.
func (sh *shell) list(name string, args []field) *stream {
	if name != "ls" && name != "tree" && name != "exa" && name != "eza" && name != "lsd" {
		return unknownStream
	}
	out := &stream{}
	ops := operands(args)
	if len(ops) == 0 {
		ops = []field{{s: "."}}
	}
	for _, o := range ops {
		if o.unknown || o.tree != nil {
			out.unknown = true
			continue
		}
		abs := joinDir(sh.dir, o.s)
		fi, err := os.Stat(abs)
		if err != nil {
			continue
		}
		sh.add(Access{Kind: List, Path: o.s, Dir: sh.dir, Via: name})
		if !fi.IsDir() {
			out.fields = append(out.fields, o)
			continue
		}
		es, err := os.ReadDir(abs)
		if err != nil {
			continue
		}
		for _, e := range es {
			if !strings.HasPrefix(e.Name(), ".") {
				// ls DIR prints bare names, relative to DIR.
				out.fields = append(out.fields, field{s: e.Name()})
			}
		}
	}
	return out
}

// fd judges fd / fdfind: it lists, and with -x/-X runs a command.
func (sh *shell) fd(args []field) *stream {
	ops := operands(args)
	dir := "."
	if len(ops) > 1 && !ops[1].unknown {
		dir = ops[1].s
	}
	t := field{tree: &tree{dir: dir, base: sh.dir}, group: sh.newGroup()}
	for i, a := range args {
		if (a.s == "-x" || a.s == "--exec" || a.s == "-X" || a.s == "--exec-batch") && i+1 < len(args) {
			cmd := append([]field(nil), args[i+1:]...)
			for j := range cmd {
				if cmd[j].s == "{}" {
					cmd[j] = t
				}
			}
			if len(cmd) == 1 || !hasTree(cmd) {
				cmd = append(cmd, t)
			}
			sh.clone().call(cmd, nil)
			break
		}
	}
	return &stream{fields: []field{t}}
}

func hasTree(fs []field) bool {
	for _, f := range fs {
		if f.tree != nil {
			return true
		}
	}
	return false
}

// xargs runs its command with the names its input holds.
func (sh *shell) xargs(args []field, in *stream) *stream {
	i := 0
	replace := ""
	for i < len(args) {
		a := args[i].s
		if !strings.HasPrefix(a, "-") || a == "-" || args[i].unknown {
			break
		}
		i++
		switch {
		case a == "--":
			goto cmd
		case a == "-I":
			if i < len(args) {
				replace = args[i].s
				i++
			}
		case strings.HasPrefix(a, "-I"):
			replace = a[2:]
		case a == "-i" || a == "--replace":
			replace = "{}"
		case strings.HasPrefix(a, "--replace="):
			replace = strings.TrimPrefix(a, "--replace=")
		case strings.HasPrefix(a, "-i"):
			replace = a[2:]
		case a == "-a" || a == "--arg-file":
			if i < len(args) {
				in = unknownStream
				i++
			}
		case a == "-n" || a == "-L" || a == "-P" || a == "-s" || a == "-d" || a == "-E" || a == "-e":
			i++
		}
	}
cmd:
	cmd := args[i:]
	if len(cmd) == 0 {
		cmd = []field{{s: "echo"}}
	}
	var items []field
	if in != nil {
		g := sh.newGroup()
		for _, f := range in.fields {
			f.group = g
			items = append(items, f)
		}
	}
	if len(items) == 0 {
		sh.clone().call(cmd, nil)
		return unknownStream
	}
	if replace != "" {
		var out []field
		for _, c := range cmd {
			if c.s == replace && !c.unknown {
				out = append(out, items...)
				continue
			}
			if strings.Contains(c.s, replace) && !c.unknown {
				for _, it := range items {
					if it.tree != nil || it.unknown {
						continue
					}
					out = append(out, field{s: strings.ReplaceAll(c.s, replace, it.s), group: it.group})
				}
				continue
			}
			out = append(out, c)
		}
		return sh.clone().call(out, nil)
	}
	return sh.clone().call(append(append([]field(nil), cmd...), items...), nil)
}

// find judges find: its start points and tests make a set of files that
// -exec commands get and that it prints.
func (sh *shell) find(args []field) *stream {
	i := 0
	for i < len(args) && (args[i].s == "-H" || args[i].s == "-L" || args[i].s == "-P" || strings.HasPrefix(args[i].s, "-O") || args[i].s == "-D") {
		if args[i].s == "-D" {
			i++
		}
		i++
	}
	var starts []field
	for i < len(args) && !args[i].unknown && !strings.HasPrefix(args[i].s, "-") && args[i].s != "(" && args[i].s != "!" && args[i].s != "," {
		starts = append(starts, args[i])
		i++
	}
	if len(starts) == 0 {
		starts = []field{{s: "."}}
	}
	expr := args[i:]
	var conds []func(start string) Cond
	var execs [][]field
	complex, dirsOnly, neg := false, false, false
	valued := set("-newer", "-mtime", "-size", "-user", "-group", "-perm", "-regex", "-iregex", "-mindepth", "-links",
		"-inum", "-samefile", "-printf", "-fprint", "-fprint0", "-fls", "-used", "-amin", "-cmin", "-mmin", "-atime",
		"-ctime", "-uid", "-gid", "-context", "-lname", "-ilname", "-newerXY", "-anewer", "-cnewer", "-fstype", "-xtype")
	for j := 0; j < len(expr); j++ {
		a := expr[j].s
		val := func() string {
			if j+1 < len(expr) {
				j++
				return expr[j].s
			}
			return ""
		}
		switch {
		case a == "!" || a == "-not":
			neg = true
			continue
		case a == "-o" || a == "-or" || a == "(" || a == ")" || a == ",":
			complex = true
		case a == "-name" || a == "-iname":
			g := &NameGlob{Glob: val(), Fold: a == "-iname", Not: neg}
			conds = append(conds, func(string) Cond { return g })
		case a == "-path" || a == "-ipath" || a == "-wholename" || a == "-iwholename":
			glob, fold, not := val(), strings.HasPrefix(a, "-i"), neg
			conds = append(conds, func(start string) Cond { return &PathGlob{Glob: glob, Prefix: start, Fold: fold, Not: not} })
		case a == "-type":
			if v := val(); v == "d" && !neg {
				dirsOnly = true
			}
		case a == "-maxdepth":
			n := 0
			for _, c := range val() {
				if c >= '0' && c <= '9' {
					n = n*10 + int(c-'0')
				}
			}
			conds = append(conds, func(string) Cond { return maxDepth(n) })
		case a == "-exec" || a == "-execdir" || a == "-ok" || a == "-okdir":
			var cmd []field
			for j+1 < len(expr) {
				j++
				if w := expr[j].s; w == ";" || w == "+" {
					break
				}
				cmd = append(cmd, expr[j])
			}
			execs = append(execs, cmd)
		case valued[a]:
			val()
		}
		neg = false
	}
	out := &stream{}
	for _, st := range starts {
		if st.unknown || st.tree != nil {
			out.unknown = true
			continue
		}
		var filter Filter
		if !complex {
			for _, c := range conds {
				filter = append(filter, c(st.s))
			}
		}
		if dirsOnly && !complex {
			continue // directories only: names, never content
		}
		sh.add(Access{Kind: List, Path: st.s, Dir: sh.dir, Via: "find"})
		t := field{tree: &tree{dir: st.s, base: sh.dir, filter: filter}, group: sh.newGroup()}
		for _, cmd := range execs {
			c := append([]field(nil), cmd...)
			for k := range c {
				if !c[k].unknown && strings.Contains(c[k].s, "{}") {
					c[k] = t
				}
			}
			sh.clone().call(c, nil)
		}
		out.fields = append(out.fields, t)
	}
	return out
}

// maxDepth keeps files at most n levels below the start (find -maxdepth).
type maxDepth int

// Keep implements [Cond].
func (n maxDepth) Keep(rel, sub string) bool { return strings.Count(sub, "/")+1 <= int(n) }
