// Package benchkit holds what the benchmark scripts share: building
// git-adr, running git with a fixed identity, timing fresh processes, and
// writing a generated region of a Markdown file between its markers.
package benchkit

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"
)

// BuildCommand is the `go build` of ./cmd/git-adr into out, run in src,
// built the way the release builds it (.goreleaser.yaml: static, no cgo,
// -trimpath, no symbol tables), so that the figures are those of the
// binary users run.
func BuildCommand(src, out string) *exec.Cmd {
	cmd := exec.Command("go", "build", "-trimpath", "-ldflags=-s -w", "-o", out, "./cmd/git-adr")
	cmd.Dir = src
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	return cmd
}

// Build compiles ./cmd/git-adr (BuildCommand) into a new temporary folder
// named after tag and returns the binary's path.
func Build(tag string) (string, error) {
	dir, err := os.MkdirTemp("", tag+"-bin-")
	if err != nil {
		return "", err
	}
	bin := filepath.Join(dir, "git-adr")
	cmd := BuildCommand(".", bin)
	cmd.Stderr = os.Stderr
	return bin, cmd.Run()
}

// Git runs git in dir with a fixed author and committer.
func Git(dir string, args ...string) error {
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=b", "GIT_AUTHOR_EMAIL=b@e", "GIT_COMMITTER_NAME=b", "GIT_COMMITTER_EMAIL=b@e")
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("git %v: %v\n%s", args, err, out)
	}
	return nil
}

// Median is the median wall-clock time of runs fresh processes of name in
// dir, after one discarded warm-up run. An exit status other than 0 fails,
// unless it is listed in alsoOK.
func Median(runs int, dir string, alsoOK []int, name string, args ...string) (time.Duration, error) {
	var ds []time.Duration
	for i := 0; i <= runs; i++ {
		cmd := exec.Command(name, args...)
		cmd.Dir = dir
		start := time.Now()
		err := cmd.Run()
		d := time.Since(start)
		var ee *exec.ExitError
		if errors.As(err, &ee) && slices.Contains(alsoOK, ee.ExitCode()) {
			err = nil
		}
		if err != nil {
			return 0, fmt.Errorf("%s %v: %v", name, args, err)
		}
		if i > 0 {
			ds = append(ds, d)
		}
	}
	sort.Slice(ds, func(i, j int) bool { return ds[i] < ds[j] })
	return ds[len(ds)/2], nil
}

// MS renders d in milliseconds with one decimal ("2.5 ms").
func MS(d time.Duration) string { return fmt.Sprintf("%.1f ms", float64(d.Microseconds())/1000) }

// UpdateRegion replaces the region called name of the Markdown file path
// (between the lines <!-- name:start --> and <!-- name:end -->) with body,
// adding the region at the end when the file has none.
func UpdateRegion(path, name, body string) error {
	data, err := os.ReadFile(path)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	out, err := ReplaceRegion(string(data), name, body)
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return os.WriteFile(path, []byte(out), 0o644)
}

// ReplaceRegion is UpdateRegion on the text of a document.
func ReplaceRegion(doc, name, body string) (string, error) {
	start, end := "<!-- "+name+":start -->", "<!-- "+name+":end -->"
	region := start + "\n" + strings.TrimRight(body, "\n") + "\n" + end
	i := markerLine(doc, start)
	j := markerLine(doc, end)
	switch {
	case i < 0 && j < 0:
		if doc != "" && !strings.HasSuffix(doc, "\n") {
			doc += "\n"
		}
		if doc != "" {
			doc += "\n"
		}
		return doc + region + "\n", nil
	case i < 0 || j < i:
		return "", fmt.Errorf("%q and %q are not a pair of lines in that order", start, end)
	}
	return doc[:i] + region + doc[j+len(end):], nil
}

// markerLine is the offset of the first line that is exactly marker, or -1;
// a marker quoted inside other text (as the docs do) does not count.
func markerLine(doc, marker string) int {
	for off := 0; off < len(doc); {
		line, _, _ := strings.Cut(doc[off:], "\n")
		if strings.TrimRight(line, "\r") == marker {
			return off
		}
		off += len(line) + 1
	}
	return -1
}
