package jsonadr

import "testing"

func TestImportResult(t *testing.T) {
	p := &ImportPlan{Files: []ImportFile{{From: 1, To: 1, Path: "a.md", Data: []byte("a")}, {From: 2, To: 5, Path: "b.md", Unchanged: true}}}
	res, changes := p.Result(false)
	if len(changes) != 1 || changes[0].Path != "a.md" || res.Imported[0].Status != "written" || res.Imported[1].Status != "unchanged" || res.Imported[1].To != 5 {
		t.Errorf("Result = %+v, %v", res, changes)
	}
	if res.Warnings == nil {
		t.Error("Result's warnings are null, want []")
	}
	res, changes = p.Result(true)
	if len(changes) != 0 || res.Imported[0].Status != "would write" || !res.DryRun {
		t.Errorf("Result(dry run) = %+v, %v", res, changes)
	}
}
