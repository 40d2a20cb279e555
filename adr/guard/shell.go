package guard

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/syntax"
)

// Recognition is what a shell command was recognised to do.
type Recognition struct {
	// Accesses are the reads, searches, listings and writes recognised.
	Accesses []Access
	// Person are commands only a person may run (RulePerson findings).
	Person []Finding
	// Err is set when the command is not valid bash: nothing was
	// recognised.
	Err error
}

// Limits of the recogniser, so that no command can make a hook slow.
const (
	maxShellBytes  = 64 << 10 // longer commands are judged unparsed
	maxFields      = 2048     // fields one word may expand to
	maxShellDepth  = 4        // nested sh -c / eval / $( )
	maxShellAccess = 4096
)

// Recognise parses command as bash, as run in the directory dir
// (absolute), and lists what it reads, searches, lists and writes, and the
// person-only commands it runs. It evaluates what a shell would for the
// cases it knows: quoting, globs (against the file system), brace
// expansion, variables assigned in the command, for and while-read loops,
// pipes into xargs and while, command substitution, cd, sh -c and eval,
// redirections, and the options of the reading and searching commands
// (cat, less, head, tail, sed, awk, grep, rg, git grep, find -exec, xargs,
// ...). Anything else (a script file, an interpreter's logic, a variable
// from elsewhere) is not evaluated and is not judged.
func Recognise(command, dir string) Recognition {
	var rec Recognition
	if len(command) > maxShellBytes {
		rec.Err = fmt.Errorf("the command is longer than %d bytes", maxShellBytes)
		return rec
	}
	f, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(command), "")
	if err != nil {
		rec.Err = err
		return rec
	}
	groups := 0
	sh := &shell{src: command, dir: filepath.Clean(dir), vars: map[string][]field{}, copies: map[string][]field{}, rec: &rec, groups: &groups}
	for _, st := range f.Stmts {
		// Messages quote the whole statement as written: a loop, a
		// pipeline into xargs, a cd before the read.
		sh.cur = sh.source(st.Pos(), st.End())
		sh.stmt(st, nil)
	}
	return rec
}

// field is one argument after expansion.
type field struct {
	s string
	// unknown: it holds an expansion the recogniser does not evaluate.
	unknown bool
	// group is the expansion (glob, loop, xargs, find) it came from.
	group int
	// tree stands for every file below a directory (find, rg --files).
	tree *tree
	// base is the directory a copy's original was named from ("" for the
	// directory of the command that reads it).
	base string
}

// dir is the directory the field's path is relative to.
func (f field) dir(cur string) string {
	if f.base != "" {
		return f.base
	}
	return cur
}

// tree is a set of files: every file below dir (relative to base) that
// filter keeps.
type tree struct {
	dir, base string
	filter    Filter
}

// stream is what a command writes to its standard output, as far as it
// is a list of file names, and as text when that is known whole (echo,
// printf, a here-document, cat of its input): a shell or an interpreter
// that reads its script from the stream runs that text.
type stream struct {
	fields  []field
	unknown bool
	text    string
	hasText bool
}

// textStream is a stream of known text; its fields are the words of the
// text, as xargs and `while read` take them.
func textStream(text string) *stream {
	out := &stream{text: text, hasText: true}
	for _, w := range strings.Fields(text) {
		out.fields = append(out.fields, field{s: w})
	}
	return out
}

var unknownStream = &stream{unknown: true}

type shell struct {
	// src is the script being read; cur the top-level statement being
	// judged, as written, for messages.
	src, cur string
	dir      string
	vars     map[string][]field
	// copies are files the command made as copies or links of others
	// (cp, mv, ln, dd of=), by absolute path: reading one reads what it
	// was made from. Shared by every clone: a copy made in a pipeline or
	// a subshell is still there afterwards.
	copies map[string][]field
	rec    *Recognition
	groups *int
	depth  int
}

