package ledger

import (
	"reflect"
	"testing"
)

func TestRetired(t *testing.T) {
	l := Ledger{Supersedes: []Pair{{New: "ADR-0009", Old: "ADR-0002"}, {New: "ADR-0009", Old: "ADR-0004"}, {New: "ADR-0010", Old: "ADR-0002"}}}
	want := []Retirement{{Old: "ADR-0002", By: []string{"ADR-0009", "ADR-0010"}}, {Old: "ADR-0004", By: []string{"ADR-0009"}}}
	if got := l.Retired(); !reflect.DeepEqual(got, want) {
		t.Errorf("Retired = %+v, want %+v", got, want)
	}
	if got := (Ledger{}).Retired(); got != nil {
		t.Errorf("Retired of no supersession = %+v", got)
	}
}
