package memory

import (
	"errors"
	"testing"
)

func TestPage(t *testing.T) {
	st := &State{Commit: "c1"}
	for i, x := range []struct {
		id, topic string
		on        bool
	}{{"m-00000001", "testing", true}, {"m-00000002", "storage", true}, {"m-00000003", "Testing", false}, {"m-00000004", "testing", true}} {
		st.Items = append(st.Items, &Item{ID: x.id, Seq: i + 1, Topic: x.topic, Enabled: x.on})
	}
	ids := func(p *Page) (out []string) {
		for _, it := range p.Items {
			out = append(out, it.ID)
		}
		return out
	}
	p, err := st.Page(PageOptions{Topic: " TESTING ", Limit: 1})
	if err != nil {
		t.Fatal(err)
	}
	if got := ids(p); len(got) != 1 || got[0] != "m-00000001" || p.Total != 2 || p.NextAfter == nil || *p.NextAfter != "m-00000001" || p.Following != 1 || p.Commit != "c1" {
		t.Fatalf("first page = %v total %d next %v following %d", got, p.Total, p.NextAfter, p.Following)
	}
	p, err = st.Page(PageOptions{Topic: "testing", Limit: 1, After: *p.NextAfter})
	if err != nil {
		t.Fatal(err)
	}
	if got := ids(p); len(got) != 1 || got[0] != "m-00000004" || p.NextAfter != nil || p.Following != 0 {
		t.Fatalf("last page = %v next %v", got, p.NextAfter)
	}
	if p, _ := st.Page(PageOptions{All: true, Limit: 10}); p.Total != 4 {
		t.Errorf("--all selects %d items, want 4", p.Total)
	}
	var ae *AfterError
	if _, err := st.Page(PageOptions{Limit: 10, After: "m-00000003"}); !errors.As(err, &ae) || !ae.Missing {
		t.Errorf("after a disabled item not listed: %v, want a missing AfterError", err)
	}
	if _, err := st.Page(PageOptions{Limit: 10, After: "m-9"}); !errors.As(err, &ae) || ae.Missing {
		t.Errorf("after an unknown ID: %v, want an AfterError", err)
	}
}
