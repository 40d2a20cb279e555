// Command gen writes o200k.bin, the o200k_base vocabulary internal/o200k
// embeds, from github.com/tiktoken-go/tokenizer's: every token's bytes, in
// rank order, with their table of ranks (o200k.Encode). Run it from
// internal/o200k: go run ./gen
package main

import (
	"fmt"
	"os"

	"github.com/tiktoken-go/tokenizer"

	"github.com/git-adr/git-adr/internal/o200k"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
}

func run() error {
	enc, err := tokenizer.Get(tokenizer.O200kBase)
	if err != nil {
		return err
	}
	// The ranks are dense from 0; the special tokens, past them, are not
	// in the vocabulary a count uses.
	var tokens []string
	for rank := uint(0); ; rank++ {
		t, err := enc.Decode([]uint{rank})
		if err != nil {
			break
		}
		tokens = append(tokens, t)
	}
	b, err := o200k.Encode(tokens)
	if err != nil {
		return err
	}
	return os.WriteFile("o200k.bin", []byte(b), 0o644)
}