func (sh *shell) clone() *shell {
	vars := make(map[string][]field, len(sh.vars))
	for k, v := range sh.vars {
		vars[k] = v
	}
	c := *sh
	c.vars = vars
	return &c
}

func (sh *shell) newGroup() int {
	*sh.groups++
	return *sh.groups
}

func (sh *shell) add(a Access) {
	if len(sh.rec.Accesses) < maxShellAccess {
		sh.rec.Accesses = append(sh.rec.Accesses, a)
	}
}

// access records what a command does with one argument.
func (sh *shell) access(k Kind, f field, recursive bool, filter Filter, via string) {
	switch {
	case f.unknown:
	case f.tree != nil:
		sh.add(Access{Kind: k, Path: f.tree.dir, Dir: f.tree.base, Recursive: true, Filter: append(append(Filter(nil), f.tree.filter...), filter...), Group: f.group, Via: via})
	case f.s == "" || f.s == "-":
	default:
		sh.add(Access{Kind: k, Path: f.s, Dir: sh.dir, Recursive: recursive, Filter: filter, Group: f.group, Via: via})
		if k == Read || k == Search {
			// A copy made earlier in the command reads as its original.
			for _, src := range sh.copies[joinDir(sh.dir, f.s)] {
				if src.tree == nil && joinDir(sh.dir, src.s) != joinDir(sh.dir, f.s) {
					sh.add(Access{Kind: k, Path: src.s, Dir: src.dir(sh.dir), Recursive: recursive, Filter: filter, Group: f.group, Via: via})
				}
			}
		}
	}
}

func (sh *shell) stmts(list []*syntax.Stmt, in *stream) *stream {
	var out *stream
	for _, s := range list {
		out = sh.stmt(s, in)
	}
	return out
}

func (sh *shell) stmt(s *syntax.Stmt, in *stream) *stream {
	written := sh.source(s.Pos(), s.End())
	for _, r := range s.Redirs {
		switch r.Op {
		case syntax.RdrIn, syntax.RdrInOut:
			if ps := procSubst(r.Word); ps != nil {
				in = sh.clone().stmts(ps.Stmts, nil)
				continue
			}
			for _, f := range sh.word(r.Word) {
				sh.access(Read, f, false, nil, written)
			}
			in = unknownStream
		case syntax.RdrOut, syntax.AppOut, syntax.RdrClob, syntax.AppClob, syntax.RdrAll, syntax.AppAll, syntax.RdrAllClob, syntax.AppAllClob:
			for _, f := range sh.word(r.Word) {
				sh.access(Write, f, false, nil, written)
			}
		case syntax.Hdoc, syntax.DashHdoc:
			// A here-document is the command's input, known whole: a
			// shell or interpreter given one runs it (bash <<'EOF').
			in = unknownStream
			if r.Hdoc != nil {
				if t, ok := sh.text(r.Hdoc); ok {
					in = textStream(t)
				}
			}
		case syntax.WordHdoc:
			in = unknownStream
			if t, ok := sh.text(r.Word); ok {
				in = textStream(t + "\n")
			}
		}
	}
	if s.Cmd == nil {
		return nil
	}
	return sh.command(s.Cmd, in)
}

func procSubst(w *syntax.Word) *syntax.ProcSubst {
	if w == nil || len(w.Parts) != 1 {
		return nil
	}
	ps, _ := w.Parts[0].(*syntax.ProcSubst)
	return ps
}

