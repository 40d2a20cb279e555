package main

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strings"

	"github.com/git-adr/git-adr/adr"
)

// Check's findings in the forms CI systems show on a pull request:
// GitHub Actions annotations and a GitLab code quality report.

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

// codeQualityIssue is one entry of a GitLab code quality report (the
// Code Climate issue subset GitLab reads).
type codeQualityIssue struct {
	Description string              `json:"description"`
	CheckName   string              `json:"check_name"`
	Fingerprint string              `json:"fingerprint"`
	Severity    string              `json:"severity"`
	Location    codeQualityLocation `json:"location"`
}

type codeQualityLocation struct {
	Path  string           `json:"path"`
	Lines codeQualityLines `json:"lines"`
}

type codeQualityLines struct {
	Begin int `json:"begin"`
}

// codeQuality is the report GitLab shows in a merge request's widget: a
// finding is "major", a warning "minor"; a finding about a whole file is
// on its first line. The fingerprint, which GitLab compares across
// pipelines, is a hash of what the finding is (kind, file, records,
// message), made unique within the report.
func codeQuality(rep *adr.CheckReport) []codeQualityIssue {
	out := make([]codeQualityIssue, 0, len(rep.Findings))
	seen := map[string]int{}
	for _, f := range rep.Findings {
		sev := "major"
		if f.Warning {
			sev = "minor"
		}
		sum := sha256.Sum256([]byte(string(f.Kind) + "\x00" + f.Path + "\x00" + strings.Join(f.IDs, "\x01") + "\x00" + f.Message))
		fp := hex.EncodeToString(sum[:16])
		if n := seen[fp]; n > 0 {
			sum = sha256.Sum256(fmt.Appendf(nil, "%s\x00%d", fp, n))
			seen[fp]++
			fp = hex.EncodeToString(sum[:16])
		} else {
			seen[fp] = 1
		}
		out = append(out, codeQualityIssue{
			Description: f.Message + " (fix: " + f.Fix + ")",
			CheckName:   string(f.Kind),
			Fingerprint: fp,
			Severity:    sev,
			Location:    codeQualityLocation{Path: f.Path, Lines: codeQualityLines{Begin: max(f.Line, 1)}},
		})
	}
	return out
}
