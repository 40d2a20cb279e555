package audit

import (
	"testing"

	"github.com/git-adr/git-adr/adr"
)

// Two findings alike get fingerprints of their own (GitLab keys issues by
// them), the same in every run.
func TestCodeQualityFingerprints(t *testing.T) {
	f := adr.Finding{Kind: adr.KindBrokenReference, Path: "doc/adr/0001-a.md", Message: "m", Fix: "x"}
	rep := &adr.CheckReport{Findings: []adr.Finding{f, f, {Kind: adr.KindReviewDue, Path: "doc/adr/0002-b.md", Message: "due", Warning: true}}}
	a, b := CodeQuality(rep), CodeQuality(rep)
	if a[0].Fingerprint == a[1].Fingerprint || a[0].Fingerprint != b[0].Fingerprint || a[1].Fingerprint != b[1].Fingerprint {
		t.Errorf("fingerprints %q %q, again %q %q", a[0].Fingerprint, a[1].Fingerprint, b[0].Fingerprint, b[1].Fingerprint)
	}
	if a[0].Location.Lines.Begin != 1 || a[0].Severity != "major" || a[2].Severity != "minor" {
		t.Errorf("issues %+v", a)
	}
}
