package main

import (
	"fmt"

	"github.com/git-adr/git-adr/adr"
	"github.com/git-adr/git-adr/workspace"
)

// runWorkspaceCheck is `git adr check` across a workspace: the findings
// only a workspace can see (each repository's own check runs in it).
func runWorkspaceCheck(env *Env, o checkOptions) error {
	if o.since != "" || o.compaction || o.format == "github" || o.format == "codequality" {
		return usagef("across a workspace, check takes --json and --format markdown only").hint("run `git adr check` in a repository for --since, --compaction and the --format of its CI annotations")
	}
	ws, err := env.workspace()
	if err != nil {
		return err
	}
	fs, err := ws.Check()
	if err != nil {
		return wsErr(err)
	}
	env.wsSkips = nil // each is a finding (repository-not-read), not a warning
	if o.json {
		if fs == nil {
			fs = []workspace.Finding{}
		}
		if err := writeJSON(env.Out, struct {
			Findings []workspace.Finding `json:"findings"`
		}{fs}); err != nil {
			return err
		}
	} else if o.format == "markdown" {
		writeWorkspaceCheckMarkdown(env, env.Workspace, len(ws.Members), fs)
	} else {
		w := bulkWriter(env.Out)
		for _, f := range fs {
			if f.Path == "" { // the repository itself (repository-not-read)
				fmt.Fprintf(w, "%s: %s: %s\n  fix: %s\n", adr.Escape(f.Repository), f.Kind, adr.Escape(f.Message), adr.Escape(f.Fix))
				continue
			}
			fmt.Fprintf(w, "%s:%s:%d: %s: %s\n  fix: %s\n", adr.Escape(f.Repository), adr.Escape(f.Path), f.Line, f.Kind, adr.Escape(f.Message), adr.Escape(f.Fix))
		}
		if err := w.Flush(); err != nil {
			return err
		}
	}
	switch len(fs) {
	case 0:
		fmt.Fprintln(env.Err, "0 findings across the workspace")
		return nil
	case 1:
		fmt.Fprintln(env.Err, "1 finding across the workspace")
	default:
		fmt.Fprintf(env.Err, "%d findings across the workspace\n", len(fs))
	}
	return silentExit(ExitFailure)
}

// writeWorkspaceCheckMarkdown prints the findings across a workspace as a
// table, for a CI job's summary (a nightly check of an organisation's
// repositories: docs/integrations/ci/github-actions-workspace.yml).
func writeWorkspaceCheckMarkdown(env *Env, file string, members int, fs []workspace.Finding) {
	w := bulkWriter(env.Out)
	defer w.Flush()
	fmt.Fprintf(w, "## git adr check across %s\n\n", adr.EscapeCell(file))
	if len(fs) == 0 {
		fmt.Fprintf(w, "No findings across %s.\n", repositories(members))
		return
	}
	fmt.Fprintf(w, "%d finding(s) across %s.\n\n| repository | file | kind | problem | fix |\n| --- | --- | --- | --- | --- |\n", len(fs), repositories(members))
	for _, f := range fs {
		loc := f.Path
		if f.Line > 0 {
			loc = fmt.Sprintf("%s:%d", f.Path, f.Line)
		}
		fmt.Fprintf(w, "| %s | %s | %s | %s | %s |\n", adr.EscapeCell(f.Repository), adr.EscapeCell(loc), f.Kind, adr.EscapeCell(f.Message), adr.EscapeCell(f.Fix))
	}
}
