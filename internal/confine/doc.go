// Package confine is git-adr's one confinement layer: every path read or
// written inside a directory tree (the work tree, the drafting worktree)
// is opened through an [os.Root], so that no "..", absolute path or
// symbolic link reaches outside the tree, and no named pipe, socket or
// device is read (reading one can block forever, or act on a device).
//
// # Entry points
//
//   - [ConfinedFS] ([OpenFS]) is a tree as a read-only [io/fs.FS]:
//     symbolic links are followed only while they stay inside
//     ([ConfinedFS.Resolve] follows them as the kernel would), and a link
//     that leads out is refused with an [*EscapeError] naming the link,
//     whether or not its target exists. Its ReadDir reads entry types from
//     the directory itself on Linux, leaving stat calls to the entries'
//     Info, which the parse cache spreads over its workers.
//   - [ConfinedFS.WriteFile] and [ConfinedFS.Remove] are the few writes
//     made outside a changeset (the manual drafter's brief), through the
//     same root; WriteFile renames a temporary file into place.
//   - [OpenRegular] serves callers that hold an [os.Root] of their own, as
//     package adr's Changeset does: it looks before it opens, and opens
//     without blocking ([OpenNonBlocking]), so a FIFO swapped in after the
//     look cannot hang the read.
//   - [ReadRegularFile] reads a file a person named outside any tree (a
//     flag, an environment variable): links are followed, as the person
//     expects, but special files are refused.
//
// # Errors
//
// [*EscapeError] matches [ErrOutside] and [*SpecialFileError] matches
// [ErrSpecialFile] with errors.Is; they also match fs.ErrPermission and
// fs.ErrInvalid, so a package that imports neither this one nor gitops can
// still tell them apart.
//
// # Why internal
//
// The layer sits below gitops so that package adr's changesets apply the
// same rules without importing gitops. gitops re-exports its names
// (gitops/confine.go) and commands reach it there; adr/guard reads the
// work tree through a [ConfinedFS] to locate the files an agent's command
// names.
package confine
