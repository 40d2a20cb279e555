package main

import (
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/git-adr/git-adr/adr"
	"github.com/git-adr/git-adr/adr/ledger"
	"github.com/git-adr/git-adr/gitops"
	"github.com/git-adr/git-adr/internal/gcpolicy"
	"github.com/git-adr/git-adr/workspace"
	"github.com/urfave/cli/v2"
)

func workspaceCommand(env *Env) *cli.Command {
	file := func(c *cli.Context) error {
		if c.NArg() > 1 {
			return usagef("workspace %s takes at most one FILE, got %d arguments", c.Command.Name, c.NArg())
		}
		if c.NArg() == 1 {
			env.Workspace = c.Args().First()
		}
		env.acrossWorkspace(true) // the workspace's own commands take the variable
		return nil
	}
	return &cli.Command{
		Name:  "workspace",
		Usage: "the repositories of a workspace: write its file, add to it, remove from it, sync mirrors, list them, prune them, export their records",
		Description: `A workspace file (TOML) names repositories by local path or by remote URL and
ref; with --workspace FILE list, show, context, check, index, graph and mcp
answer across all of them, with qualified IDs (payments:ADR-0012).
GIT_ADR_WORKSPACE names the file for all of them but check, which checks the
current repository unless --workspace is given. See docs/workspace.md.

Examples:
   git adr workspace init ~/src
   git adr workspace sync adr-workspace.toml
   git adr --workspace adr-workspace.toml context --task "retry failed payments"
   git adr workspace export adr-workspace.toml > records.jsonl`,
		Subcommands: []*cli.Command{
			{
				Name: "sync", Usage: "fetch every remote repository into its mirror (incremental) and check the local ones", ArgsUsage: "[FILE]",
				Flags: []cli.Flag{
					&cli.BoolFlag{Name: "json", Usage: "print JSON (docs/commands/workspace.md gives its fields)"},
					&cli.IntFlag{Name: "jobs", Aliases: []string{"j"}, Value: workspace.DefaultSyncJobs, Usage: fmt.Sprintf("fetch `N` repositories at once (1 to %d)", workspace.MaxSyncJobs)},
				},
				Action: func(c *cli.Context) error {
					if err := file(c); err != nil {
						return err
					}
					if j := c.Int("jobs"); j < 1 || j > workspace.MaxSyncJobs {
						return usagef("--jobs %d: fetch 1 to %d repositories at once", j, workspace.MaxSyncJobs)
					}
					return runWorkspaceSync(env, c.Int("jobs"), c.Bool("json"))
				},
			},
			{
				Name: "ls", Usage: "list the repositories: name, records, what is read, source", ArgsUsage: "[FILE]",
				Flags: []cli.Flag{&cli.BoolFlag{Name: "json", Usage: "print JSON (docs/commands/workspace.md gives its fields)"}},
				Action: func(c *cli.Context) error {
					if err := file(c); err != nil {
						return err
					}
					return runWorkspaceLs(env, c.Bool("json"))
				},
			},
			workspaceInitCommand(env),
			workspaceAddCommand(env),
			workspaceRemoveCommand(env),
			workspacePruneCommand(env, file),
			{
				Name: "export", Usage: "print every record as JSON Lines (schema " + workspace.ExportSchema + ") for a bulk indexer", ArgsUsage: "[FILE]",
				Action: func(c *cli.Context) error {
					if err := file(c); err != nil {
						return err
					}
					ws, err := env.workspace()
					if err != nil {
						return err
					}
					if _, err = ws.Export(env.Out); err != nil {
						return wsErr(err)
					}
					// A bulk indexer must not take a partial export for
					// the whole: the records written are whole, the exit
					// says some repositories are missing.
					if len(env.wsSkips.List(ws)) > 0 {
						return silentExit(ExitFailure)
					}
					return nil
				},
			},
		},
	}
}

// acrossWorkspace reports whether the command runs across a workspace:
// --workspace names one, or, for a command that asks with fromEnv,
// GIT_ADR_WORKSPACE does. Only the read commands ask with fromEnv (list,
// show, context, index, graph, mcp), so the variable never reaches a
// command that does not ask: a hook or a CI job that exports it still
// checks, writes and guards its own repository, and a check across the
// workspace needs the flag itself.
func (e *Env) acrossWorkspace(fromEnv bool) bool {
	if e.Workspace == "" && fromEnv {
		e.Workspace = os.Getenv(workspace.EnvVar)
	}
	return e.Workspace != ""
}