func (sh *shell) command(c syntax.Command, in *stream) *stream {
	switch c := c.(type) {
	case *syntax.CallExpr:
		for _, a := range c.Assigns {
			var v []field
			if a.Value != nil {
				v = sh.word(a.Value)
			}
			if a.Array != nil {
				for _, e := range a.Array.Elems {
					if e.Value != nil {
						v = append(v, sh.word(e.Value)...)
					}
				}
			}
			if len(c.Args) == 0 && a.Name != nil {
				sh.vars[a.Name.Value] = v
			}
		}
		var args []field
		for _, w := range c.Args {
			args = append(args, sh.word(w)...)
		}
		return sh.call(args, in)
	case *syntax.BinaryCmd:
		switch c.Op {
		case syntax.Pipe, syntax.PipeAll:
			out := sh.clone().stmt(c.X, in)
			return sh.clone().stmt(c.Y, out)
		}
		sh.stmt(c.X, in)
		return sh.stmt(c.Y, in)
	case *syntax.Subshell:
		return sh.clone().stmts(c.Stmts, in)
	case *syntax.Block:
		return sh.stmts(c.Stmts, in)
	case *syntax.IfClause:
		for ic := c; ic != nil; ic = ic.Else {
			sh.clone().stmts(ic.Cond, in)
			sh.clone().stmts(ic.Then, in)
		}
		return unknownStream
	case *syntax.WhileClause:
		if v := readVar(c.Cond); v != "" && in != nil {
			g := sh.newGroup()
			var vals []field
			for _, f := range in.fields {
				f.group = g
				vals = append(vals, f)
			}
			if in.unknown {
				vals = append(vals, field{unknown: true})
			}
			sh.vars[v] = vals
		}
		sh.stmts(c.Cond, in)
		return sh.stmts(c.Do, nil)
	case *syntax.ForClause:
		if wi, ok := c.Loop.(*syntax.WordIter); ok {
			g := sh.newGroup()
			var vals []field
			if !wi.InPos.IsValid() {
				vals = []field{{unknown: true}}
			}
			for _, w := range wi.Items {
				for _, f := range sh.word(w) {
					f.group = g
					vals = append(vals, f)
				}
			}
			sh.vars[wi.Name.Value] = vals
		}
		return sh.stmts(c.Do, nil)
	case *syntax.CaseClause:
		sh.word(c.Word)
		for _, it := range c.Items {
			sh.clone().stmts(it.Stmts, in)
		}
		return unknownStream
	case *syntax.FuncDecl:
		if c.Body != nil {
			sh.clone().stmt(c.Body, nil)
		}
		return nil
	case *syntax.DeclClause:
		for _, a := range c.Args {
			if a.Naked || a.Name == nil {
				continue
			}
			var v []field
			if a.Value != nil {
				v = sh.word(a.Value)
			}
			sh.vars[a.Name.Value] = v
		}
		return nil
	case *syntax.TimeClause:
		if c.Stmt != nil {
			return sh.stmt(c.Stmt, in)
		}
	case *syntax.CoprocClause:
		if c.Stmt != nil {
			return sh.stmt(c.Stmt, in)
		}
	case *syntax.TestClause:
		syntax.Walk(c, func(n syntax.Node) bool {
			if w, ok := n.(*syntax.Word); ok {
				sh.word(w)
				return false
			}
			return true
		})
	}
	return unknownStream
}

// source is the script between two positions ("" when they are not in
// the script, as for words of an expanded here-document).
func (sh *shell) source(from, to syntax.Pos) string {
	a, b := int(from.Offset()), int(to.Offset())
	if !from.IsValid() || !to.IsValid() || a < 0 || b > len(sh.src) || a >= b {
		return ""
	}
	return sh.src[a:b]
}

// readVar returns VAR when the condition is `read [-r ...] VAR`.
func readVar(cond []*syntax.Stmt) string {
	if len(cond) != 1 {
		return ""
	}
	ce, ok := cond[0].Cmd.(*syntax.CallExpr)
	if !ok || len(ce.Args) < 2 || lit(ce.Args[0]) != "read" {
		return ""
	}
	return lit(ce.Args[len(ce.Args)-1])
}

// lit is a word made of one plain literal, else "".
func lit(w *syntax.Word) string {
	if w == nil || len(w.Parts) != 1 {
		return ""
	}
	l, ok := w.Parts[0].(*syntax.Lit)
	if !ok {
		return ""
	}
	return l.Value
}

