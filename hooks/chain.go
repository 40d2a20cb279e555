package hooks

import (
	"bytes"
	"errors"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"

	"github.com/git-adr/git-adr/gitops"
)

// RunChained runs the hook that was installed before git-adr's (kept as
// NAME.pre-git-adr in dir), with the same arguments and standard input,
// its output passed through. ran is false when there is none; code is its
// exit status, which the caller passes on when it is not 0.
func RunChained(dir, name string, args []string, stdin []byte, stdout, stderr io.Writer) (ran bool, code int, err error) {
	p := filepath.Join(dir, name+gitops.ChainSuffix)
	fi, err := os.Stat(p)
	if errors.Is(err, fs.ErrNotExist) {
		return false, 0, nil
	}
	if err != nil {
		return false, 0, err
	}
	if fi.Mode()&0o111 == 0 {
		return false, 0, nil // git itself skips a hook that is not executable
	}
	cmd := exec.Command(p, args...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = bytes.NewReader(stdin), stdout, stderr
	err = cmd.Run()
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		return true, ee.ExitCode(), nil
	}
	if err != nil {
		return true, 1, err
	}
	return true, 0, nil
}
