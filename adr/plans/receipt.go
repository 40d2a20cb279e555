package plans

import (
	"encoding/json"
	"os"
	"path/filepath"
	"time"

	"github.com/git-adr/git-adr/gitops"
	"github.com/git-adr/git-adr/internal/atomicfile"
)

// Receipt records that a plan waits for a person (no terminal means no
// approval), or what became of it, for the person who will read it.
type Receipt struct {
	Plan     string   `json:"plan"`
	Revision int      `json:"revision"`
	State    string   `json:"state"`
	Choices  []string `json:"choices"`
	Confirm  string   `json:"confirm,omitempty"`
	Review   string   `json:"review"`
	Time     string   `json:"time"`
}

// WriteReceipt writes rc, stamped with the time now, as the receipt of
// its plan under the repository's git-adr folder (receipts/<plan>.json),
// replacing the one before, and returns its path.
func WriteReceipt(repo *gitops.Repo, rc Receipt) (string, error) {
	dir := filepath.Join(repo.AdrDir(), "receipts")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	rc.Time = time.Now().UTC().Format(time.RFC3339)
	data, _ := json.MarshalIndent(rc, "", "  ")
	p := filepath.Join(dir, rc.Plan+".json")
	return p, atomicfile.Write(p, append(data, '\n'), 0o644)
}
