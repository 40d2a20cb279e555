package adrtools

import (
	"path"
	"sort"
	"strings"
)

// helpTexts are the help of each command, in adr-tools' layout (a usage
// line, a blank line, a description). The wording is git-adr's own.
var helpTexts = map[string]string{
	"config": "",
	"generate": `usage: adr generate [REPORT [OPTION ...]]

Prints a report about the decision records on stdout, to feed into the tool
chain that publishes a project's documentation.

Run ` + "`adr generate`" + ` alone to list the reports, and
` + "`adr help generate REPORT`" + ` for the options of one.

For example, a table of contents:

    adr generate toc
`,
	"help": `usage: adr help [COMMAND [SUBCOMMAND...]]

Shows the help of a command or subcommand, or the list of commands when
none is named. The text goes through $ADR_PAGER, else $PAGER, else more.
`,
	"init": `usage: adr init [DIRECTORY]

Starts a log of architecture decision records: creates DIRECTORY (default
doc/adr; another one is remembered in .adr-dir) and its first record,
the decision to record architectural decisions.
`,
	"link": `usage: adr link SOURCE LINK TARGET REVERSE-LINK

Links two records both ways: "LINK TARGET" goes into the Status section of
SOURCE and "REVERSE-LINK SOURCE" into that of TARGET. SOURCE and TARGET are
record numbers or parts of file names.

For example, record 12 amends record 10:

    adr link 12 Amends 10 "Amended by"
`,
	"list": `usage: adr list

Prints the path of every decision record, in order.
`,
	"new": `usage: adr new [-s SUPERCEDED] [-l TARGET:LINK:REVERSE-LINK] TITLE_TEXT...

Creates the next numbered record; its title is TITLE_TEXT, words joined by
spaces. The record is opened in $VISUAL, else $EDITOR, and its path is then
printed on stdout, so scripts can use it.

The template is $ADR_TEMPLATE, else templates/template.md in the ADR
directory, else template.md beside adr, else Michael Nygard's layout:

  http://thinkrelevance.com/blog/2011/11/15/documenting-architecture-decisions

Options:

-s SUPERCEDED   Supersedes the record SUPERCEDED (a number or part of a
                file name): the new record links to it, and its status
                becomes a link back to the new record.

-l TARGET:LINK:REVERSE-LINK
                Links the new record to record TARGET: LINK in the new
                record, REVERSE-LINK in TARGET.

Both options may be repeated.

For example:

    adr new Use MySQL Database
    adr new -s 12 Use PostgreSQL Database
    adr new -s 3 -s 4 -l "5:Amends:Amended by" Use Riak CRDTs to cope with scale
`,
	"upgrade-repository": `usage: adr upgrade-repository

Brings the records up to the current format: dates written DD/MM/YYYY
become YYYY-MM-DD.
`,
	"generate_toc": `usage: adr generate toc [-i INTRO] [-o OUTRO] [-p LINK_PREFIX]

Prints a Markdown table of contents of the records.

Options:

-i INTRO  put the Markdown file INTRO before the list.
-o OUTRO  put the Markdown file OUTRO after the list.
-p LINK_PREFIX
          put LINK_PREFIX before each record's link.
`,
	"generate_graph": `usage: adr generate graph [-p LINK_PREFIX] [-e LINK-EXTENSION]

Prints the links between records as a Graphviz graph; each node links to
its record's document.

Options:

-e LINK-EXTENSION
        the extension of the documents the nodes link to (default .html).

-p LINK_PREFIX
        put LINK_PREFIX before each node's link.

For example, an SVG picture:

    adr generate graph | dot -Tsvg > graph.svg
`,
}

// help is _adr_help [COMMAND [SUBCOMMAND...]].
func (t *Tool) help(args []string) string {
	key := strings.Join(args, "_")
	text, ok := helpTexts[key]
	if len(args) > 1 {
		// A subcommand is helped by its helper script; any script
		// starting "_adr_<words>" would do in adr-tools.
		ok = ok || contains(helpers, "_adr_"+key)
	}
	if len(args) == 0 || args[0] == "" || !ok {
		var b strings.Builder
		b.WriteString("usage: adr help COMMAND [ARG] ...\nCOMMAND is one of: \n")
		for _, c := range Commands {
			b.WriteString("  " + c + "\n")
		}
		b.WriteString("Run 'adr help COMMAND' for help on a specific command.\n")
		return b.String()
	}
	var b strings.Builder
	b.WriteString(text)
	if subs := subcommands(args[0]); len(subs) > 0 {
		b.WriteString("\nSubcommands:\n")
		for _, s := range subs {
			b.WriteString("  adr " + args[0] + " " + s + "\n")
		}
	}
	return b.String()
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// subcommands globs the helpers for "_adr_CMD_*" and cuts the prefix
// off, as adr-tools' help and autocompletion do (so `help` has the
// subcommand `new`, from _adr_help_new).
func subcommands(cmd string) []string {
	var out []string
	for _, h := range helpers {
		if ok, _ := path.Match("_adr_"+cmd+"_*", h); ok {
			cut := len(cmd) + 6
			if cut > len(h) {
				cut = len(h)
			}
			out = append(out, h[cut:])
		}
	}
	sort.Strings(out)
	return out
}

// Autocomplete is _adr_autocomplete WORDS...: the completions of the last
// word typed after `adr`, on one line.
func Autocomplete(words []string) string {
	arg := func(i int) string {
		if i < len(words) {
			return words[i]
		}
		return ""
	}
	if len(words) <= 2 {
		cur := arg(1)
		s := compgen(Commands, cur)
		if first(s) != cur {
			return strings.Join(s, " ") + "\n"
		}
	}
	subs := subcommands(arg(1))
	if len(subs) > 0 {
		cur := arg(2)
		s := compgen(subs, cur)
		if first(s) != cur {
			return strings.Join(s, " ") + "\n"
		}
	}
	return ""
}

func compgen(words []string, prefix string) []string {
	var out []string
	for _, w := range words {
		if strings.HasPrefix(w, prefix) {
			out = append(out, w)
		}
	}
	return out
}

func first(s []string) string {
	if len(s) == 0 {
		return ""
	}
	return s[0]
}
