package adr

import (
	"encoding/json"
	"errors"
	"testing"
	"time"
)

func TestRecoverReport(t *testing.T) {
	started := time.Date(2026, 1, 15, 11, 0, 0, 0, time.FixedZone("CET", 3600))
	res := &RecoverResult{
		Finished:  []*PendingChange{{File: "/g/adr/journal/j1.json", Journal: &Journal{Command: "git adr new A", Started: started, Steps: make([]JournalStep, 2)}}},
		Blocked:   []*PendingChange{{File: "/g/adr/journal/j2.json", Err: errors.New("unreadable journal")}},
		Saved:     map[string]string{"doc/adr/0001-a.md": "/g/adr/recovered/j1/0001-a.md"},
		Discarded: []string{"/g/adr/journal/j3.json"},
	}
	rep := res.Report()
	if f := rep.Finished[0]; f.Journal != "j1.json" || f.Command != "git adr new A" || f.Started != "2026-01-15T10:00:00Z" || f.Files != 2 || f.Error != "" {
		t.Errorf("finished = %+v", f)
	}
	if b := rep.Blocked[0]; b.Journal != "j2.json" || b.Error != "unreadable journal" || b.Files != 0 {
		t.Errorf("blocked = %+v", b)
	}
	if len(rep.Discarded) != 1 || rep.Discarded[0] != "j3.json" || rep.Saved["doc/adr/0001-a.md"] == "" {
		t.Errorf("discarded %v, saved %v", rep.Discarded, rep.Saved)
	}
	data, err := json.Marshal((&RecoverResult{}).Report())
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"lock":null,"finished":[],"blocked":[],"kept":[],"saved":{},"discarded":[],"temp_files_removed":[],"acceptances":[]}`; string(data) != want {
		t.Errorf("an empty report = %s, want %s", data, want)
	}
}
