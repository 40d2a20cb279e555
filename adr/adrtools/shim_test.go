package adrtools

import (
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

// The shim is written once, found in place the next time, and a file in
// the way stops it unless forced.
func TestInstallShim(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("copies only on Windows")
	}
	dir := t.TempDir()
	self := filepath.Join(dir, "git-adr")
	os.WriteFile(self, []byte("binary"), 0o755)
	bin := filepath.Join(dir, "bin")
	os.Mkdir(bin, 0o755)
	res, err := InstallShim(bin, self, ShimOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Installed) != 2 || res.Installed[0].Status != "written" || res.Installed[0].Kind != "symlink" {
		t.Fatalf("InstallShim = %+v", res)
	}
	if res, err = InstallShim(bin, self, ShimOptions{}); err != nil || res.Installed[1].Status != "unchanged" {
		t.Errorf("InstallShim again = %+v, %v; want unchanged", res, err)
	}
	in := filepath.Join(dir, "in")
	os.Mkdir(in, 0o755)
	os.WriteFile(filepath.Join(in, "adr"), []byte("#!/bin/sh\n"), 0o755)
	var ie *InTheWayError
	if _, err := InstallShim(in, self, ShimOptions{}); !errors.As(err, &ie) || ie.What != "a file" {
		t.Errorf("InstallShim over a file = %v, want an *InTheWayError", err)
	}
	if res, err := InstallShim(in, self, ShimOptions{Force: true, Copy: true}); err != nil || res.Installed[0].Kind != "copy" {
		t.Errorf("InstallShim --force --copy = %+v, %v", res, err)
	}
	if data, _ := os.ReadFile(filepath.Join(in, "adr")); string(data) != "binary" {
		t.Errorf("the forced copy holds %q", data)
	}
}

// A plan's writes inside the work tree become changes; those outside stay
// a plan of their own.
func TestPlanInWorkTree(t *testing.T) {
	top := t.TempDir()
	p := Plan{Writes: []Write{{Path: "doc/adr/0001-a.md", Data: []byte("a")}, {Path: "../outside.md", Data: []byte("b")}}}
	changes, outside, err := p.InWorkTree(top, top)
	if err != nil {
		t.Fatal(err)
	}
	if len(changes) != 1 || changes[0].Path != "doc/adr/0001-a.md" || len(outside.Writes) != 1 || outside.Writes[0].Path != "../outside.md" {
		t.Errorf("InWorkTree = %+v, %+v", changes, outside)
	}
	if !Writes([]string{"new", "x"}) || Writes([]string{"list"}) || Writes(nil) {
		t.Error("Writes is wrong about new, list or nothing")
	}
}
