package plans

import (
	"encoding/json"
	"fmt"
)

// The one codec of plan.json, for every kind of plan: indented JSON with
// a final newline. A plan's JSON is deterministic (struct fields in their
// order, map keys sorted), so the same plan gives the same bytes, which
// approvals hash and plan IDs are derived from. Each kind keeps its own
// schema, and its own checks of what a plan fetched from elsewhere may
// hold; this codec gives them one form and one way to fail.

// Encode renders plan as plan.json. A plan always encodes: a value that
// does not is a programming error and panics.
func Encode(plan any) []byte {
	data, err := json.MarshalIndent(plan, "", "  ")
	if err != nil {
		panic(err)
	}
	return append(data, '\n')
}

// Decode reads plan.json into plan, then runs check (its kind's schema and
// value checks; nil for none). Either error is returned as
// "plan.json: ...".
func Decode(data []byte, plan any, check func() error) error {
	if err := json.Unmarshal(data, plan); err != nil {
		return fmt.Errorf("%s: %w", File, err)
	}
	if check != nil {
		if err := check(); err != nil {
			return fmt.Errorf("%s: %w", File, err)
		}
	}
	return nil
}

// Kind is a store of one kind of plan: revisions saved by [Store] and read
// back with its decoder.
type Kind[P any] struct {
	Store
	Decode func([]byte) (*P, error)
}

// Load reads the newest revision of plan id and the commit it is in. No
// such plan is an error wrapping [ErrNotFound].
func (k Kind[P]) Load(id string) (*P, string, error) {
	commit, data, err := k.Store.Load(id)
	if err != nil {
		return nil, "", err
	}
	p, err := k.Decode(data)
	return p, commit, err
}

// LoadAt reads the plan of a revision commit.
func (k Kind[P]) LoadAt(commit string) (*P, error) {
	data, err := k.Read(commit, File)
	if err != nil {
		return nil, err
	}
	return k.Decode(data)
}
