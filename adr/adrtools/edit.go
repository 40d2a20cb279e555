package adrtools

import (
	"strings"

	"github.com/git-adr/git-adr/internal/lazyre"
)

// addLink is _adr_add_link SOURCE LINK-TYPE TARGET: the line
// "LINK-TYPE [TARGET-TITLE](TARGET-FILE)" and a blank line go before the
// heading that ends SOURCE's "## Status" section.
func (t *Tool) addLink(sourceRef, linkType, targetRef string) error {
	source, err := t.File(sourceRef)
	if err != nil {
		return err
	}
	target, err := t.File(targetRef)
	if err != nil {
		return err
	}
	title, err := t.title(target)
	if err != nil {
		return err
	}
	data, err := t.read(source)
	if err != nil {
		return fail(1, "adr: %v", err)
	}
	link := awkString(linkType) + " [" + awkString(title) + "](" + awkString(basename(target)) + ")"
	var out []string
	inStatus := false
	for _, l := range lines(data) {
		if strings.HasPrefix(l, "##") {
			if inStatus {
				out = append(out, link, "")
			}
			inStatus = false
		}
		if l == "## Status" {
			inStatus = true
		}
		out = append(out, l)
	}
	t.write(source, unlines(out))
	return nil
}

// blankLine is awk's /^\s*$/.
var blankLine = lazyre.New(`^[ \t\n\v\f\r]*$`)

// removeStatus is _adr_remove_status STATUS FILE: lines equal to STATUS
// in the "## Status" section are dropped and runs of blank lines there
// become one.
func (t *Tool) removeStatus(status, ref string) error {
	file, err := t.File(ref)
	if err != nil {
		return err
	}
	data, err := t.read(file)
	if err != nil {
		return fail(1, "adr: %v", err)
	}
	var out []string
	inStatus, afterBlank := false, false
	for _, l := range lines(data) {
		if strings.HasPrefix(l, "##") {
			inStatus = false
		}
		if l == "## Status" {
			inStatus = true
		}
		if inStatus && blankLine.MatchString(l) {
			if !afterBlank {
				out = append(out, l)
			}
			afterBlank = true
			continue
		}
		if inStatus && l == status {
			continue
		}
		if inStatus {
			afterBlank = false
		}
		out = append(out, l)
	}
	t.write(file, unlines(out))
	return nil
}

// statusLines is _adr_status: the lines from a "## Status" heading to the
// next heading that are neither headings nor blank.
func (t *Tool) statusLines(ref string) ([]string, error) {
	file, err := t.File(ref)
	if err != nil {
		return nil, err
	}
	data, err := t.read(file)
	if err != nil {
		return nil, fail(1, "adr: %v", err)
	}
	var out []string
	in := false
	for _, l := range lines(data) {
		if !in {
			if !strings.HasPrefix(l, "## Status") {
				continue
			}
			in = true
		} else if strings.HasPrefix(l, "#") && !strings.HasPrefix(l, "## Status") {
			in = false
			continue
		}
		if !strings.HasPrefix(l, "#") && !blankLine.MatchString(l) {
			out = append(out, l)
		}
	}
	return out, nil
}

// linkLine is _adr_links' sed -E expression; POSIX sed picks the longest
// match.
var linkLine = lazyre.NewPOSIX(`^(.+) \[.*\]\(0*([1-9][0-9]*).*\)`)

// links is _adr_links: "NUMBER=LABEL" for every link line of the status
// section ("2=Supercedes"), followed by whatever came after the link.
func (t *Tool) links(ref string) ([]string, error) {
	ls, err := t.statusLines(ref)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, l := range ls {
		m := linkLine.FindStringSubmatchIndex(l)
		if m == nil {
			continue
		}
		out = append(out, l[m[4]:m[5]]+"="+l[m[2]:m[3]]+l[m[1]:])
	}
	return out, nil
}
