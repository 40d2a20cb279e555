package adr

// Tally counts the report's findings that are errors and warnings.
func (r *CheckReport) Tally() (errs, warns int) {
	for _, f := range r.Findings {
		if f.Warning {
			warns++
		} else {
			errs++
		}
	}
	return errs, warns
}

// Fails reports whether check fails with the report: on an error, or on
// a warning when the configuration ([check] warnings = "error") says
// warnings fail too.
func (r *CheckReport) Fails(cfg *Config) bool {
	errs, warns := r.Tally()
	strict := cfg != nil && cfg.Check.Warnings == "error"
	return errs > 0 || strict && warns > 0
}