// text expands a word as one string, without field splitting or globs
// (a here-document, a here-string, a quoted argument); ok is false when
// any part of it is not known or has several values.
func (sh *shell) text(w *syntax.Word) (string, bool) {
	var b strings.Builder
	for _, p := range w.Parts {
		vals := sh.part(p, true, false)
		if len(vals) != 1 || vals[0].unknown || vals[0].tree != nil {
			return "", false
		}
		b.WriteString(vals[0].s)
	}
	return b.String(), true
}

// piece is a word part's possible values.
type piece struct {
	s, pat  string // the text, and the text as a glob (quoted metacharacters escaped)
	glob    bool   // holds an unquoted glob metacharacter
	unknown bool
	group   int
	tree    *tree
	split   bool // an unquoted expansion: each value is its own field
}

// word expands one word into fields: braces, parameters the command set,
// command substitutions, then globs against the file system.
func (sh *shell) word(w *syntax.Word) []field {
	if w == nil {
		return nil
	}
	words := []*syntax.Word{w}
	if syntax.SplitBraces(w) {
		words = words[:0]
		for x, err := range expand.BracesSeq(nil, w) {
			if err != nil || len(words) >= maxFields {
				break
			}
			words = append(words, x)
		}
	}
	var out []field
	for _, x := range words {
		alts := [][]piece{{}}
		for i, p := range x.Parts {
			vals := sh.part(p, false, i == 0)
			var next [][]piece
			for _, a := range alts {
				for _, v := range vals {
					next = append(next, append(append([]piece(nil), a...), v))
					if len(next) > maxFields {
						break
					}
				}
			}
			alts = next
		}
		for _, a := range alts {
			out = append(out, sh.join(a)...)
			if len(out) > maxFields {
				return out
			}
		}
	}
	return out
}

// join turns one combination of pieces into fields, expanding a glob.
func (sh *shell) join(ps []piece) []field {
	if len(ps) == 1 && ps[0].tree != nil {
		return []field{{tree: ps[0].tree, group: ps[0].group}}
	}
	var f field
	var pat strings.Builder
	glob := false
	for _, p := range ps {
		if p.tree != nil {
			f.unknown = true
			continue
		}
		f.s += p.s
		pat.WriteString(p.pat)
		glob = glob || p.glob
		f.unknown = f.unknown || p.unknown
		if p.group != 0 {
			f.group = p.group
		}
	}
	if glob && !f.unknown {
		m := Glob(sh.dir, pat.String())
		if len(m) > 0 {
			g := sh.newGroup()
			out := make([]field, len(m))
			for i, x := range m {
				out[i] = field{s: x, group: g}
			}
			return out
		}
	}
	return []field{f}
}

// part gives the possible values of a word part.
func (sh *shell) part(p syntax.WordPart, quoted, first bool) []piece {
	switch p := p.(type) {
	case *syntax.Lit:
		return []piece{sh.literal(p.Value, quoted, first)}
	case *syntax.SglQuoted:
		return []piece{{s: p.Value, pat: escapeGlob(p.Value)}}
	case *syntax.DblQuoted:
		alts := [][]piece{{}}
		for _, q := range p.Parts {
			var next [][]piece
			for _, a := range alts {
				for _, v := range sh.part(q, true, false) {
					v.glob, v.split, v.pat = false, false, escapeGlob(v.s)
					next = append(next, append(append([]piece(nil), a...), v))
				}
			}
			if len(next) > maxFields {
				next = next[:maxFields]
			}
			alts = next
		}
		var out []piece
		for _, a := range alts {
			var pc piece
			for _, v := range a {
				pc.s += v.s
				pc.pat += v.pat
				pc.unknown = pc.unknown || v.unknown
				if v.group != 0 {
					pc.group = v.group
				}
				if v.tree != nil && len(a) == 1 {
					pc.tree = v.tree
				} else if v.tree != nil {
					pc.unknown = true
				}
			}
			out = append(out, pc)
		}
		return out
	case *syntax.ParamExp:
		return sh.param(p)
	case *syntax.CmdSubst:
		if sh.depth >= maxShellDepth {
			return []piece{{unknown: true}}
		}
		sub := sh.clone()
		sub.depth++
		out := sub.stmts(p.Stmts, nil)
		if quoted && out != nil && out.hasText {
			// "$(...)" is the output whole, less its final newlines.
			t := strings.TrimRight(out.text, "\n")
			return []piece{{s: t, pat: escapeGlob(t)}}
		}
		return streamPieces(out)
	case *syntax.ProcSubst:
		sub := sh.clone()
		sub.depth++
		if sh.depth < maxShellDepth {
			sub.stmts(p.Stmts, nil)
		}
		return []piece{{unknown: true}}
	case *syntax.ArithmExp:
		return []piece{{unknown: true}}
	case *syntax.ExtGlob:
		return []piece{{s: p.Op.String() + p.Pattern.Value + ")", pat: p.Op.String() + p.Pattern.Value + ")", glob: true, unknown: true}}
	}
	return []piece{{unknown: true}}
}

