package evidence

import (
	"errors"
	"reflect"
	"testing"

	"github.com/git-adr/git-adr/adr"
)

func TestToolArgsRequest(t *testing.T) {
	cfg := &adr.Config{}
	cfg.Context.MaxUnits, cfg.Context.MaxChars = 5, 900
	diff := func(rev string, staged bool) ([]string, error) {
		switch {
		case staged:
			return []string{"staged.go"}, nil
		case rev == "HEAD~1":
			return []string{"b.go"}, nil
		}
		return nil, errors.New("no such revision")
	}
	seven := 7
	req, err := ToolArgs{Task: "cache reads", File: "./src/../a.go", Files: []string{"c/d.go"}, Diff: "HEAD~1", Intent: "rationale", MaxUnits: &seven}.Request(cfg, diff)
	if err != nil {
		t.Fatal(err)
	}
	want := Request{Task: "cache reads", File: "a.go", Paths: []string{"c/d.go", "b.go"}, Diff: "HEAD~1", Intent: Rationale,
		Format: CompactJSON, MaxUnits: 7, MaxChars: 900}
	if !reflect.DeepEqual(req, want) {
		t.Errorf("Request = %+v\nwant %+v", req, want)
	}
	if req, _ := (ToolArgs{Diff: "staged"}).Request(nil, diff); !reflect.DeepEqual(req.Paths, []string{"staged.go"}) || req.MaxUnits != 0 {
		t.Errorf("staged: %+v", req)
	}
	for _, c := range []struct {
		a    ToolArgs
		want string
	}{
		{ToolArgs{File: "/etc/passwd"}, `file "/etc/passwd" is outside the repository`},
		{ToolArgs{Files: []string{"ok.go", "a/../../x"}}, `file "a/../../x" is outside the repository`},
		{ToolArgs{Diff: "nope"}, `diff "nope" names no revision here`},
	} {
		_, err := c.a.Request(cfg, diff)
		var re *RequestError
		if !errors.As(err, &re) || re.Msg != c.want || re.Hint == "" {
			t.Errorf("%+v: error %v, want %q with a hint", c.a, err, c.want)
		}
	}
}

func TestShowArgsRequest(t *testing.T) {
	fsys := supersessionLog()
	fsys["doc/adr/other/0002-use-postgresql.md"] = fsys[name(2, "use-postgresql")]
	l := load(t, fsys)
	five := 5
	req, err := ShowArgs{ID: "ADR-0003#decision", StartLine: &five}.Request(l)
	if err != nil || req.Record == nil || req.Record.ID != "ADR-0003" || req.Anchor != "decision" || req.StartLine != 5 || req.StartChar != 1 {
		t.Fatalf("Request = %+v, %v", req, err)
	}
	for id, want := range map[string]string{"ADR-0099": `no record "ADR-0099"`, "2": `"2" names 2 records`} {
		_, err := ShowArgs{ID: id}.Request(l)
		var re *RequestError
		if !errors.As(err, &re) || re.Msg != want || re.Hint == "" {
			t.Errorf("%s: error %v, want %q with a hint", id, err, want)
		}
	}
}

func TestConfigLimits(t *testing.T) {
	cfg := &adr.Config{}
	cfg.Context.MaxUnits, cfg.Context.MaxChars = 5, 900
	r := Request{MaxUnits: 3}
	r.ConfigLimits(cfg)
	if r.MaxUnits != 3 || r.MaxChars != 900 {
		t.Errorf("ConfigLimits = %d units, %d chars; want 3, 900", r.MaxUnits, r.MaxChars)
	}
	r = Request{}
	r.ConfigLimits(nil)
	if r.MaxUnits != 0 || r.MaxChars != 0 {
		t.Errorf("ConfigLimits(nil) set %+v", r)
	}
}
