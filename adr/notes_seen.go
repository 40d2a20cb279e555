package adr

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"strings"
)

// NoteSeen reports whether a discovery note was already shown in the
// repository whose git-adr state is in dir ($GIT_COMMON_DIR/adr), and
// remembers it there unless readOnly: "no ADR directory configured;
// detected doc/adr" helps once, not on every command. Other notes are
// never seen: they always print.
func NoteSeen(dir, note string, readOnly bool) bool {
	if !strings.HasPrefix(note, "no ADR directory configured; detected ") {
		return false
	}
	sum := sha256.Sum256([]byte(note))
	p := filepath.Join(dir, "notes", hex.EncodeToString(sum[:8]))
	if _, err := os.Stat(p); err == nil {
		return true
	}
	if !readOnly && os.MkdirAll(filepath.Dir(p), 0o755) == nil {
		os.WriteFile(p, []byte(note+"\n"), 0o644)
	}
	return false
}
