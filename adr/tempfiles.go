package adr

import (
	"os"
	"path"
)

// RemoveTempFiles removes git-adr's temporary files (see [IsTempName])
// from the folders of roots and their archives, in the work tree at top,
// and returns the paths it removed. The caller holds the project lock: no
// run is writing then, so every such file is a leftover of a run that
// was killed (older versions staged files in the work tree first).
func RemoveTempFiles(top string, roots []*Root) ([]string, error) {
	root, err := os.OpenRoot(top)
	if err != nil {
		return nil, err
	}
	defer root.Close()
	var removed []string
	for _, rt := range roots {
		for _, dir := range []string{rt.Dir(), rt.Join(ArchiveDir)} {
			entries, err := readDirIn(root, dir)
			if err != nil {
				continue
			}
			for _, e := range entries {
				if e.Type().IsRegular() && IsTempName(e.Name()) {
					p := path.Join(dir, e.Name())
					if err := root.Remove(p); err == nil {
						removed = append(removed, p)
					}
				}
			}
		}
	}
	return removed, nil
}

func readDirIn(root *os.Root, dir string) ([]os.DirEntry, error) {
	f, err := root.Open(dir)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return f.ReadDir(-1)
}
