package plans_test

import (
	"encoding/json"
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/git-adr/git-adr/adr/archive"
	"github.com/git-adr/git-adr/adr/compaction"
	"github.com/git-adr/git-adr/adr/plans"
	"github.com/git-adr/git-adr/internal/gittest"
)

// The plan.json files in testdata were written by the codecs compaction
// and archive each had before they shared this one: they still decode,
// and encode again to the same bytes (approvals hash those bytes).
func TestExistingFormsStayReadable(t *testing.T) {
	for file, roundTrip := range map[string]func([]byte) ([]byte, error){
		"testdata/compaction-plan.json": func(b []byte) ([]byte, error) {
			p, err := compaction.DecodePlan(b)
			if err != nil {
				return nil, err
			}
			return p.Encode(), nil
		},
		"testdata/archive-plan.json": func(b []byte) ([]byte, error) {
			p, err := archive.DecodePlan(b)
			if err != nil {
				return nil, err
			}
			return p.Encode(), nil
		},
	} {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		got, err := roundTrip(data)
		if err != nil {
			t.Errorf("%s: %v", file, err)
			continue
		}
		if string(got) != string(data) {
			t.Errorf("%s encodes differently:\n%s", file, got)
		}
	}
}

var errBad = errors.New("bad value")

// Every error names plan.json and wraps its cause; a value is checked only
// once it decoded.
func TestDecodeErrors(t *testing.T) {
	var v struct{ A int }
	var se *json.SyntaxError
	if err := plans.Decode([]byte("{"), &v, nil); err == nil || !strings.HasPrefix(err.Error(), "plan.json: ") {
		t.Errorf("truncated JSON: %v", err)
	}
	if err := plans.Decode([]byte("{]"), &v, nil); !errors.As(err, &se) {
		t.Errorf("bad JSON: %v, want a wrapped *json.SyntaxError", err)
	}
	checked := false
	err := plans.Decode([]byte(`{"A":7}`), &v, func() error {
		checked = true
		if v.A != 7 {
			t.Errorf("check saw A=%d before decoding finished", v.A)
		}
		return errBad
	})
	if !checked || !errors.Is(err, errBad) || err.Error() != "plan.json: bad value" {
		t.Errorf("failed check: %v", err)
	}
	if err := plans.Decode([]byte(`{"A":1}`), &v, nil); err != nil || v.A != 1 {
		t.Errorf("no check: %v %+v", err, v)
	}
	if got := string(plans.Encode(map[string]int{"b": 2, "a": 1})); got != "{\n  \"a\": 1,\n  \"b\": 2\n}\n" {
		t.Errorf("Encode = %q", got)
	}
}

type plan struct {
	ID string `json:"id"`
}

func decode(b []byte) (*plan, error) {
	var p plan
	err := plans.Decode(b, &p, func() error {
		if p.ID == "" {
			return errBad
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return &p, nil
}

// A kind of plan reads back what its store saved, through its decoder.
func TestKindLoad(t *testing.T) {
	r := gittest.Repo(t)
	k := plans.Kind[plan]{Store: plans.Store{Repo: r, Prefix: "refs/adr/test/"}, Decode: decode}
	c1, err := k.Save("p-1", "rev 1\n", plans.Encode(plan{ID: "p-1"}), nil, "")
	if err != nil {
		t.Fatal(err)
	}
	c2, err := k.Save("p-1", "rev 2\n", []byte(`{"id":""}`), nil, c1)
	if err != nil {
		t.Fatal(err)
	}
	if p, err := k.LoadAt(c1); err != nil || p.ID != "p-1" {
		t.Errorf("LoadAt(first) = %+v, %v", p, err)
	}
	if p, commit, err := k.Load("p-1"); !errors.Is(err, errBad) || commit != c2 || p != nil {
		t.Errorf("Load of a plan its decoder refuses = %+v, %s, %v; want the error and the commit %s", p, commit, err, c2)
	}
	if _, _, err := k.Load("p-2"); !errors.Is(err, plans.ErrNotFound) {
		t.Errorf("Load(missing) = %v", err)
	}
}
