//go:build !linux

package atomicfile

import (
	"errors"
	"os"
)

// renameNoReplace is refused where the system has no rename that
// replaces nothing: Create needs a file system with links there.
func renameNoReplace(from, to string) error {
	return &os.LinkError{Op: "rename", Old: from, New: to, Err: errors.ErrUnsupported}
}
