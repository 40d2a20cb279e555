package trust

import "testing"

func TestUserStoreAndForRepo(t *testing.T) {
	env := map[string]string{"XDG_STATE_HOME": "/state", "HOME": "/home/ada"}
	s, err := UserStore(func(k string) string { return env[k] })
	if err != nil || s.Dir != "/state/git-adr/trust" {
		t.Errorf("UserStore = %+v, %v", s, err)
	}
	if _, err := UserStore(func(string) string { return "" }); err == nil {
		t.Error("UserStore without HOME or XDG_STATE_HOME: no error")
	}
	r, cfg := gitRepo(t, risky)
	rv := ForRepo(r, cfg, s)
	if rv.File != cfg || rv.Path != r.Abs(".adr.toml") || rv.Git != r || rv.Store != s {
		t.Errorf("ForRepo = %+v", rv)
	}
}