func streamPieces(out *stream) []piece {
	if out == nil || out.unknown && len(out.fields) == 0 {
		return []piece{{unknown: true}}
	}
	var ps []piece
	for _, f := range out.fields {
		ps = append(ps, piece{s: f.s, pat: escapeGlob(f.s), unknown: f.unknown, group: f.group, tree: f.tree, split: true})
	}
	if out.unknown {
		ps = append(ps, piece{unknown: true})
	}
	return ps
}

// literal unescapes a literal part: outside quotes a backslash quotes the
// next character; inside double quotes only before $ ` " \ and newline.
// A leading ~ is the home directory.
func (sh *shell) literal(v string, quoted, first bool) piece {
	var s, pat strings.Builder
	glob := false
	if !quoted && first && (v == "~" || strings.HasPrefix(v, "~/")) {
		home := os.Getenv("HOME")
		s.WriteString(home)
		pat.WriteString(escapeGlob(home))
		v = v[1:]
	}
	for i := 0; i < len(v); i++ {
		c := v[i]
		if c == '\\' && i+1 < len(v) {
			n := v[i+1]
			if !quoted || strings.IndexByte("$`\"\\\n", n) >= 0 {
				i++
				if n == '\n' {
					continue
				}
				s.WriteByte(n)
				pat.WriteString(escapeGlob(string(n)))
				continue
			}
		}
		s.WriteByte(c)
		if !quoted && (c == '*' || c == '?' || c == '[') {
			glob = true
			pat.WriteByte(c)
			continue
		}
		pat.WriteString(escapeGlob(string(c)))
	}
	return piece{s: s.String(), pat: pat.String(), glob: glob}
}

// escapeGlob quotes glob metacharacters for filepath.Glob.
func escapeGlob(s string) string {
	if !strings.ContainsAny(s, `*?[\`) {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		if strings.ContainsRune(`*?[\`, r) {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}

// param gives the values of $NAME: those the command assigned, the working
// directory, the home directory; anything else is unknown.
func (sh *shell) param(p *syntax.ParamExp) []piece {
	if p.Param == nil || p.Exp != nil || p.Repl != nil || p.Slice != nil || p.Index != nil || p.Length || p.Excl || p.Names != 0 {
		return []piece{{unknown: true}}
	}
	name := p.Param.Value
	if vals, ok := sh.vars[name]; ok {
		if len(vals) == 0 {
			return []piece{{}}
		}
		var out []piece
		for _, f := range vals {
			// Unquoted, the value is globbed again, as the shell does.
			out = append(out, piece{s: f.s, pat: f.s, glob: strings.ContainsAny(f.s, "*?["), unknown: f.unknown, group: f.group, tree: f.tree, split: true})
		}
		return out
	}
	switch name {
	case "PWD":
		return []piece{{s: sh.dir, pat: escapeGlob(sh.dir)}}
	case "HOME":
		h := os.Getenv("HOME")
		return []piece{{s: h, pat: escapeGlob(h)}}
	}
	return []piece{{unknown: true}}
}
