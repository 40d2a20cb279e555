package compaction

import (
	"fmt"
	"strings"
	"testing"
)

// TestDecodePlanRefusesPathIDs: a plan's ID names files under $GIT_DIR/adr
// (receipts, the drafting worktree), so a plan fetched from a remote must
// not carry an ID that is a path.
func TestDecodePlanRefusesPathIDs(t *testing.T) {
	for _, id := range []string{"../../../tmp/evil", "a/b", "", ".hidden", "S-UPPER", strings.Repeat("a", 65)} {
		data := fmt.Sprintf(`{"schema": %d, "id": %q}`, SchemaVersion, id)
		if _, err := DecodePlan([]byte(data)); err == nil || !strings.Contains(err.Error(), "is not a plan ID") {
			t.Errorf("DecodePlan(id %q) = %v; want it refused", id, err)
		}
	}
	for _, id := range []string{PlanID(Summary, Scope{}, "base", "m"), "s-test", "c-a"} {
		data := fmt.Sprintf(`{"schema": %d, "id": %q, "mode": "summary", "state": "planned"}`, SchemaVersion, id)
		if _, err := DecodePlan([]byte(data)); err != nil {
			t.Errorf("DecodePlan(id %q) = %v", id, err)
		}
	}
}