// workspace loads the --workspace file once.
func (e *Env) workspace() (*workspace.Workspace, error) {
	if e.ws != nil {
		return e.ws, nil
	}
	// A workspace command reads many repositories and holds little of
	// each: collected at the default pace it collects all the time.
	gcpolicy.Floor()
	if e.Workspace == "" {
		return nil, usagef("no workspace file named").hint("pass --workspace FILE (or set " + workspace.EnvVar + "), or name the FILE after the command")
	}
	ws, err := workspace.Load(e.underDir(e.Workspace), "")
	if err != nil {
		return nil, wsErr(err)
	}
	// A repository that is not synced or not cloned here is left out of
	// an answer across the others, and named when the command ends.
	e.ws, e.wsSkips = ws.Reading()
	return e.ws, nil
}

// underDir is p as the command reads it: relative to -C DIR when given.
func (e *Env) underDir(p string) string {
	if e.Dir != "" && !filepath.IsAbs(p) {
		return filepath.Join(e.Dir, p)
	}
	return p
}

// wsMemberJSON is a repository as the workspace commands' JSON names it:
// as its file does (a URL's password, and an http(s) URL's user, masked).
type wsMemberJSON struct {
	Name string `json:"name"`
	Path string `json:"path,omitempty"`
	URL  string `json:"url,omitempty"`
	Ref  string `json:"ref,omitempty"`
}

func memberJSON(m *workspace.Member) wsMemberJSON {
	return wsMemberJSON{Name: m.Name, Path: m.Given, URL: m.ShownURL(), Ref: m.Ref}
}

// maxNamedUnavailable bounds the repositories a warning names one by one.
const maxNamedUnavailable = 10

// unavailableNames names the repositories left out with their reasons,
// the first maxNamedUnavailable of them, and counts the rest.
func unavailableNames(list []workspace.Unavailable) string {
	var names []string
	for i, u := range list {
		if i == maxNamedUnavailable {
			names = append(names, fmt.Sprintf("and %d more", len(list)-i))
			break
		}
		names = append(names, fmt.Sprintf("%s (%s)", u.Member.Name, u.Reason()))
	}
	return strings.Join(names, ", ")
}

// warnUnavailable prints, when the command read a workspace, the
// repositories it went on without and how to make them readable: what
// it printed is then from the others.
func (e *Env) warnUnavailable() {
	if e.wsSkips == nil {
		return
	}
	list := e.wsSkips.List(e.ws)
	if len(list) == 0 || len(list) == len(e.ws.Members) {
		return // none was read: the command failed, saying why
	}
	synced, cloned := false, false
	for _, u := range list {
		if errors.Is(u.Err, workspace.ErrNotSynced) {
			synced = true
		} else {
			cloned = true
		}
	}
	fmt.Fprintf(e.Err, "git-adr: warning: %d of %d repositories not read: %s\n",
		len(list), len(e.ws.Members), adr.EscapeBody(unavailableNames(list)))
	if synced {
		fmt.Fprintln(e.Err, "hint: run `git adr workspace sync` to fetch what is not synced (`git adr workspace ls` shows each repository's state)")
	}
	if cloned {
		fmt.Fprintln(e.Err, "hint: clone what is missing here, or fix its path in the workspace file")
	}
}

