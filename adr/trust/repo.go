package trust

import (
	"github.com/git-adr/git-adr/adr"
	"github.com/git-adr/git-adr/gitops"
)

// UserStore is the user's trust store, in [Dir].
func UserStore(getenv func(string) string) (*Store, error) {
	dir, err := Dir(getenv)
	if err != nil {
		return nil, err
	}
	return &Store{Dir: dir}, nil
}

// ForRepo resolves the settings in effect in repository r whose
// .adr.toml is cfg: git config first, then the file when store trusts it
// (a nil store trusts nothing).
func ForRepo(r *gitops.Repo, cfg *adr.Config, store *Store) *Resolver {
	return &Resolver{File: cfg, Path: r.Abs(adr.ConfigFile), Git: r, Store: store}
}
