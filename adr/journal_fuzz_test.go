package adr

import (
	"encoding/json"
	"testing"
)

// FuzzDecodeJournal: any bytes decode to a journal whose every path passes
// the work tree rule and whose data matches its hashes, or to an error;
// never a panic.
func FuzzDecodeJournal(f *testing.F) {
	good := Journal{Version: JournalVersion, ID: "0123456789abcdef", Command: "git adr link 1 Amends 2", Steps: []JournalStep{
		{Path: "doc/adr/0001-a.md", Old: contentHash([]byte("a")), New: contentHash([]byte("b")), Data: []byte("b"), Mode: 0o644},
		{Path: "doc/adr/archive/0002-b.md", From: "doc/adr/0002-b.md", Old: contentHash([]byte("c")), New: contentHash(nil), Mode: 0o600},
		{Path: "doc/adr/CURRENT.md", Delete: true, Old: contentHash([]byte("d"))},
	}}
	data, _ := json.Marshal(good)
	f.Add(data)
	f.Add([]byte(`{"version":2,"id":"0123456789abcdef","steps":[{"path":"../x","new":"` + contentHash(nil) + `"}]}`))
	f.Add([]byte(`{"steps":[{"tmp":"/tmp/x","final":"/etc/passwd"}]}`))
	f.Add([]byte(`{"version":2,"id":"0123456789abcdef","steps":[{"path":".git/hooks/pre-commit","new":"` + contentHash(nil) + `"}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		j, err := DecodeJournal("0123456789abcdef.json", data)
		if err != nil {
			return
		}
		for _, s := range j.Steps {
			if checkWorkPath(s.Path) != nil || s.From != "" && checkWorkPath(s.From) != nil {
				t.Fatalf("accepted a path outside the work tree: %q %q", s.Path, s.From)
			}
			if !s.Delete && contentHash(s.Data) != s.New {
				t.Fatalf("accepted data that does not match its hash")
			}
		}
		again, _ := json.Marshal(j)
		if _, err := DecodeJournal("0123456789abcdef.json", again); err != nil {
			t.Fatalf("a decoded journal does not decode again: %v", err)
		}
	})
}
