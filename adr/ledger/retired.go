package ledger

// Retired lists each record the ledger supersedes once, in the order the
// ledger first names it, with the records that supersede it, in order.
func (l Ledger) Retired() []Retirement {
	var out []Retirement
	at := map[string]int{}
	for _, p := range l.Supersedes {
		i, ok := at[p.Old]
		if !ok {
			i = len(out)
			at[p.Old] = i
			out = append(out, Retirement{Old: p.Old})
		}
		out[i].By = append(out[i].By, p.New)
	}
	return out
}

// Retirement is a record a ledger supersedes and the records that do.
type Retirement struct {
	Old string
	By  []string
}
