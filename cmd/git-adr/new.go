package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"strings"
	"time"

	"github.com/git-adr/git-adr/adr"
	"github.com/git-adr/git-adr/adr/compaction"
	"github.com/git-adr/git-adr/gitops"
	"github.com/urfave/cli/v2"
)

type newOptions struct {
	supersedes []string
	links      []string
	status     string
	domains    []string
	style      string
	dir        string
	date       string
	noEdit     bool
	json       bool
}

func newCommand(env *Env) *cli.Command {
	var o newOptions
	return &cli.Command{
		Name:      "new",
		Usage:     "create a record with the next free number",
		ArgsUsage: "TITLE...",
		Description: `Creates a record in the root's style and naming convention and prints its path.
The number is one past every number in use: live and archived records, files
of the directory git-adr does not read (records of another format, such as
0001-purpose.rst), and the same ADR directory on every local and
remote-tracking branch, so two branches do not take the same number.

The log's own template is filled in when it has one (templates/template.md,
adr-template.md, template.md, PLANTILLA.md, 0000-template.md, RFC-0000/), and
the new record writes its number in its title and front matter as the log's
records do ("# 0034 - Title", adr: "0034").

With --supersedes, the new record links the old one and, once the new record
is accepted, the old one is marked superseded with a reciprocal link (a
proposal does not retire an accepted decision until it is accepted). adr-tools'
-s and -l forms work: -l "TARGET:LINK:REVERSE-LINK".

Opens $VISUAL or $EDITOR on the new file when run on a terminal.

Examples:
   git adr new Use PostgreSQL for storage
   git adr new "Use PostgreSQL" -s 2 --status proposed --domain storage
   git adr new "Cache reads" -l "3:Amends:Amended by"`,
		Flags: []cli.Flag{
			&cli.StringSliceFlag{Name: "supersedes", Aliases: []string{"s"}, Usage: "supersede record `ID` (repeatable)"},
			&cli.StringSliceFlag{Name: "link", Aliases: []string{"l"}, Usage: "link `TARGET:LABEL:REVERSE` (repeatable)"},
			&cli.StringFlag{Name: "status", Usage: "initial status `S` (default: accepted for nygard, as adr-tools; proposed otherwise and in strict mode)", Destination: &o.status},
			&cli.StringSliceFlag{Name: "domain", Usage: "tag the record with domain `D` (repeatable)"},
			&cli.StringFlag{Name: "style", Usage: "write in style `S` (nygard, madr, madr2, table, ocp; default: the root's)", Destination: &o.style},
			&cli.StringFlag{Name: "dir", Usage: "create in ADR root `DIR` (default: the first root)", Destination: &o.dir},
			&cli.StringFlag{Name: "date", Usage: "record date `YYYY-MM-DD` (default: $ADR_DATE or today)", Destination: &o.date},
			&cli.BoolFlag{Name: "no-edit", Usage: "do not open an editor", Destination: &o.noEdit},
			&cli.BoolFlag{Name: "json", Usage: "print the new record as JSON", Destination: &o.json},
		},
		Action: func(c *cli.Context) error {
			o.supersedes = c.StringSlice("supersedes")
			o.links = c.StringSlice("link")
			o.domains = c.StringSlice("domain")
			title := strings.TrimSpace(strings.Join(c.Args().Slice(), " "))
			if title == "" {
				return usagef("new needs a title").hint(`run ` + "`git adr new Use PostgreSQL for storage`")
			}
			if adr.HasControl(title) {
				// A newline would start a section of its own; ESC or a bidi
				// override would travel into every listing.
				return usagef("the title %q holds a control character", title).
					hint("write the title on one line without control characters; details go in the record's body")
			}
			return runNew(env, title, o)
		},
	}
}

func validDate(d string) bool {
	_, err := time.Parse("2006-01-02", d)
	return err == nil
}

