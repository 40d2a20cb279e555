package adr

import (
	"io/fs"
	"path"
	"sort"
)

// BranchTree is the tree of another branch (local or remote-tracking).
type BranchTree struct {
	Ref string
	FS  fs.FS
}

// BranchRecord is a numbered record file seen in a root on another branch.
// Only file names are read: the number lives there, so this stays cheap
// however many branches exist.
type BranchRecord struct {
	Ref    string
	Root   *Root
	Path   string
	Number int
	Suffix string
}

// ScanBranches lists the numbered record files of every root (archive/
// and archive/<year>/ included) on every branch tree.
func ScanBranches(trees []BranchTree, roots []*Root) []BranchRecord {
	var out []BranchRecord
	for _, t := range trees {
		for _, root := range roots {
			dirs := []string{dirOrDot(root.Path), path.Join(dirOrDot(root.Path), ArchiveDir)}
			for i := 0; i < len(dirs); i++ {
				dir := dirs[i]
				entries, err := fs.ReadDir(t.FS, dir)
				if err != nil {
					continue
				}
				for _, e := range entries {
					if i == 1 && e.IsDir() && IsArchiveYear(e.Name()) {
						dirs = append(dirs, path.Join(dir, e.Name())) // archive/<year>/
					}
					if !e.Type().IsRegular() || !isRecordFileName(e.Name()) {
						continue
					}
					fn := parseFileName(e.Name())
					if !fn.Numbered {
						continue
					}
					p := path.Join(dir, e.Name())
					if dir == "." {
						p = e.Name()
					}
					out = append(out, BranchRecord{Ref: t.Ref, Root: root, Path: p, Number: fn.Number, Suffix: fn.Suffix})
				}
			}
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].Ref != out[j].Ref {
			return out[i].Ref < out[j].Ref
		}
		return out[i].Path < out[j].Path
	})
	return out
}

// NextNumber returns the number a new record in root gets: one past every
// number in the root's live and archived records, in the files of the root
// it does not read as records (records of another format; see
// [Root.SkippedNumbers]), in the same root on every scanned branch, and in
// reserved (numbers held by plans). IDs are never reused, so gaps stay
// gaps.
func NextNumber(root *Root, branches []BranchRecord, reserved []int) int {
	max := -1
	for _, r := range root.Records {
		if r.Numbered && r.Number > max {
			max = r.Number
		}
	}
	for _, n := range root.SkippedNumbers() {
		if n > max {
			max = n
		}
	}
	for _, b := range branches {
		if b.Root == root && b.Number > max {
			max = b.Number
		}
	}
	for _, n := range reserved {
		if n > max {
			max = n
		}
	}
	if max < 0 {
		// An empty log starts at 1, as adr-tools does; a log that starts
		// at 0 (MADR) continues from 0 above.
		return 1
	}
	return max + 1
}
