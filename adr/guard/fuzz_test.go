package guard

import (
	"path/filepath"
	"testing"
	"time"
)

// FuzzRecognise: any command parses or is refused as unparsable, quickly,
// without a panic, and every access it finds is relative to an absolute
// directory (or the repository's top); judging it never panics either.
func FuzzRecognise(f *testing.F) {
	for _, c := range shellCases {
		f.Add(c.cmd)
	}
	for _, s := range []string{"", "'", "$(", "${x:-$(cat a)}", "for f in; do :; done", "find -exec", "xargs -I", "a=(x y); cat ${a[@]}",
		"cat {a,b}{c,d}{e,f}{g,h}{i,j}", "f() { cat \"$1\"; }; f doc/adr/archive/x", "cat $((1+2))", "case x in x) cat y;; esac", "coproc cat x"} {
		f.Add(s)
	}
	fx := newFixture(f, Guard)
	f.Fuzz(func(t *testing.T, cmd string) {
		start := time.Now()
		rec := Recognise(cmd, fx.top)
		for _, a := range rec.Accesses {
			if a.Dir != "" && !filepath.IsAbs(a.Dir) {
				t.Fatalf("access %+v of %q has a relative directory", a, cmd)
			}
		}
		fx.shell(cmd)
		if d := time.Since(start); d > 5*time.Second {
			t.Fatalf("%q took %s", cmd, d)
		}
	})
}
