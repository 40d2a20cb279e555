package plans

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/git-adr/git-adr/internal/gittest"
)

func TestWriteReceipt(t *testing.T) {
	r := gittest.Repo(t)
	for _, state := range []string{"awaiting approval", "done"} {
		p, err := WriteReceipt(r, Receipt{Plan: "a-1a2b3c4d5e", Revision: 2, State: state, Choices: []string{"archive", "cancel"}, Review: "git adr archive status a-1a2b3c4d5e"})
		if err != nil {
			t.Fatal(err)
		}
		if want := filepath.Join(r.AdrDir(), "receipts", "a-1a2b3c4d5e.json"); p != want {
			t.Fatalf("path = %s, want %s", p, want)
		}
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		var got Receipt
		if err := json.Unmarshal(data, &got); err != nil {
			t.Fatal(err)
		}
		if got.State != state || got.Revision != 2 || got.Time == "" || data[len(data)-1] != '\n' {
			t.Errorf("receipt = %+v (%q)", got, data)
		}
	}
}
