package main

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/git-adr/git-adr/adr"
	"github.com/git-adr/git-adr/adr/compaction"
	"github.com/git-adr/git-adr/adr/jsonadr"
	"github.com/git-adr/git-adr/gitops"
)

func exportCommand(env *Env) *cli.Command {
	var ids cli.StringSlice
	var output string
	return &cli.Command{
		Name:  "export",
		Usage: "export records as JSON-ADR (joshrotenberg/adrs' interchange format)",
		Subcommands: []*cli.Command{{
			Name:  "json",
			Usage: "print records as a JSON-ADR bulk export (schema/json-adr/v1.json)",
			Description: `Prints every record (live and archived), or those named by --ids, as one
JSON-ADR 1.0.0 document: number, title, status, date, tags, context,
decision, consequences and links, as adrs and other tools read them. What
the schema has no field for travels in its extension object,
custom_sections, under "x-git-adr-" keys: the record's exact bytes, its ID,
root and style, its status and date as written, its own number where
"number" is a stand-in (records without one, or a number another root
already exported), and relations that name no record. ` + "`git adr import json`" + ` of
the export gives every record back byte for byte. See docs/json.md.

Examples:
   git adr export json > decisions.json
   git adr export json --ids 3,ADR-0007
   git adr --root docs/adr export json --output decisions.json`,
			Flags: []cli.Flag{
				&cli.StringSliceFlag{Name: "ids", Usage: "export only the records `ID,...` (repeatable)", Destination: &ids},
				&cli.StringFlag{Name: "output", Usage: "write the document to `FILE` instead of stdout", Destination: &output},
			},
			Action: func(c *cli.Context) error {
				if c.NArg() > 0 {
					return usagef("export json takes no arguments, got %q", c.Args().First()).hint("name records with --ids ID,ID")
				}
				return runExportJSON(env, ids.Value(), output)
			},
		}},
		Action: func(c *cli.Context) error {
			if c.NArg() == 0 {
				return usagef("export needs a format: json").hint("run `git adr export json`")
			}
			return usagef("%q is not an export format", c.Args().First()).hint("the format is json: `git adr export json`")
		},
	}
}

func runExportJSON(env *Env, ids []string, output string) error {
	// Each record's text is read when it is exported, not held from the
	// load on (a first export at 10,000 records held every text).
	l, err := env.LogWithoutTexts()
	if err != nil {
		return err
	}
	if err := env.requireRoots(l); err != nil {
		return err
	}
	recs, err := l.Pick(ids, func(ref string) (*adr.Record, error) { return resolveRecord(env, l, ref) })
	if err != nil {
		return err
	}
	repo, err := env.Repo()
	if err != nil {
		return err
	}
	e := jsonadr.NewExporter(l, recs, jsonadr.ExportOptions{
		Tool:  jsonadr.Tool{Name: "git-adr", Version: buildVersion()},
		Dates: jsonadr.AddedDates(recs, repo.AddedDates),
		Today: today(),
	})
	// One record at a time: the export is written as it is made, never
	// whole in memory beside its records (a file named by -o is, once:
	// it is written as one change).
	if output == "" {
		w := bufio.NewWriterSize(env.Out, 64<<10)
		if err := jsonadr.EncodeEach(w, e.Envelope(), len(recs), e.ADR); err != nil {
			return err
		}
		return w.Flush()
	}
	var b bytes.Buffer
	if err := jsonadr.EncodeEach(&b, e.Envelope(), len(recs), e.ADR); err != nil {
		return err
	}
	if _, err := writeNamedFiles(env, []namedFile{{Path: output, Data: b.Bytes()}}); err != nil {
		return err
	}
	fmt.Fprintf(env.Out, "wrote %d records to %s\n", len(recs), adr.Escape(output))
	return nil
}

type importOptions struct {
	dir      string
	renumber bool
	dryRun   bool
	json     bool
}

