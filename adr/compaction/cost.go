package compaction

import "github.com/git-adr/git-adr/adr"

// Cost is what drafting may spend: tokens in and out, and, when the
// configuration prices the openai drafter's tokens, their price.
type Cost struct {
	Input, Output int
	// Money is in the configured currency; Priced says it is known.
	Money  float64
	Priced bool
}

// Estimate is what a drafter may spend reading v: the tokens it reads and
// 600 per batch for the brief in, a quarter of those it reads and 300 per
// batch out (output varies by model), priced by cfg's [drafter.openai]
// price_input_per_mtok and price_output_per_mtok (cfg may be nil).
func (v Volume) Estimate(cfg *adr.Config) Cost {
	c := Cost{Input: v.TokensO200k + 600*v.Batches, Output: v.TokensO200k/4 + 300*v.Batches}
	if cfg != nil && cfg.Drafter.OpenAI.PriceInput > 0 {
		c.Money = float64(v.TokensO200k)/1e6*cfg.Drafter.OpenAI.PriceInput + float64(c.Output)/1e6*cfg.Drafter.OpenAI.PriceOutput
		c.Priced = true
	}
	return c
}
