package main

import (
	"bytes"
	"strings"
	"testing"

	"github.com/git-adr/git-adr/adr"
)

// A finding's text comes from the records (a status word, a link, a file
// name): in an annotation it can neither end the command nor start
// another one, and a file name's "," or ":" cannot add a property.
func TestCheckGitHubEscapes(t *testing.T) {
	var out bytes.Buffer
	env := &Env{Out: &out}
	rep := &adr.CheckReport{Findings: []adr.Finding{
		{Kind: adr.KindUnknownStatus, Path: "doc/adr/0001-a,line=1:b.md", Line: 3, Message: "unknown status \"x\n::error file=evil.md::forged 100%\"", Fix: "change it\r\n::add-mask::secret"},
		{Kind: adr.KindReviewDue, Path: "doc/adr/0002-b.md", Message: "due", Fix: "review it", Warning: true},
	}}
	if err := writeCheckGitHub(env, rep); err != nil {
		t.Fatal(err)
	}
	// Control characters are shown escaped (adr.Escape), as on a
	// terminal; the line between message and fix is the command's own.
	want := "::error file=doc/adr/0001-a%2Cline=1%3Ab.md,line=3,title=unknown-status::unknown status \"x\\n::error file=evil.md::forged 100%25\"%0Afix: change it\\r\\n::add-mask::secret\n" +
		"::warning file=doc/adr/0002-b.md,title=review-due::due%0Afix: review it\n"
	if out.String() != want {
		t.Errorf("annotations:\n%s\nwant:\n%s", out.String(), want)
	}
	if n := strings.Count(out.String(), "\n"); n != 2 {
		t.Errorf("%d lines, want one per finding", n)
	}
}
