//go:build !linux

package adr

import "io/fs"

// fileStat reports no stat data here: work-tree files are read and
// hashed, and only their parsing is saved.
func fileStat(fs.FS, string, fs.DirEntry) (statKey, statEntry, bool) {
	return statKey{}, statEntry{}, false
}

// infoStat reports no stat data here (see fileStat).
func infoStat(string, fs.FileInfo) (statKey, statEntry, bool) {
	return statKey{}, statEntry{}, false
}

// statSig reports no stat data here: detection scans every time.
func statSig(fs.FileInfo) (pathSig, bool) { return pathSig{}, false }