func importCommand(env *Env) *cli.Command {
	var o importOptions
	return &cli.Command{
		Name:  "import",
		Usage: "import records from JSON-ADR (joshrotenberg/adrs' interchange format)",
		Subcommands: []*cli.Command{{
			Name:      "json",
			Usage:     "write the records of a JSON-ADR document (FILE, or - for stdin)",
			ArgsUsage: "FILE",
			Description: `Reads a JSON-ADR 1.0.0 document (a bulk export, a single ADR, or a bare ADR
object, as adrs accepts) and writes its records. A record exported by git-adr
is written back byte for byte, at its path; one from another tool (adrs) is
written in adr-tools' layout from its fields, into the first ADR root (or
--dir DIR), named by the root's convention.

Nothing is overwritten: a file that exists with other content, or a number
the root already uses, stops the import before anything is written (a file
that already holds the record is left alone). --renumber gives every
imported record the next free number of its root instead (past every
number on every branch, as new does), in the document's order, rewriting
the title numbers and the links between the imported records. --dry-run
shows what would be written.

Examples:
   git adr import json decisions.json --dry-run
   git adr import json decisions.json
   git adr import json other-team.json --dir docs/adr --renumber`,
			Flags: []cli.Flag{
				&cli.StringFlag{Name: "dir", Usage: "import into ADR root `DIR` (default: each record's own path, else the first root)", Destination: &o.dir},
				&cli.BoolFlag{Name: "renumber", Usage: "give each record the next free number, rewriting links between them", Destination: &o.renumber},
				&cli.BoolFlag{Name: "dry-run", Usage: "show what would be written; write nothing", Destination: &o.dryRun},
				&cli.BoolFlag{Name: "json", Usage: "print {imported, warnings, dry_run} as JSON", Destination: &o.json},
			},
			Action: func(c *cli.Context) error {
				if c.NArg() != 1 {
					return usagef("import json needs one FILE (or - for stdin), got %d arguments", c.NArg()).hint("for example `git adr import json decisions.json --dry-run`")
				}
				return runImportJSON(env, c.Args().First(), o)
			},
		}},
		Action: func(c *cli.Context) error {
			if c.NArg() == 0 {
				return usagef("import needs a format: json").hint("run `git adr import json FILE`")
			}
			return usagef("%q is not an import format", c.Args().First()).hint("the format is json: `git adr import json FILE`")
		},
	}
}

func runImportJSON(env *Env, file string, o importOptions) error {
	var data []byte
	var err error
	if file == "-" {
		data, err = io.ReadAll(io.LimitReader(env.In, 256<<20))
	} else {
		p := file
		if !filepath.IsAbs(p) && env.Dir != "" {
			p = filepath.Join(env.Dir, p)
		}
		data, err = gitops.ReadRegularFile(p)
	}
	if err != nil {
		return usagef("%q cannot be read: %v", file, pathErrReason(err)).hint("name a JSON-ADR file, or - for stdin")
	}
	doc, err := jsonadr.Decode(data)
	if err != nil {
		return usagef("%s is not JSON-ADR 1.0.0: %v", file, err).hint("JSON-ADR is described by schema/json-adr/v1.json of joshrotenberg/adrs; docs/json.md lists the fields")
	}
	if !o.dryRun {
		if err := env.lockWrites(); err != nil {
			return err
		}
	}
	l, err := env.Log()
	if err != nil {
		return err
	}
	if len(l.Roots) == 0 && o.dir == "" {
		if l, err = env.defaultLog(); err != nil {
			return err
		}
	}
	root, err := l.NewRecordRoot(o.dir, "import")
	var ue *adr.UnknownRootError
	if errors.As(err, &ue) {
		return usagef("--dir %q is not an ADR root", o.dir).hint("roots: "+strings.Join(ue.Roots, ", "), "`git adr init --dir DIR` starts one")
	}
	if err != nil {
		return lifecycleErr(err)
	}
	repo, err := env.Repo()
	if err != nil {
		return err
	}
	branches, err := env.branchTrees()
	if err != nil {
		return err
	}
	reserved, err := (&compaction.Store{Repo: repo}).Reservations()
	if err != nil {
		return err
	}
	plan, err := jsonadr.PlanImport(doc, jsonadr.InLog(jsonadr.ImportOptions{Root: root, Into: o.dir != "", Renumber: o.renumber}, l, repo.Top, branches, reserved))
	var ce *jsonadr.ConflictError
	if errors.As(err, &ce) {
		return failf("nothing imported: %s", ce).hint("`git adr import json "+adr.ShellWord(file)+" --renumber` gives the records free numbers", "--dry-run shows where each record would go")
	}
	if err != nil {
		var je *jsonadr.Error
		if errors.As(err, &je) {
			return usagef("%s: %v", file, err)
		}
		return err
	}
	res, changes := plan.Result(o.dryRun)
	if len(changes) > 0 {
		if err := applyChanges(env, changes); err != nil {
			return err
		}
		if err := refreshIndexes(env); err != nil {
			return err
		}
	}
	if o.json {
		return writeJSON(env.Out, res)
	}
	for _, r := range res.Imported {
		num := ""
		if r.To != r.Number && r.To != 0 {
			num = fmt.Sprintf(" (ADR %d -> %d)", r.Number, r.To)
		}
		fmt.Fprintf(env.Out, "%s %s%s\n", r.Status, adr.Escape(env.display(r.Path)), num)
	}
	env.notes(res.Warnings)
	return nil
}
