package audit

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strings"

	"github.com/git-adr/git-adr/adr"
)

// CodeQualityIssue is one entry of a GitLab code quality report (the
// Code Climate issue subset GitLab reads).
type CodeQualityIssue struct {
	Description string              `json:"description"`
	CheckName   string              `json:"check_name"`
	Fingerprint string              `json:"fingerprint"`
	Severity    string              `json:"severity"`
	Location    CodeQualityLocation `json:"location"`
}

// CodeQualityLocation is where an issue is: a file and its line.
type CodeQualityLocation struct {
	Path  string           `json:"path"`
	Lines CodeQualityLines `json:"lines"`
}

// CodeQualityLines is an issue's first line (1 for a whole file).
type CodeQualityLines struct {
	Begin int `json:"begin"`
}

// CodeQuality is the report GitLab shows in a merge request's widget: a
// finding is "major", a warning "minor"; a finding about a whole file is
// on its first line. The fingerprint, which GitLab compares across
// pipelines, is a hash of what the finding is (kind, file, records,
// message), made unique within the report.
func CodeQuality(rep *adr.CheckReport) []CodeQualityIssue {
	out := make([]CodeQualityIssue, 0, len(rep.Findings))
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
		out = append(out, CodeQualityIssue{
			Description: f.Message + " (fix: " + f.Fix + ")",
			CheckName:   string(f.Kind),
			Fingerprint: fp,
			Severity:    sev,
			Location:    CodeQualityLocation{Path: f.Path, Lines: CodeQualityLines{Begin: max(f.Line, 1)}},
		})
	}
	return out
}
