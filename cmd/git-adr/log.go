package main

import (
	"fmt"
	"sort"
	"strings"

	"github.com/git-adr/git-adr/adr"
	"github.com/git-adr/git-adr/gitops"
	"github.com/urfave/cli/v2"
)

// Trailer keys that tie a commit to a record.
const (
	trailerImplements = "Implements"
	trailerRefs       = "Refs"
)

// recordCommit is one commit of `git adr log`.
type recordCommit struct {
	Commit  string `json:"commit"`
	Date    string `json:"date"`
	Subject string `json:"subject"`
	// Kind is implements (an Implements: trailer), refs (a Refs:
	// trailer) or record (the commit changed the record's file).
	Kind string `json:"kind"`
}

func logCommand(env *Env) *cli.Command {
	var asJSON bool
	var max int
	return &cli.Command{
		Name:      "log",
		Usage:     "list the commits that implement, reference or change a record, newest first",
		ArgsUsage: "ID",
		Description: `A commit is tied to a record by a trailer in git's own syntax:

   Implements: ADR-0012
   Refs: ADR-0012, ADR-0013

(git commit --trailer "Implements: ADR-0012"; the commit-msg hook suggests
one). The commits that changed the record's file are listed too.

Examples:
   git adr log ADR-0012
   git adr log 12 --json`,
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "json", Usage: "print [{commit, date, subject, kind}]", Destination: &asJSON},
			&cli.IntFlag{Name: "max", Value: 100, Usage: "list at most `N` commits (1 to 10000)", Destination: &max},
		},
		Action: func(c *cli.Context) error {
			if c.NArg() != 1 {
				return usagef("log needs one record ID, got %d arguments", c.NArg())
			}
			if max < 1 || max > 10000 {
				return usagef("--max %d is out of range: 1 to 10000", max)
			}
			return runLog(env, c.Args().First(), max, asJSON)
		},
	}
}

func runLog(env *Env, ref string, max int, asJSON bool) error {
	l, err := env.LazyLog()
	if err != nil {
		return err
	}
	if err := env.requireRoots(l); err != nil {
		return err
	}
	rec, err := resolveRecord(env, l, ref)
	if err != nil {
		return err
	}
	r, err := env.Repo()
	if err != nil {
		return err
	}
	commits, err := recordCommits(r, l, rec, max)
	if err != nil {
		return err
	}
	if asJSON {
		return writeJSON(env.Out, commits)
	}
	if len(commits) == 0 {
		fmt.Fprintf(env.Out, "no commit implements, references or changes %s\n", adr.Escape(rec.ID))
		return nil
	}
	for _, c := range commits {
		fmt.Fprintf(env.Out, "%s  %s  %-10s  %s\n", short(c.Commit), c.Date[:min(10, len(c.Date))], c.Kind, adr.Escape(c.Subject))
	}
	return nil
}

// recordCommits finds the commits of HEAD's history tied to rec by a
// trailer, and those that changed its file, newest first.
func recordCommits(r *gitops.Repo, l *adr.Log, rec *adr.Record, max int) ([]recordCommit, error) {
	if _, err := r.Head(); err != nil {
		return []recordCommit{}, nil // no commit yet
	}
	const format = "--format=%H%x00%aI%x00%s%x00%(trailers:key=" + trailerImplements + ",key=" + trailerRefs + ",separator=%x01)%x1e"
	kinds := map[string]string{}
	var order []recordCommit
	add := func(c recordCommit) {
		if k, ok := kinds[c.Commit]; ok {
			if k == "record" && c.Kind != "record" {
				kinds[c.Commit] = c.Kind
				for i := range order {
					if order[i].Commit == c.Commit {
						order[i].Kind = c.Kind
					}
				}
			}
			return
		}
		kinds[c.Commit] = c.Kind
		order = append(order, c)
	}
	// Commits whose message names the number at all, then their trailers
	// read exactly.
	num := fmt.Sprint(rec.Number)
	if !rec.Numbered {
		num = rec.ID
	}
	out, err := r.Git("log", "-E", "-i", "--grep=^("+trailerImplements+"|"+trailerRefs+"):.*"+regexpQuote(num), format, "HEAD")
	if err != nil {
		return nil, err
	}
	for _, c := range parseLogRecords(out) {
		kind := ""
		for _, t := range strings.Split(c.trailers, "\x01") {
			key, val, ok := strings.Cut(strings.TrimSpace(t), ":")
			if !ok {
				continue
			}
			for _, id := range strings.FieldsFunc(val, func(r rune) bool { return r == ',' || r == ' ' || r == ';' }) {
				if got, err := l.Resolve(id); err == nil && got == rec {
					if strings.EqualFold(key, trailerImplements) {
						kind = "implements"
					} else if kind == "" {
						kind = "refs"
					}
				}
			}
		}
		if kind != "" {
			add(recordCommit{Commit: c.hash, Date: c.date, Subject: c.subject, Kind: kind})
		}
	}
	out, err = r.Git("log", "--follow", format, "HEAD", "--", rec.Path)
	if err != nil {
		return nil, err
	}
	for _, c := range parseLogRecords(out) {
		add(recordCommit{Commit: c.hash, Date: c.date, Subject: c.subject, Kind: "record"})
	}
	// Newest first by commit date (ISO 8601 sorts as text).
	sortCommits(order)
	if len(order) > max {
		order = order[:max]
	}
	if order == nil {
		order = []recordCommit{}
	}
	return order, nil
}

type logRecord struct{ hash, date, subject, trailers string }

func parseLogRecords(out []byte) []logRecord {
	var rs []logRecord
	for _, rec := range strings.Split(string(out), "\x1e") {
		f := strings.SplitN(strings.TrimLeft(rec, "\n"), "\x00", 4)
		if len(f) < 3 || len(f[0]) < 40 {
			continue
		}
		lr := logRecord{hash: f[0], date: f[1], subject: f[2]}
		if len(f) == 4 {
			lr.trailers = strings.TrimSpace(f[3])
		}
		rs = append(rs, lr)
	}
	return rs
}

func sortCommits(cs []recordCommit) {
	sort.SliceStable(cs, func(i, j int) bool { return cs[i].Date > cs[j].Date })
}

// regexpQuote escapes s for git's extended regular expressions.
func regexpQuote(s string) string {
	var b strings.Builder
	for _, r := range s {
		if strings.ContainsRune(`\.+*?()|[]{}^$`, r) {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}

// latestImplementation is the newest commit with an Implements: trailer
// for rec ("" when none).
func latestImplementation(r *gitops.Repo, l *adr.Log, rec *adr.Record) *recordCommit {
	cs, err := recordCommits(r, l, rec, 10000)
	if err != nil {
		return nil
	}
	for _, c := range cs {
		if c.Kind == "implements" {
			return &c
		}
	}
	return nil
}
