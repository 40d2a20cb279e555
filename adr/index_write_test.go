package adr

import (
	"errors"
	"testing"
)

// Stage writes a missing or stale index and leaves one up to date; the
// problem of a set of indexes is its first foreign or colliding one.
func TestIndexStageAndProblem(t *testing.T) {
	cs := &Changeset{}
	if !(Index{Path: "a/INDEX.md", State: IndexMissing, Content: []byte("x")}).Stage(cs) {
		t.Error("a missing index is not staged")
	}
	if (Index{Path: "b/INDEX.md", State: IndexUpToDate}).Stage(cs) {
		t.Error("an index up to date is staged")
	}
	ixs := []Index{{Path: "a/INDEX.md", State: IndexStale}, {Path: "b/INDEX.md", State: IndexCollision, Other: "b/index.md"}, {Path: "c/INDEX.md", State: IndexForeign}}
	var ce *IndexCollisionError
	if err := IndexProblem(ixs); !errors.As(err, &ce) || ce.Other != "b/index.md" {
		t.Errorf("IndexProblem = %v, want the collision of b/INDEX.md", err)
	}
	if err := IndexProblem(ixs[:1]); err != nil {
		t.Errorf("IndexProblem of a stale index = %v, want nil", err)
	}
}
