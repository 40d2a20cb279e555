package archive

import "testing"

func TestSkip(t *testing.T) {
	s, p, commit := archiveRepo(t)
	if err := s.Skip(p, commit, "README.md changed since it was approved"); err != nil {
		t.Fatal(err)
	}
	if p.State == Skipped {
		t.Error("Skip changed the plan it was given")
	}
	got, _, err := s.Load(p.ID)
	if err != nil || got.State != Skipped || got.Reason != "README.md changed since it was approved" || got.Revision != p.Revision+1 {
		t.Errorf("stored: %+v, %v", got, err)
	}
}
