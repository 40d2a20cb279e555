package guard

import (
	"path"
	"strings"

	"github.com/git-adr/git-adr/adr"
	"mvdan.cc/sh/v3/syntax"
)

// narrow finds, for a search refused only because it reaches the ADR
// roots (an agent's `rg TODO` or `git grep TODO` over the whole
// repository, Grep without a path), the same search with the roots left
// out, if the guard allows that one: the request an agent whose hook
// protocol can change a call's input (Claude Code's updatedInput) runs
// instead, and that the refusal names to the others.
//
// Only what can be narrowed without changing anything else is: a Grep
// (or adr_search, OpenCode's grep) with no glob, include or type gets a
// glob excluding the roots; a shell command that is exactly one `rg`
// without paths, or one `git grep` without revisions or pathspecs, and
// nothing else (no pipe, redirection, expansion or second command), gets
// `-g '!/ROOT'` or `-- . ':!ROOT'` appended.
func (p *Policy) narrow(r Request, findings []Finding) (*Request, bool) {
	if p.Scope == nil || len(findings) == 0 {
		return nil, false
	}
	for _, f := range findings {
		if f.Rule != RuleUnscoped {
			return nil, false
		}
	}
	cwd := r.Cwd
	if cwd == "" {
		cwd = p.Top
	}
	var n Request
	switch r.Op {
	case OpSearch:
		if r.Glob != "" || r.Include != "" || r.Type != "" {
			return nil, false
		}
		dir := r.Path
		if dir == "" {
			dir = "."
		}
		subs, ok := p.rootsBelow(cwd, dir)
		if !ok {
			return nil, false
		}
		n = r
		if len(subs) == 1 {
			n.Glob = "!/" + subs[0]
		} else {
			n.Glob = "!/{" + strings.Join(subs, ",") + "}"
		}
	case OpShell:
		cmd, ok := p.narrowCommand(r.Command, cwd)
		if !ok {
			return nil, false
		}
		n = r
		n.Command = cmd
	default:
		return nil, false
	}
	// The narrowed call must be one the guard allows outright.
	if d := p.judge(n); d.Verdict != Allow || len(d.Findings) > 0 {
		return nil, false
	}
	return &n, true
}

// rootsBelow lists the ADR roots below the directory dir (as written in
// cwd), relative to it, when every one is a plain path a glob or a
// pathspec can name exactly.
func (p *Policy) rootsBelow(cwd, dir string) ([]string, bool) {
	base := p.Scope.Locate(cwd, dir)
	if base.Rel == "" || !p.Scope.IsDir(base) {
		return nil, false
	}
	var subs []string
	for _, root := range p.Scope.Roots() {
		rp := root.Path
		if rp == "" {
			rp = "."
		}
		if !within(rp, base.Rel) || rp == base.Rel {
			continue
		}
		sub := rp
		if base.Rel != "." {
			sub = strings.TrimPrefix(rp, base.Rel+"/")
		}
		if sub == "" || strings.ContainsAny(sub, "*?[]{},\\!:'\"\n\t ") || path.Clean(sub) != sub {
			return nil, false
		}
		subs = append(subs, sub)
	}
	return subs, len(subs) > 0
}

// narrowCommand appends to a lone rg or git grep the options that leave
// the roots out.
func (p *Policy) narrowCommand(command, cwd string) (string, bool) {
	f, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(command), "")
	if err != nil || len(f.Stmts) != 1 {
		return "", false
	}
	st := f.Stmts[0]
	ce, ok := st.Cmd.(*syntax.CallExpr)
	if !ok || len(st.Redirs) > 0 || st.Background || st.Coprocess || st.Negated || len(ce.Assigns) > 0 || len(ce.Args) == 0 {
		return "", false
	}
	var words []field
	for _, w := range ce.Args {
		s, ok := plainWord(w)
		if !ok {
			return "", false
		}
		words = append(words, field{s: s})
	}
	subs, ok := p.rootsBelow(cwd, ".")
	if !ok {
		return "", false
	}
	text := strings.TrimRight(command[st.Pos().Offset():st.End().Offset()], " \t\n;")
	switch {
	case words[0].s == "rg":
		opts, ops := parseOpts(words[1:], rgSpec)
		pattern := false
		for _, o := range opts {
			switch o.name {
			case "-e", "-f", "--regexp", "--file":
				pattern = true
			case "--files", "--pre", "--pre-glob", "-z", "--search-zip", "--type-list":
				return "", false
			}
		}
		if !pattern {
			if len(ops) == 0 {
				return "", false
			}
			ops = ops[1:]
		}
		if len(ops) > 0 {
			return "", false // paths given: not a search of the whole tree
		}
		for _, s := range subs {
			text += " -g " + adr.ShellWord("!/"+s)
		}
		return text, true
	case words[0].s == "git" && len(words) > 1 && words[1].s == "grep":
		args := words[2:]
		for _, a := range args {
			if a.s == "--" {
				return "", false
			}
		}
		opts, ops := parseOpts(args, gitGrepSpec)
		pattern := false
		for _, o := range opts {
			switch o.name {
			case "-e", "-f", "--regexp", "--file":
				pattern = true
			case "-O", "--open-files-in-pager", "--no-index", "--untracked", "--recurse-submodules":
				return "", false
			}
		}
		if !pattern {
			if len(ops) == 0 {
				return "", false
			}
			ops = ops[1:]
		}
		if len(ops) > 0 {
			return "", false // revisions or paths given
		}
		text += " -- ."
		for _, s := range subs {
			text += " " + adr.ShellWord(":!"+s)
		}
		return text, true
	}
	return "", false
}

// plainWord is a word without expansions, unquoted.
func plainWord(w *syntax.Word) (string, bool) {
	var b strings.Builder
	for _, part := range w.Parts {
		switch x := part.(type) {
		case *syntax.Lit:
			if strings.ContainsAny(x.Value, "\\*?[{~$`") {
				return "", false
			}
			b.WriteString(x.Value)
		case *syntax.SglQuoted:
			if x.Dollar {
				return "", false
			}
			b.WriteString(x.Value)
		case *syntax.DblQuoted:
			for _, q := range x.Parts {
				l, ok := q.(*syntax.Lit)
				if !ok || strings.ContainsAny(l.Value, "\\$`") {
					return "", false
				}
				b.WriteString(l.Value)
			}
		default:
			return "", false
		}
	}
	return b.String(), true
}