// wsErr words the workspace's errors for people: what is wrong, then the
// command that helps.
func wsErr(err error) error {
	if err == nil {
		return nil
	}
	var we *workspace.Error
	if errors.As(err, &we) {
		return usagef("%v", err).hint(we.Hint)
	}
	var um *workspace.UnknownMemberError
	if errors.As(err, &um) {
		return usagef("%v", err).hint("its repositories are: "+strings.Join(um.Names, ", "), "run `git adr workspace ls` to see them")
	}
	var amb *workspace.AmbiguousError
	if errors.As(err, &amb) {
		e := usagef("%v", err)
		for i, c := range amb.Candidates {
			if i == maxCandidates {
				e.hint(fmt.Sprintf("and %d more", len(amb.Candidates)-i))
				break
			}
			e.hint("one is " + c)
		}
		return e.hint("name one with its repository, for example `" + amb.Candidates[0] + "`")
	}
	if errors.Is(err, workspace.ErrNotSynced) {
		return failf("%v", err).hint("run `git adr workspace sync` to fetch it")
	}
	if errors.Is(err, workspace.ErrNoPath) {
		return failf("%v", err).hint("clone the repository there, or fix its path in the workspace file (relative to it)")
	}
	if errors.Is(err, workspace.ErrNotRepository) {
		return failf("%v", err).hint("clone or `git init` the repository there, or fix its path in the workspace file")
	}
	if errors.Is(err, workspace.ErrBadRef) {
		return failf("%v", err).hint("fix its ref in the workspace file (a branch, a tag or a full ref the repository has)")
	}
	var le *gitops.LockError
	if errors.As(err, &le) && (le.Unreadable || le.Unverifiable) {
		// A mirror's lock: `git adr recover` acts on the current
		// repository, not on a mirror.
		return withCode(ExitConflict, err).hint(fmt.Sprintf("if no `git adr workspace sync` of this mirror is running, remove the lock: `rm %s`", le.Path))
	}
	if errors.As(err, &le) {
		return lockErr(err)
	}
	var mc *gitops.MirrorError
	if errors.As(err, &mc) {
		return failf("%v", err).hint(fmt.Sprintf("the mirror is a cache: remove it and sync again, `rm -rf %s && git adr workspace sync`", mc.Dir))
	}
	var se *workspace.SyncError
	var ge *gitops.GitError
	if errors.As(err, &se) && errors.As(err, &ge) && slices.Contains(ge.Args, "fetch") {
		return fetchFailed(se.Member, ge)
	}
	return err
}

// fetchFailed says that git could not fetch a member, with what git said
// (its last lines: a remote's messages come first, git's verdict last).
func fetchFailed(m *workspace.Member, ge *gitops.GitError) error {
	url := m.ShownURL() // credentials masked, here and in what git said
	e := failf("repo %q: git could not fetch %s (exit %d)", m.Name, url, ge.Code)
	lines := strings.FieldsFunc(strings.ReplaceAll(ge.Stderr, m.URL, url), func(r rune) bool { return r == '\n' || r == '\r' })
	if len(lines) > maxGitLines {
		e.hint(fmt.Sprintf("git said (the last %d of %d lines):", maxGitLines, len(lines)))
		lines = lines[len(lines)-maxGitLines:]
	} else if len(lines) > 0 {
		e.hint("git said:")
	}
	for _, l := range lines {
		e.hint("  " + strings.TrimSpace(strings.ReplaceAll(l, "\x00", "")))
	}
	check := fmt.Sprintf("check the URL and your access with `git ls-remote %s %s`", url, cmp.Or(m.Ref, "HEAD"))
	if url != m.URL {
		check += " (with the credentials the workspace file holds)"
	}
	return e.hint(check + ", then run `git adr workspace sync` again")
}

// maxGitLines bounds the lines of git's own output a failed fetch shows.
const maxGitLines = 6

// wsSyncJSON is one repository of `workspace sync --json`.
type wsSyncJSON struct {
	Name string `json:"name"`
	// Result is fetched (a first fetch), updated, unchanged, local or
	// failed.
	Result string `json:"result"`
	Before string `json:"before,omitempty"`
	After  string `json:"after,omitempty"`
	Error  string `json:"error,omitempty"`
	// Hints are the next steps the error names, as on stderr.
	Hints []string `json:"hints,omitempty"`
}

