package main

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/git-adr/git-adr/adr"
	"github.com/git-adr/git-adr/adr/evidence"
)

// BenchmarkLoad times what every git-adr command starts with: discovering
// the roots and parsing every record of a generated log. Run it with
// -cpuprofile to see where `git adr list` and `git adr new` spend their
// time on large logs:
//
//	go test ./scripts/bench -run '^$' -bench Load/10000 -cpuprofile cpu.out
//	go tool pprof -top scripts/bench.test cpu.out
func BenchmarkLoad(b *testing.B) {
	for _, n := range []int{1000, 10000} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			dir := generatedLog(b, n)
			fsys := os.DirFS(dir)
			b.ResetTimer()
			for b.Loop() {
				l, err := adr.Load(fsys, adr.LoadOptions{})
				if err != nil {
					b.Fatal(err)
				}
				if len(l.Records) != n {
					b.Fatalf("loaded %d records, want %d", len(l.Records), n)
				}
			}
		})
	}
}

// BenchmarkLoadCached is BenchmarkLoad with a warm parse cache: every
// record served by its stat data, unread and unparsed (the setup waits out
// the two-second margin within which a file's stat data are not trusted).
func BenchmarkLoadCached(b *testing.B) {
	for _, n := range []int{1000, 10000} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			fsys, cdir := servedLog(b, n)
			b.ResetTimer()
			for b.Loop() {
				l, err := adr.Load(fsys, adr.LoadOptions{Cache: adr.OpenCache(cdir, true)})
				if err != nil {
					b.Fatal(err)
				}
				if len(l.Records) != n {
					b.Fatalf("loaded %d records, want %d", len(l.Records), n)
				}
			}
		})
	}
}

// BenchmarkTask times the ranking and packing of `context --task` over a
// loaded log, with the term cache warm and without it (every record
// analysed).
func BenchmarkTask(b *testing.B) {
	for _, n := range []int{1000, 10000} {
		dir := generatedLog(b, n)
		l, err := adr.Load(os.DirFS(dir), adr.LoadOptions{})
		if err != nil {
			b.Fatal(err)
		}
		req := evidence.Request{Task: benchTask, Format: evidence.Text}
		for _, warm := range []bool{true, false} {
			name := fmt.Sprintf("%d/cold", n)
			svc := &evidence.Service{Log: l}
			if warm {
				name = fmt.Sprintf("%d/warm", n)
				svc.CacheDir = b.TempDir()
				if _, _, err := svc.Answer(req); err != nil {
					b.Fatal(err)
				}
			}
			b.Run(name, func(b *testing.B) {
				for b.Loop() {
					if _, _, err := svc.Answer(req); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// BenchmarkParse times the parser alone on the records of a generated log.
func BenchmarkParse(b *testing.B) {
	recs := Generate(1000, 1)
	srcs := make([][]byte, len(recs))
	size := 0
	for i, r := range recs {
		srcs[i] = r.Render()
		size += len(srcs[i])
	}
	b.SetBytes(int64(size))
	for b.Loop() {
		for _, s := range srcs {
			adr.Parse(s)
		}
	}
}

// BenchmarkTaskCold is the work of a cold `context --task`, in process:
// the load through an empty parse cache, every record analysed as it is
// read and its text let go of (evidence.Preanalysis, as the command
// does), the parse cache saved, then the answer with an empty term cache
// (both indexes made in their stored form, the term cache and the task
// index written). Its -memprofile shows what the cold row's peak RSS is
// made of:
//
//	go test ./scripts/bench -run '^$' -bench 'TaskCold/10000' -benchtime 3x -memprofile /tmp/mem.out
//	go tool pprof -sample_index=alloc_space -top bench.test /tmp/mem.out
func BenchmarkTaskCold(b *testing.B) {
	for _, n := range []int{1000, 10000} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			dir := generatedLog(b, n)
			fsys := os.DirFS(dir)
			req := evidence.Request{Task: benchTask, Format: evidence.Text}
			b.ReportAllocs()
			b.ResetTimer()
			for b.Loop() {
				b.StopTimer()
				cdir := filepath.Join(b.TempDir(), "cache")
				b.StartTimer()
				c := adr.OpenCache(cdir, false)
				pre := evidence.NewPreanalysis(cdir)
				l, err := adr.Load(fsys, adr.LoadOptions{Cache: c, Parsed: pre.Parsed})
				if err != nil {
					b.Fatal(err)
				}
				if err := c.Save(); err != nil {
					b.Fatal(err)
				}
				if _, _, err := (&evidence.Service{Log: l, CacheDir: cdir, ReleaseTexts: true, Preanalysis: pre}).Answer(req); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkCheck is the work of `git adr check` on the log itself, in
// process: the load through a warm parse cache, as a second run of the
// command loads it (every record served by its stat data, with what
// check reads of its text), then [adr.Log.Check]. Its -memprofile shows what
// check allocates and holds beyond the log:
//
//	go test ./scripts/bench -run '^$' -bench 'Check/10000' -benchtime 5x -memprofile /tmp/mem.out
//	go tool pprof -sample_index=alloc_space -top bench.test /tmp/mem.out
func BenchmarkCheck(b *testing.B) {
	for _, n := range []int{1000, 10000} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			fsys, cdir := servedLog(b, n)
			b.ReportAllocs()
			b.ResetTimer()
			for b.Loop() {
				l, err := adr.Load(fsys, adr.LoadOptions{Cache: adr.OpenCache(cdir, true)})
				if err != nil {
					b.Fatal(err)
				}
				if rep := l.Check(adr.CheckOptions{}); rep.Counts == nil {
					b.Fatal("check returned no counts")
				}
			}
		})
	}
}

// servedLog is the generated log of n records with a parse cache that
// serves every record by its stat data, as a second run of a command
// finds it (it waits out the two-second margin within which a file's
// stat data are not trusted, twice: the second save dates the entries).
func servedLog(b *testing.B, n int) (fs.FS, string) {
	b.Helper()
	fsys := os.DirFS(generatedLog(b, n))
	cdir := filepath.Join(b.TempDir(), "cache")
	time.Sleep(2100 * time.Millisecond)
	for range 2 {
		c := adr.OpenCache(cdir, false)
		if _, err := adr.Load(fsys, adr.LoadOptions{Cache: c}); err != nil {
			b.Fatal(err)
		}
		if err := c.Save(); err != nil {
			b.Fatal(err)
		}
		time.Sleep(2100 * time.Millisecond)
	}
	return fsys, cdir
}

// generatedLog writes the generated log of n records (seed 1) under
// doc/adr of a new folder and returns the folder.
func generatedLog(b *testing.B, n int) string {
	b.Helper()
	dir := b.TempDir()
	if err := WriteLog(filepath.Join(dir, "doc", "adr"), Generate(n, 1)); err != nil {
		b.Fatal(err)
	}
	return dir
}
