package adr

import "testing"

func TestCheckReportFails(t *testing.T) {
	warn := &CheckReport{Findings: []Finding{{Warning: true}}}
	if errs, warns := warn.Tally(); errs != 0 || warns != 1 {
		t.Errorf("Tally = %d, %d", errs, warns)
	}
	if warn.Fails(nil) {
		t.Error("a warning fails check by default")
	}
	strict := &Config{}
	strict.Check.Warnings = "error"
	if !warn.Fails(strict) {
		t.Error("a warning does not fail check with warnings = \"error\"")
	}
	if !(&CheckReport{Findings: []Finding{{}}}).Fails(nil) {
		t.Error("an error does not fail check")
	}
}
