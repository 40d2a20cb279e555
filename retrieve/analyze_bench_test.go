package retrieve

import (
	"strings"
	"testing"

	"github.com/git-adr/git-adr/internal/corpora"
)

// benchTexts times f over every text, as bytes the first prefix bytes of
// each (all of it when prefix is 0).
func benchTexts(b *testing.B, prefix int, f func(string)) {
	texts := corpora.Texts(b)
	size := 0
	for i, t := range texts {
		if prefix > 0 {
			texts[i] = t[:min(len(t), prefix)]
		}
		size += len(texts[i])
	}
	b.SetBytes(int64(size))
	b.ResetTimer()
	for b.Loop() {
		for _, t := range texts {
			f(t)
		}
	}
}

// BenchmarkAnalyzeCorpora analyses every record of the corpora as a cold
// context query does: its language detected from its first 4,000 bytes,
// then its terms counted.
func BenchmarkAnalyzeCorpora(b *testing.B) {
	benchTexts(b, 0, func(t string) {
		Analyze(Doc{Lang: DetectLanguage(t[:min(len(t), 4000)]), Fields: []Field{{Text: t}}})
	})
}

// BenchmarkDetectLanguage detects the language of the first 4,000 bytes of
// every record of the corpora.
func BenchmarkDetectLanguage(b *testing.B) {
	benchTexts(b, 4000, func(t string) { DetectLanguage(t) })
}

// BenchmarkCount counts the terms of every record of the corpora, in
// English, without detecting their language.
func BenchmarkCount(b *testing.B) {
	benchTexts(b, 0, func(t string) { Analyze(Doc{Fields: []Field{{Text: t}}}) })
}

// BenchmarkAppendIndex stores an index of the corpora's records, each in
// three fields of different weights, as a cold context query stores its
// task index.
func BenchmarkAppendIndex(b *testing.B) {
	ix := weightedCorpusIndex(corpora.Texts(b))
	b.ResetTimer()
	for b.Loop() {
		AppendIndex(nil, ix)
	}
}

// weightedCorpusIndex indexes texts as documents of three fields: the
// first line (weight 2), the next 200 bytes (1.5) and the rest.
func weightedCorpusIndex(texts []string) *Index {
	docs := make([]Doc, len(texts))
	for i, t := range texts {
		first, rest, _ := strings.Cut(t, "\n")
		mid := rest[:min(len(rest), 200)]
		docs[i] = Doc{ID: strings.Repeat("x", i%7) + first, Fields: []Field{{Text: first, Weight: 2}, {Text: mid, Weight: 1.5}, {Text: rest[len(mid):]}}}
	}
	return NewIndex(docs)
}

// BenchmarkAbbreviations finds the abbreviations every record of the
// corpora defines, as a cold context query does for each record.
func BenchmarkAbbreviations(b *testing.B) {
	texts := corpora.Texts(b)
	size := 0
	for _, t := range texts {
		size += len(t)
	}
	b.SetBytes(int64(size))
	b.ResetTimer()
	for b.Loop() {
		for _, t := range texts {
			Abbreviations(t, English)
		}
	}
}