func runWorkspaceSync(env *Env, jobs int, asJSON bool) error {
	ws, err := env.workspace()
	if err != nil {
		return err
	}
	progress, done := terminalProgress(env.Err, "syncing repositories")
	results := ws.Sync(env.command, jobs, progress)
	done()
	var failed []string
	out := make([]wsSyncJSON, 0, len(results))
	for _, r := range results {
		name := adr.Escape(r.Member.Name)
		row := wsSyncJSON{Name: r.Member.Name, Before: r.Before, After: r.After}
		switch {
		case r.Err != nil:
			row.Result = "failed"
			failed = append(failed, r.Member.Name)
			werr := wsErr(r.Err)
			row.Error = werr.Error()
			fmt.Fprintf(env.Err, "git-adr: error: %s\n", adr.Escape(werr.Error()))
			var ce *cmdError
			if errors.As(werr, &ce) {
				row.Hints = ce.hints
				for _, h := range ce.hints {
					fmt.Fprintf(env.Err, "hint: %s\n", adr.EscapeBody(h))
				}
			}
		case r.Local:
			row.Result = "local"
		case r.Before == "":
			row.Result = "fetched"
		case r.Before == r.After:
			row.Result = "unchanged"
		default:
			row.Result = "updated"
		}
		out = append(out, row)
		switch {
		case asJSON || r.Err != nil:
		case r.Local && r.After == "":
			fmt.Fprintf(env.Out, "%s: local, read from its work tree\n", name)
		case r.Local:
			fmt.Fprintf(env.Out, "%s: local, read at %s\n", name, short(r.After))
		case r.Before == "":
			fmt.Fprintf(env.Out, "%s: fetched %s\n", name, short(r.After))
		case r.Before == r.After:
			fmt.Fprintf(env.Out, "%s: up to date at %s\n", name, short(r.After))
		default:
			fmt.Fprintf(env.Out, "%s: %s..%s\n", name, short(r.Before), short(r.After))
		}
	}
	if asJSON {
		if err := writeJSON(env.Out, out); err != nil {
			return err
		}
	}
	if len(failed) > 0 {
		return silentExit(ExitFailure)
	}
	return nil
}

// wsLsJSON is one repository of `workspace ls --json`.
type wsLsJSON struct {
	wsMemberJSON
	// Records counts its records when it could be read.
	Records int `json:"records"`
	// Commit is the commit read; absent for a work tree.
	Commit string `json:"commit,omitempty"`
	// Unavailable says why a repository every read goes on without is
	// not read (not synced yet, no such path, not a git repository), as
	// a workspace answer's JSON says it; Error is any other failure.
	Unavailable string `json:"unavailable,omitempty"`
	Error       string `json:"error,omitempty"`
}

func runWorkspaceLs(env *Env, asJSON bool) error {
	ws, err := env.workspace()
	if err != nil {
		return err
	}
	statuses := ws.Status()
	if asJSON {
		out := make([]wsLsJSON, 0, len(statuses))
		for _, st := range statuses {
			row := wsLsJSON{wsMemberJSON: memberJSON(st.Member), Records: st.Records, Commit: st.Commit}
			if row.Unavailable = workspace.UnavailableReason(st.Err); row.Unavailable == "" && st.Err != nil {
				row.Error = st.Err.Error()
			}
			out = append(out, row)
		}
		return writeJSON(env.Out, out)
	}
	rows := make([][4]string, 0, len(ws.Members))
	for _, st := range statuses {
		records, read := "-", "work tree"
		switch {
		case workspace.UnavailableReason(st.Err) != "":
			// The words a warning and the JSON use: not synced yet, no
			// such path, not a git repository.
			read = workspace.UnavailableReason(st.Err)
		case st.Err != nil:
			read = "error: " + st.Err.Error()
		default:
			records = fmt.Sprint(st.Records)
			if st.Commit != "" {
				read = short(st.Commit)
			}
		}
		rows = append(rows, [4]string{adr.Escape(st.Member.Name), records, adr.Escape(read), adr.Escape(st.Member.Source())})
	}
	bw := bulkWriter(env.Out)
	writeColumns(bw, rows)
	return bw.Flush()
}

// wsRecordJSON is a record of `list --json` in a workspace: the record as
// in one repository, with its repository and qualified ID.
type wsRecordJSON struct {
	Repository  string `json:"repository"`
	QualifiedID string `json:"qualified_id"`
	adr.RecordInfo
}

