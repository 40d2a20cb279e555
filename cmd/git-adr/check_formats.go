package main

import (
	"fmt"
	"strings"

	"github.com/git-adr/git-adr/adr"
)

// Check's findings in the forms CI systems show on a pull request:
// GitHub Actions annotations (here) and a GitLab code quality report
// (audit.CodeQuality).

// githubData escapes a workflow command's message as the Actions
// toolkit does: a finding's text can neither end the command nor start
// another on a line of its own.
var githubData = strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A")

// githubProperty escapes a workflow command's property value (a file
// name may hold "," or ":").
var githubProperty = strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C")

// writeCheckGitHub prints one annotation per finding, `::error
// file=PATH,line=N,title=KIND::MESSAGE` (`::warning` for a warning), with
// the fix on the message's second line: GitHub shows each on the pull
// request's changed files and in the job's summary.
func writeCheckGitHub(env *Env, rep *adr.CheckReport) error {
	w := bulkWriter(env.Out)
	for _, f := range rep.Findings {
		level := "error"
		if f.Warning {
			level = "warning"
		}
		props := "file=" + githubProperty.Replace(f.Path)
		if f.Line > 0 {
			props += fmt.Sprintf(",line=%d", f.Line)
		}
		props += ",title=" + githubProperty.Replace(string(f.Kind))
		msg := adr.Escape(f.Message) + "\nfix: " + adr.Escape(f.Fix)
		fmt.Fprintf(w, "::%s %s::%s\n", level, props, githubData.Replace(msg))
	}
	return w.Flush()
}
