// Package retrieve ranks text by the words of a request: the analysis
// (Unicode word splitting, identifier splitting, diacritic folding, stop
// words, stemming, CJK bigrams), a BM25F index over fielded documents, a
// small software-architecture thesaurus for paraphrased requests, and
// bounded retrieval of line-numbered excerpts from source files saved on
// disk.
//
// Everything is deterministic: equal scores are broken by document order,
// so the same request over the same files gives the same answer.
package retrieve
