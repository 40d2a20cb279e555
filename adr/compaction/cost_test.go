package compaction

import (
	"math"
	"testing"

	"github.com/git-adr/git-adr/adr"
)

func TestVolumeEstimate(t *testing.T) {
	v := Volume{TokensO200k: 4000, Batches: 2}
	if c := v.Estimate(nil); c != (Cost{Input: 5200, Output: 1600}) {
		t.Errorf("unpriced: %+v", c)
	}
	cfg := &adr.Config{}
	cfg.Drafter.OpenAI.PriceInput, cfg.Drafter.OpenAI.PriceOutput = 2, 10
	c := v.Estimate(cfg)
	if !c.Priced || math.Abs(c.Money-(0.008+0.016)) > 1e-12 || c.Input != 5200 || c.Output != 1600 {
		t.Errorf("priced: %+v", c)
	}
}
