package archive

// Skip records that the archive part of an acceptance, p as approved
// (stored in planCommit), was not carried out, and why: a new revision in
// state Skipped. p itself is left as it was.
func (s *Store) Skip(p *Plan, planCommit, why string) error {
	skipped := *p
	skipped.State, skipped.Reason = Skipped, why
	_, err := s.Save(&skipped, nil, planCommit)
	return err
}
