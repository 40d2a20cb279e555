package workspace

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
)

// An export that fails at a member (here a remote not synced) has sent
// every record of the members before it, each line whole, however much
// of it the buffer had already sent.
func TestExportFailedMemberLeavesWholeLines(t *testing.T) {
	hermetic(t)
	dir := t.TempDir()
	records := map[string]string{}
	for i := 1; i <= 30; i++ {
		// Records of about 3 KB: the 64 KiB buffer sends part of a line
		// before the export fails.
		records[fmt.Sprintf("%04d-r.md", i)] = decision(i, fmt.Sprintf("Record %d", i), strings.Repeat("A long decision. ", 180))
	}
	repo(t, filepath.Join(dir, "big"), records)
	text := "[[repo]]\nname = \"big\"\npath = \"big\"\n\n[[repo]]\nname = \"far\"\nurl = \"file://" + filepath.Join(dir, "nowhere.git") + "\"\n"
	ws := loadWS(t, dir, text)
	var out bytes.Buffer
	n, err := ws.Export(&out)
	if !errors.Is(err, ErrNotSynced) {
		t.Fatalf("export: %v, want not synced", err)
	}
	lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	if n != 30 || len(lines) != 30 || !strings.HasSuffix(out.String(), "\n") {
		t.Fatalf("%d records counted, %d lines sent (%d bytes), want the 30 of the first member", n, len(lines), out.Len())
	}
	for i, l := range lines {
		var rec ExportRecord
		if err := json.Unmarshal([]byte(l), &rec); err != nil || rec.Repository != "big" {
			t.Fatalf("line %d: %v (%q)", i+1, err, l[:min(len(l), 80)])
		}
	}
}