func runNew(env *Env, title string, o newOptions) error {
	opt := adr.NewOptions{Title: title}
	if o.status != "" {
		st, ok := adr.ParseStatus(o.status)
		if !ok || st == adr.Unknown {
			return usagef("--status %q is not a status", o.status).hint("use one of: proposed, accepted, rejected, deprecated")
		}
		if st == adr.Superseded {
			return usagef("--status superseded: a new record cannot start superseded").hint("create it, then supersede it with `git adr new TITLE --supersedes ID`")
		}
		opt.Status = st
	}
	if o.style != "" {
		s, ok := adr.ParseStyle(o.style)
		if !ok {
			return usagef("--style %q is not a style", o.style).hint("use one of: nygard, madr, madr2, table, ocp")
		}
		opt.Style = s
	}
	opt.Date = o.date
	if opt.Date == "" {
		opt.Date = today()
		if !validDate(opt.Date) {
			return usagef("ADR_DATE %q is not a date", opt.Date).hint("set ADR_DATE=YYYY-MM-DD or unset it")
		}
	} else if !validDate(opt.Date) {
		return usagef("--date %q is not a date", o.date).hint("write it as YYYY-MM-DD")
	}
	for _, d := range o.domains {
		if strings.TrimSpace(d) == "" || strings.ContainsAny(d, ",;|") {
			return usagef("--domain %q is not a domain name", d).hint("pass one domain per --domain flag")
		}
		opt.Domains = append(opt.Domains, strings.ToLower(strings.TrimSpace(d)))
	}
	if err := env.lockWrites(); err != nil {
		return err
	}
	// A new record reads every file name but parses only what it touches.
	l, err := env.LazyLog()
	if err != nil {
		return err
	}
	if len(l.Roots) == 0 && o.dir == "" {
		// adr-tools creates doc/adr on its first `adr new`; so do we.
		if l, err = env.defaultLog(); err != nil {
			return err
		}
		env.notes([]string{"no ADR directory found; creating doc/adr as adr-tools does (`git adr init` configures one)"})
	}
	if err := env.requireRoots(l); err != nil {
		return err
	}
	root, err := newRecordRoot(l, o.dir, "--dir", "new")
	if err != nil {
		return err
	}
	opt.Root = root
	// In strict mode only a signed acceptance commit accepts (pre-push,
	// pre-receive and check --since refuse any other): a new record is a
	// proposal whatever the log's style would make it.
	if l.Config != nil && l.Config.Governance.Strict {
		switch opt.Status {
		case "":
			opt.Status = adr.Proposed
		case adr.Accepted:
			return usagef("--status accepted: in strict mode a record is accepted only by a signed acceptance commit").
				hint("create it as a proposal, then an approver accepts it: `git adr decide ID accept`")
		}
	}
	for _, ref := range o.supersedes {
		r, err := resolveRecord(env, l, ref)
		if err != nil {
			return err
		}
		if err := l.Ensure(r); err != nil {
			return err
		}
		if err := refuseSections("new", r); err != nil {
			return err
		}
		opt.Supersedes = append(opt.Supersedes, r)
	}
	for _, spec := range o.links {
		parts := strings.SplitN(spec, ":", 3)
		if len(parts) != 3 || strings.TrimSpace(parts[1]) == "" || strings.TrimSpace(parts[2]) == "" {
			return usagef("--link %q is not TARGET:LABEL:REVERSE", spec).hint(`for example -l "3:Amends:Amended by"`)
		}
		r, err := resolveRecord(env, l, parts[0])
		if err != nil {
			return err
		}
		if err := l.Ensure(r); err != nil {
			return err
		}
		if err := refuseSections("new", r); err != nil {
			return err
		}
		opt.Links = append(opt.Links, adr.LinkSpec{Target: r, Label: strings.TrimSpace(parts[1]), Reverse: strings.TrimSpace(parts[2])})
	}
	if tmpl, err := projectTemplate(env, root, false); err != nil {
		return err
	} else {
		opt.Template = tmpl
	}
	if opt.Number, err = nextNumber(env, l, root); err != nil {
		return err
	}
	rec, changes, notes, err := l.NewRecord(opt)
	if err != nil {
		return newRecordErr(err)
	}
	if err := applyChanges(env, changes); err != nil {
		return err
	}
	env.notes(notes)
	if !o.noEdit && !o.json && editorWanted(env) {
		// Nobody waits on the lock while a person edits; the INDEX is
		// brought up to date with what they wrote.
		env.unlock()
		if err := openEditor(env, rec.Path); err != nil {
			return err
		}
		if err := env.lockWrites(); err != nil {
			return err
		}
	}
	if err := refreshIndexes(env); err != nil {
		return err
	}
	if o.json {
		return writeJSON(env.Out, rec.Info())
	}
	fmt.Fprintln(env.Out, adr.Escape(env.display(rec.Path)))
	return nil
}

