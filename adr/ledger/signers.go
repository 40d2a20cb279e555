package ledger

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/git-adr/git-adr/gitops"
)

// signersFix says where strict mode takes its allowed signers from.
const signersFix = "name the allowed signers in [governance] allowed_signers of .adr.toml (a file committed with it), or set gpg.ssh.allowedSignersFile in your own global git configuration to a file outside the repository (`git config --global gpg.ssh.allowedSignersFile ~/.ssh/allowed_signers`)"

// SignersError means strict mode's allowed signers cannot be taken from
// where they are configured: a file an agent or a cloned repository could
// have changed is never trusted.
type SignersError struct{ Msg, Fix string }

func (e *SignersError) Error() string { return e.Msg }

// SignersFile resolves the allowed-signers file a strict-mode signature is
// verified against, as a path git can read, and a cleanup to call when
// done. It is never a file an agent working in the repository could have
// edited without a commit:
//
//   - [governance] allowed_signers, relative: the file as the policy's
//     tree holds it (HEAD's for an acceptance), copied to a private
//     temporary file; the work tree's copy, with its uncommitted edits,
//     is never read;
//   - [governance] allowed_signers, absolute: a file outside the work
//     tree and the git directory;
//   - otherwise gpg.ssh.allowedSignersFile, only from the person's own
//     global or system git configuration (not one included from inside
//     the repository), naming a file outside the repository. The
//     repository's own configuration, which a clone or an agent can
//     write, and -c or GIT_CONFIG_* settings, which any caller can make,
//     are refused; a bare repository's own configuration (a server's,
//     set by its administrator) is taken.
//
// "" means no allowed-signers file is configured anywhere: git then
// reports an ssh signature as N, never good.
func (s Strict) SignersFile(r *gitops.Repo) (file string, cleanup func(), err error) {
	none := func() {}
	if p := s.AllowedSigners; p != "" {
		if filepath.IsAbs(p) {
			if inRepository(r, p) {
				return "", none, &SignersError{
					Msg: fmt.Sprintf("[governance] allowed_signers %q lies inside the repository; an absolute path would be read from the work tree, where an uncommitted edit counts", p),
					Fix: fmt.Sprintf("name it relative to the repository (%q), so it is read as committed", relTo(r, p))}
			}
			return p, none, nil
		}
		if s.Policy == nil {
			return "", none, &SignersError{Msg: fmt.Sprintf("[governance] allowed_signers %q has no committed state to be read from", p), Fix: signersFix}
		}
		data, err := fs.ReadFile(s.Policy, path.Clean(p))
		if err != nil {
			return "", none, &SignersError{
				Msg: fmt.Sprintf("[governance] allowed_signers %q is not in the committed tree the policy comes from (%v)", p, err),
				Fix: "commit the allowed-signers file with .adr.toml; strict mode reads it as committed, never from the work tree"}
		}
		name, err := privateCopy(data)
		if err != nil {
			return "", none, err
		}
		return name, func() { os.Remove(name) }, nil
	}
	v, err := r.ConfigOrigin("gpg.ssh.allowedSignersFile")
	if errors.Is(err, gitops.ErrNotFound) {
		return "", none, nil
	}
	if err != nil {
		return "", none, err
	}
	switch {
	case v.Scope == "global" || v.Scope == "system":
	case v.Scope == "local" && r.Bare:
	default:
		return "", none, &SignersError{
			Msg: fmt.Sprintf("gpg.ssh.allowedSignersFile is set in the %s configuration (%s), which a cloned repository, an agent or any caller can change; strict mode does not take the allowed signers from there", v.Scope, v.Origin),
			Fix: signersFix}
	}
	if origin, ok := strings.CutPrefix(v.Origin, "file:"); ok && !r.Bare && inRepository(r, origin) {
		return "", none, &SignersError{
			Msg: fmt.Sprintf("gpg.ssh.allowedSignersFile comes from %s, a file inside the repository included by your %s configuration; strict mode does not take the allowed signers from there", origin, v.Scope),
			Fix: signersFix}
	}
	p := v.Value
	if rest, ok := strings.CutPrefix(p, "~/"); ok {
		home, err := os.UserHomeDir()
		if err != nil {
			return "", none, &SignersError{Msg: fmt.Sprintf("gpg.ssh.allowedSignersFile %q: %v", p, err), Fix: signersFix}
		}
		p = filepath.Join(home, rest)
	}
	if !filepath.IsAbs(p) {
		return "", none, &SignersError{Msg: fmt.Sprintf("gpg.ssh.allowedSignersFile %q is not an absolute path", v.Value), Fix: signersFix}
	}
	if !r.Bare && inRepository(r, p) {
		return "", none, &SignersError{
			Msg: fmt.Sprintf("gpg.ssh.allowedSignersFile %q lies inside the repository, where an uncommitted edit counts", v.Value),
			Fix: signersFix}
	}
	return p, none, nil
}

// inRepository reports whether p lies in the work tree or the git
// directory, links resolved as far as they exist.
func inRepository(r *gitops.Repo, p string) bool {
	p = resolved(p)
	for _, dir := range []string{r.Top, r.GitDir, r.CommonDir} {
		if dir == "" {
			continue
		}
		if rel, err := filepath.Rel(resolved(dir), p); err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			return true
		}
	}
	return false
}

// resolved is p with symbolic links resolved in its longest existing
// leading part.
func resolved(p string) string {
	p = filepath.Clean(p)
	if r, err := filepath.EvalSymlinks(p); err == nil {
		return r
	}
	dir, base := filepath.Split(p)
	if dir == "" || filepath.Clean(dir) == p {
		return p
	}
	return filepath.Join(resolved(filepath.Clean(dir)), base)
}

func relTo(r *gitops.Repo, p string) string {
	if rel, err := filepath.Rel(resolved(r.Top), resolved(p)); err == nil {
		return filepath.ToSlash(rel)
	}
	return p
}

// privateCopy writes data to a temporary file only this user can read
// (git reads an allowed-signers file from disk, and a tree is no file).
func privateCopy(data []byte) (string, error) {
	f, err := os.CreateTemp("", "git-adr-allowed-signers-*")
	if err != nil {
		return "", err
	}
	_, err = f.Write(data)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(f.Name())
		return "", err
	}
	return f.Name(), nil
}
