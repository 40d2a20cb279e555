package gitops

import (
	"io/fs"

	"github.com/git-adr/git-adr/internal/confine"
)

// The confinement layer lives in internal/confine so that package adr's
// changesets use the same rules without importing gitops; these names
// keep gitops the one place commands reach it through.
type (
	// ConfinedFS is a directory tree read through an os.Root: see
	// [confine.ConfinedFS].
	ConfinedFS = confine.ConfinedFS
	// EscapeError names the symbolic link that leads outside the tree.
	EscapeError = confine.EscapeError
	// SpecialFileError names a FIFO, socket or device.
	SpecialFileError = confine.SpecialFileError
)

// Confinement errors (see [confine.ErrOutside], [confine.ErrSpecialFile]).
var (
	ErrOutside     = confine.ErrOutside
	ErrSpecialFile = confine.ErrSpecialFile
)

// OpenFS, OpenRegular, OpenNonBlocking, ReadRegularFile and FileKind are
// the layer's entry points.
var (
	OpenFS          = confine.OpenFS
	OpenRegular     = confine.OpenRegular
	OpenNonBlocking = confine.OpenNonBlocking
	ReadRegularFile = confine.ReadRegularFile
	FileKind        = confine.FileKind
)

// errFS is a file system whose every operation fails, for a work tree
// that could not be opened.
type errFS struct{ err error }

func (e errFS) Open(name string) (fs.File, error) {
	return nil, &fs.PathError{Op: "open", Path: name, Err: e.err}
}