// nextNumber is the number a new record of root takes
// (compaction.Store.NextNumber: past the log, every branch, see
// [Env.branchTrees], and compaction plans' reservations). The caller
// holds the project lock.
func nextNumber(env *Env, l *adr.Log, root *adr.Root) (int, error) {
	branches, err := env.branchTrees()
	if err != nil {
		return 0, err
	}
	return (&compaction.Store{Repo: mustRepo(env)}).NextNumber(l, root, branches)
}

// newRecordErr is the error of [adr.Log.NewRecord] as a command says it.
func newRecordErr(err error) error {
	var ne *adr.NumberError
	if errors.As(err, &ne) {
		return failf("the next record number, %v", err).hint("a branch or a compaction reservation (refs/adr/reservations) holds a number that high; `git adr renumber` it, or delete the reservation")
	}
	return lifecycleErr(err)
}

// projectTemplate finds root's project template (adr.FindTemplate): in
// the repository through the work tree's confinement, and with confined,
// $ADR_TEMPLATE only from inside the repository.
func projectTemplate(env *Env, root *adr.Root, confined bool) (string, error) {
	repo, err := env.Repo()
	if err != nil {
		return "", err
	}
	t, err := adr.FindTemplate(root, adr.TemplateSources{WorkTree: repo.WorktreeFS(), Env: os.Getenv("ADR_TEMPLATE"),
		Confined: confined, Rel: repo.Rel, ReadOutside: gitops.ReadRegularFile})
	var te *adr.TemplateError
	if errors.As(err, &te) {
		return "", usagef("%s", te.Msg).hint(te.Hint)
	}
	return t, err
}

// editorCommand is $VISUAL, else $EDITOR.
func editorCommand() string {
	if v := os.Getenv("VISUAL"); v != "" {
		return v
	}
	return os.Getenv("EDITOR")
}

// editorWanted reports whether `new` will open an editor.
func editorWanted(env *Env) bool { return editorCommand() != "" && env.interactive() }

// pathErrReason is an error without the operation and path a
// *fs.PathError repeats (the message names the path already).
func pathErrReason(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// newRecordRoot is the root a new record of command op is written in
// (adr.Log.NewRecordRoot); field names the option that chose dir.
func newRecordRoot(l *adr.Log, dir, field, op string) (*adr.Root, error) {
	root, err := l.NewRecordRoot(dir, op)
	var ue *adr.UnknownRootError
	if errors.As(err, &ue) {
		return nil, usagef("%s %q is not an ADR root", field, dir).hint("roots: " + strings.Join(ue.Roots, ", "))
	}
	if err != nil {
		return nil, lifecycleErr(err)
	}
	return root, nil
}

// refusedRoot is the error for a command that would write into a root the
// log refused to read.
func refusedRoot(root *adr.Root) error {
	return failf("%v", &adr.RefusedRootError{Root: root}).
		hint("replace "+root.Dir()+" with a directory inside the repository, or name another root with --dir",
			"`git adr roots` lists the roots and why one is refused")
}

// openEditor runs $VISUAL or $EDITOR on the file when git-adr runs on a
// terminal, as adr-tools does.
func openEditor(env *Env, rel string) error {
	editor := editorCommand()
	if editor == "" || !env.interactive() {
		return nil
	}
	repo, err := env.Repo()
	if err != nil {
		return err
	}
	cmd := exec.Command("sh", "-c", editor+` "$@"`, editor, repo.Abs(rel))
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	if err := cmd.Run(); err != nil {
		return failf("editor %q failed: %v", editor, err).hint("the record was created; edit " + env.display(rel) + " by hand")
	}
	return nil
}
