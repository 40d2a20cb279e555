package guard

import (
	"errors"
	"testing"
)

func TestEditConfig(t *testing.T) {
	next, err := EditConfig(nil, Warn)
	if err != nil {
		t.Fatal(err)
	}
	if m, err := FileMode(next); err != nil || m != Warn {
		t.Errorf("EditConfig(nil, warn) = %q, reads back as %q, %v", next, m, err)
	}
	var be *BadConfigError
	if _, err := EditConfig([]byte("[guard\n"), Guard); !errors.As(err, &be) {
		t.Errorf("EditConfig of a file that does not parse = %v, want a *BadConfigError", err)
	}
}
