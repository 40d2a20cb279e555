// Command gen writes o200k.bin, the o200k_base vocabulary internal/o200k
// embeds, from github.com/tiktoken-go/tokenizer's: every token's bytes, in
// rank order. Run it from internal/o200k: go run ./gen
package main

import (
	"bytes"
	"fmt"
	"os"

	"github.com/tiktoken-go/tokenizer"
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
		if len(t) == 0 || len(t) > 255 {
			return fmt.Errorf("token %d is %d bytes long", rank, len(t))
		}
		tokens = append(tokens, t)
	}
	var b bytes.Buffer
	b.WriteString("o200k_base v1\n")
	fmt.Fprintf(&b, "%d\n", len(tokens))
	for _, t := range tokens {
		b.WriteByte(byte(len(t)))
		b.WriteString(t)
	}
	return os.WriteFile("o200k.bin", b.Bytes(), 0o644)
}
