package adr

import (
	"errors"
	"testing"
)

func TestPick(t *testing.T) {
	a, b := &Record{ID: "1", Path: "a.md"}, &Record{ID: "2", Path: "b.md"}
	l := &Log{Records: []*Record{a, b}}
	resolve := func(ref string) (*Record, error) {
		switch ref {
		case "1":
			return a, nil
		case "2":
			return b, nil
		}
		return nil, errors.New("no record " + ref)
	}
	if got, _ := l.Pick(nil, resolve); len(got) != 2 {
		t.Errorf("Pick() = %v, want every record", got)
	}
	if got, err := l.Pick([]string{"2, 1", "2,"}, resolve); err != nil || len(got) != 2 || got[0] != b || got[1] != a {
		t.Errorf("Pick(2,1 2) = %v, %v; want 2 then 1, once each", got, err)
	}
	if _, err := l.Pick([]string{"3"}, resolve); err == nil {
		t.Error("Pick(3) found a record")
	}
}
