package workspace

import (
	"os"
	"strings"
	"testing"
)

// Every kind a workspace check reports has its row in
// docs/commands/check.md, as audit's kinds do (audit.TestKindsDocumented).
func TestKindsDocumented(t *testing.T) {
	data, err := os.ReadFile("../docs/commands/check.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{BrokenLink, SharedStatus} {
		if !strings.Contains(string(data), "| `"+k+"` |") {
			t.Errorf("docs/commands/check.md has no table row for the workspace kind %q", k)
		}
	}
}
