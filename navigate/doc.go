// Package navigate gives bounded, read-only access to a directory tree: a
// literal search, a paginated listing and line-range reads. It implements
// the navigation part of the "coding navigation and context retention"
// decision (ADR-0069 of the reference): every answer is small enough for a
// coding agent's context, says when it is incomplete, and can be continued.
//
// # Confinement
//
// A [Tree] is opened on one directory, the repository root. Every path a
// caller gives is resolved against it: ".." that climbs out, absolute paths
// elsewhere and symbolic links that lead outside are refused with
// [ErrOutside]; anything inside .git is refused with [ErrGitDir]. Links are
// resolved and files opened by gitops.ConfinedFS, the confinement layer
// every git-adr read goes through, over an [os.Root]: a link swapped in
// after the check cannot escape either.
//
// # Limits
//
// [Tree.Search] scans at most [MaxScanEntries] directory entries,
// [MaxScanFiles] files, [MaxScanBytes] bytes and [MaxDepth] directory levels,
// and returns at most [MaxMatches] matches; [Tree.List] returns at most
// [MaxListEntries] entries in at most [MaxListPageBytes] of JSON;
// [Tree.Read] serves UTF-8 files up to [MaxFileBytes] in pages of at most
// [MaxReadLines] lines and [MaxReadBytes] bytes. Pages are exact: the
// contents of consecutive reads concatenate to the file's bytes.
//
// # Errors
//
// Errors wrap sentinels ([ErrOutside], [ErrNotFound], [ErrIsDir], [ErrBinary],
// ...) for errors.Is, and [*ArgError] for a bad argument; front ends (the
// command line, the MCP server) add hints in their own words.
package navigate