// runWorkspaceList is `git adr list` across a workspace: one member's log
// at a time, IDs qualified.
func runWorkspaceList(env *Env, o listOptions, want adr.Status) error {
	ws, err := env.workspace()
	if err != nil {
		return err
	}
	bw := bulkWriter(env.Out)
	var rows [][4]string
	n := 0
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetIndent("  ", "  ")
	enc.SetEscapeHTML(false)
	if o.json {
		bw.WriteString("[")
	}
	// Read whole, one repository at a time: through the parse cache
	// that is faster than a lazy load that parses each record on demand.
	err = ws.Each(false, func(ld *workspace.Loaded) error {
		l := ld.Log
		for _, r := range l.Records {
			if want != "" && r.Status != want || o.domain != "" && !r.InDomain(o.domain) {
				continue
			}
			qid := workspace.Qualify(ld.Member.Name, r.ID)
			if o.json {
				if n > 0 {
					bw.WriteString(",")
				}
				bw.WriteString("\n  ")
				buf.Reset()
				if err := enc.Encode(wsRecordJSON{ld.Member.Name, qid, r.Info()}); err != nil {
					return err
				}
				bw.Write(bytes.TrimSuffix(buf.Bytes(), []byte("\n")))
				n++
				continue
			}
			if r.Archived && !o.archived {
				continue
			}
			date, title := r.Date, r.Title
			if date == "" {
				date = "-"
			}
			if r.Archived {
				title += " (archived)"
			}
			rows = append(rows, [4]string{adr.Escape(qid), string(r.Status), adr.Escape(date), adr.Escape(title)})
		}
		// Each repository's rows are aligned among themselves and
		// written before the next repository is read: one repository's
		// long IDs (log4brains' slugs) do not widen every other's
		// columns, and no member's strings (views of its parse cache)
		// outlive its turn.
		writeColumns(bw, rows)
		clear(rows)
		rows = rows[:0]
		return nil
	})
	if err != nil {
		return wsErr(err)
	}
	if o.json {
		if n > 0 {
			bw.WriteString("\n")
		}
		bw.WriteString("]\n")
	}
	return bw.Flush()
}

// runWorkspaceShow is `git adr show` across a workspace: a qualified ID
// reads its repository only; an unqualified one must name one record of
// all the workspace's.
func runWorkspaceShow(env *Env, ref string, asJSON bool) error {
	ws, err := env.workspace()
	if err != nil {
		return err
	}
	f, err := ws.Find(ref)
	if err != nil {
		var amb *adr.AmbiguousError
		switch {
		case errors.As(err, &amb):
			e := usagef("%q names %d records", ref, len(amb.Candidates))
			for _, c := range amb.Candidates {
				e.hint(fmt.Sprintf("%s is %s", c.ID, c.Locus()))
			}
			return e
		case adr.IsNotFound(err):
			return usagef("no record %q in the workspace", ref).hint("run `git adr list` with the same --workspace to see qualified IDs")
		}
		return wsErr(err)
	}
	defer f.Close()
	return printRecord(env, f.Record, ref, f.Member.Name, ledger.LatestImplementation(f.Repo, f.Log, f.Record), asJSON)
}

// runWorkspaceIndex prints one index of every repository: nothing is
// written into the repositories (a mirror has no work tree, and another
// team's INDEX.md is theirs).
func runWorkspaceIndex(env *Env, o indexOptions) error {
	if o.check || o.json || o.output != "" || o.intro != "" || o.outro != "" || o.prefix != "" {
		return usagef("across a workspace, index prints one index to standard output and takes no flags").
			hint("redirect it: `git adr --workspace FILE index > DECISIONS.md`")
	}
	ws, err := env.workspace()
	if err != nil {
		return err
	}
	return wsErr(ws.Index(env.Out))
}

// runWorkspaceGraph is `git adr graph` across a workspace: every
// repository's graph, qualified, and the qualified IDs records name in
// other repositories as relates-to edges.
func runWorkspaceGraph(env *Env, o graphOptions, opt adr.GraphOptions) error {
	ws, err := env.workspace()
	if err != nil {
		return err
	}
	g, err := ws.Graph(opt)
	if err != nil {
		return wsErr(err)
	}
	switch {
	case o.json:
		return writeJSON(env.Out, g)
	case o.format == "mermaid":
		_, err = fmt.Fprint(env.Out, g.Mermaid())
	default:
		_, err = fmt.Fprint(env.Out, g.DOT())
	}
	return err
}
