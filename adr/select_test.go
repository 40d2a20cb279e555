package adr

import (
	"slices"
	"testing"
)

func TestSelectAndHasDomain(t *testing.T) {
	l := &Log{Records: []*Record{
		{ID: "1", Status: Accepted, Domains: []string{"storage"}},
		{ID: "2", Status: Proposed, Domains: []string{"api"}},
		{ID: "3", Status: Accepted},
	}}
	var ids []string
	for _, r := range l.Select(Accepted, "") {
		ids = append(ids, r.ID)
	}
	if !slices.Equal(ids, []string{"1", "3"}) {
		t.Errorf("Select(accepted) = %v", ids)
	}
	if got := l.Select("", "api"); len(got) != 1 || got[0].ID != "2" {
		t.Errorf("Select(domain api) = %v", got)
	}
	if ok, _ := l.HasDomain("storage"); !ok {
		t.Error("HasDomain(storage) = false")
	}
	if ok, known := l.HasDomain("ui"); ok || !slices.Equal(known, []string{"api", "storage"}) {
		t.Errorf("HasDomain(ui) = %v, %v", ok, known)
	}
}
