// Command plainbm25 is the plainest cold answer to a task over a log: it
// reads every file of a folder, splits each into lower-cased words, and
// ranks the files for the task with BM25 (k1 1.2, b 0.75), printing the
// best five. It parses nothing, stems nothing, caches nothing and writes
// nothing. scripts/bench times it beside a cold `git adr context --task`
// as the floor of that row:
//
//	plainbm25 [-task-words] DIR TASK
//
// With -task-words it counts only the task's words in each file (a
// grep-like scan, the least work that can rank every file); without it,
// it indexes every word of every file first, as anything that keeps an
// index for the next question must.
package main

import (
	"bytes"
	"flag"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
)

func main() {
	taskWords := flag.Bool("task-words", false, "count only the task's words")
	flag.Parse()
	if flag.NArg() != 2 {
		fmt.Fprintln(os.Stderr, "usage: plainbm25 [-task-words] DIR TASK")
		os.Exit(2)
	}
	hits, err := rank(flag.Arg(0), flag.Arg(1), *taskWords)
	if err != nil {
		fmt.Fprintln(os.Stderr, "plainbm25:", err)
		os.Exit(1)
	}
	for _, h := range hits[:min(5, len(hits))] {
		fmt.Printf("%.3f %s\n", h.score, h.name)
	}
}

type doc struct {
	name string
	n    int            // words
	tf   map[string]int // every word, or the task's words only
}

type hit struct {
	name  string
	score float64
}

func rank(dir, task string, taskWords bool) ([]hit, error) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var query []string
	words(lowerInPlace([]byte(task)), func(w []byte) {
		if !slices.Contains(query, string(w)) {
			query = append(query, string(w))
		}
	})
	docs := make([]doc, len(ents))
	errs := make([]error, len(ents))
	var wg sync.WaitGroup
	workers := runtime.GOMAXPROCS(0)
	for k := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			// Each worker keeps one copy of every word it has seen: the
			// index holds its vocabulary, not every file's text.
			intern := map[string]string{}
			for i := k; i < len(ents); i += workers {
				if !ents[i].Type().IsRegular() {
					continue
				}
				data, err := os.ReadFile(filepath.Join(dir, ents[i].Name()))
				if err != nil {
					errs[i] = err
					continue
				}
				data = lowerInPlace(data)
				d := doc{name: ents[i].Name(), tf: map[string]int{}}
				words(data, func(w []byte) {
					d.n++
					if !taskWords {
						key, ok := intern[string(w)]
						if !ok {
							key = string(w)
							intern[key] = key
						}
						d.tf[key]++
						return
					}
					for _, q := range query {
						if string(w) == q {
							d.tf[q]++
						}
					}
				})
				docs[i] = d
			}
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	df := map[string]int{}
	total, count := 0, 0
	for _, d := range docs {
		if d.tf == nil {
			continue
		}
		count++
		total += d.n
		for _, q := range query {
			if d.tf[q] > 0 {
				df[q]++
			}
		}
	}
	if count == 0 {
		return nil, fmt.Errorf("no file in %s", dir)
	}
	avg := float64(total) / float64(count)
	var hits []hit
	for _, d := range docs {
		if d.tf == nil {
			continue
		}
		s := 0.0
		for _, q := range query {
			f := float64(d.tf[q])
			if f == 0 {
				continue
			}
			idf := math.Log(1 + (float64(count)-float64(df[q])+0.5)/(float64(df[q])+0.5))
			s += idf * f * 2.2 / (f + 1.2*(0.25+0.75*float64(d.n)/avg))
		}
		hits = append(hits, hit{d.name, s})
	}
	slices.SortStableFunc(hits, func(a, b hit) int {
		switch {
		case a.score > b.score:
			return -1
		case a.score < b.score:
			return 1
		}
		return strings.Compare(a.name, b.name)
	})
	return hits, nil
}

// lowerInPlace lower-cases b, in place when it is ASCII.
func lowerInPlace(b []byte) []byte {
	for i, c := range b {
		switch {
		case c >= utf8.RuneSelf:
			return bytes.ToLower(b)
		case c >= 'A' && c <= 'Z':
			b[i] = c + 'a' - 'A'
		}
	}
	return b
}

// words calls fn for every run of letters and digits in s.
func words(s []byte, fn func([]byte)) {
	start := -1
	for i := 0; i < len(s); {
		r, size := rune(s[i]), 1
		if r >= utf8.RuneSelf {
			r, size = utf8.DecodeRune(s[i:])
		}
		word := r < utf8.RuneSelf && (r >= 'a' && r <= 'z' || r >= '0' && r <= '9') ||
			r >= utf8.RuneSelf && (unicode.IsLetter(r) || unicode.IsDigit(r))
		switch {
		case word && start < 0:
			start = i
		case !word && start >= 0:
			fn(s[start:i])
			start = -1
		}
		i += size
	}
	if start >= 0 {
		fn(s[start:])
	}
}
