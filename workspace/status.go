package workspace

// MemberStatus is what `git adr workspace ls` shows of a member: how
// many records it holds and what is read, or why it cannot be read.
type MemberStatus struct {
	Member *Member
	// Records counts the member's records, archived ones included.
	Records int
	// Commit is the commit read ("" for a work tree).
	Commit string
	// Err is why the member's log could not be read (ErrNotSynced for a
	// mirror not fetched yet); Records and Commit are then unset.
	Err error
}

// Status opens every member in turn, lazily (records are counted, not
// parsed), and says what each holds.
func (w *Workspace) Status() []MemberStatus {
	out := make([]MemberStatus, 0, len(w.Members))
	for _, m := range w.Members {
		st := MemberStatus{Member: m}
		ld, err := m.Open(true)
		if err != nil {
			st.Err = err
		} else {
			st.Records, st.Commit = len(ld.Log.Records), ld.Commit
			ld.Close()
		}
		out = append(out, st)
	}
	return out
}
