package evidence

import "github.com/git-adr/git-adr/adr"

// ConfigLimits gives the request the limits cfg's [context] section sets
// (max_units, max_chars) for those it leaves at 0, the default; cfg may be
// nil.
func (r *Request) ConfigLimits(cfg *adr.Config) {
	if cfg == nil {
		return
	}
	if r.MaxUnits == 0 {
		r.MaxUnits = cfg.Context.MaxUnits
	}
	if r.MaxChars == 0 {
		r.MaxChars = cfg.Context.MaxChars
	}
}
