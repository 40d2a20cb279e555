package trust

import (
	"errors"
	"fmt"
	"strings"
	"time"
)

// Absent is the state of a repository without an .adr.toml.
const Absent State = "absent"

// Report is what `git adr trust` found and did (--json: docs/json.md).
type Report struct {
	Path string `json:"path"`
	// State is trusted, untrusted, changed, or absent (no .adr.toml).
	State         State    `json:"state"`
	SHA256        string   `json:"sha256,omitempty"`
	TrustedSHA256 string   `json:"trusted_sha256,omitempty"`
	TrustedAt     string   `json:"trusted_at,omitempty"`
	Store         string   `json:"store"`
	Asks          []Ask    `json:"asks"`
	InEffect      []Effect `json:"in_effect,omitempty"`
	Revoked       *bool    `json:"revoked,omitempty"`
}

// Ask is one value an .adr.toml sets that runs a program or sends a
// credential.
type Ask struct {
	Key    string `json:"key"`
	GitKey string `json:"git_key"`
	Value  string `json:"value"`
	// Does says in words what the value makes git-adr do.
	Does string `json:"does"`
}

// Effect is one setting as it is in effect.
type Effect struct {
	Key    string `json:"key"`
	GitKey string `json:"git_key"`
	// State is set (Value from From), ignored (only an untrusted file
	// sets it) or unset.
	State     string `json:"state"`
	Value     string `json:"value,omitempty"`
	From      string `json:"from,omitempty"`
	GitScope  string `json:"git_scope,omitempty"`
	GitOrigin string `json:"git_origin,omitempty"`
}

// Revoked is the report of revoking the trust of the file at path.
func (s *Store) Revoked(path string) (Report, error) {
	st, had, err := s.Revoke(path)
	if err != nil {
		return Report{}, err
	}
	return Report{Path: st.Path, State: Untrusted, Store: st.File, Asks: []Ask{}, Revoked: &had}, nil
}

// NewReport starts the report of the resolver's file: its canonical path
// and what it asks, each said in words by does. Nothing is read from the
// store yet: what is asked is shown before any trust is recorded
// ([Report.Settle]).
func NewReport(rv *Resolver, does func(Value) string) Report {
	rep := Report{Path: rv.Path, Asks: []Ask{}}
	if c, err := Canonical(rv.Path); err == nil {
		rep.Path = c
	}
	for _, v := range Asked(rv.File) {
		rep.Asks = append(rep.Asks, Ask{Key: v.Key, GitKey: v.GitKey, Value: v.Value, Does: does(v)})
	}
	return rep
}

// Settle records the trust of the file's content in the resolver's store
// (with record; else it only reads the trust there), then fills in the
// state and the value in effect of every [Setting]. The errors are the
// store's ([*StoreError]).
func (rep *Report) Settle(rv *Resolver, record bool, now time.Time) error {
	rep.State = Absent
	if sum := rv.File.SHA256; sum != "" {
		var st Status
		var err error
		if record {
			st, err = rv.Store.Trust(rv.Path, sum, now)
		} else {
			st, err = rv.Status()
		}
		if err != nil {
			return err
		}
		rep.Path, rep.State, rep.SHA256, rep.Store = st.Path, st.State, st.SHA256, st.File
		if st.Entry != nil {
			rep.TrustedSHA256, rep.TrustedAt = st.Entry.SHA256, st.Entry.Trusted.Format(time.RFC3339)
		}
	}
	for _, s := range Settings {
		v, ok, err := rv.Get(s)
		eff := Effect{Key: s.Key, GitKey: s.GitKey, State: "unset"}
		var ue *UntrustedError
		switch {
		case errors.As(err, &ue):
			eff.State = "ignored"
		case err != nil:
			return err
		case ok:
			eff.State, eff.Value, eff.From, eff.GitScope, eff.GitOrigin = "set", v.Value, v.Origin(), v.From.GitScope, v.From.GitOrigin
		}
		rep.InEffect = append(rep.InEffect, eff)
	}
	return nil
}

// AsksFor reports whether the file asks for the setting key.
func (rep *Report) AsksFor(key string) bool {
	for _, a := range rep.Asks {
		if a.Key == key {
			return true
		}
	}
	return false
}

// Origin says in words where a value in effect comes from: "git config
// KEY (global scope, /home/ada/.gitconfig)", "git config KEY (command
// line)" for -c and GIT_CONFIG_* variables, or "trusted FILE".
func (v Value) Origin() string {
	if !v.FromGit() {
		return "trusted " + v.From.File
	}
	where := fmt.Sprintf("(%s scope)", v.From.GitScope)
	if v.From.GitScope == "command" {
		where = "(command line)"
	} else if o := strings.TrimPrefix(v.From.GitOrigin, "file:"); o != "" {
		where = fmt.Sprintf("(%s scope, %s)", v.From.GitScope, o)
	}
	return "git config " + v.GitKey + " " + where
}
