package adr

import (
	"crypto/sha256"
	"encoding/hex"
	"strings"
	"testing"
)

// referenceHashLines is hashLines as first written, over copied lines.
func referenceHashLines(t *Text, from, to int) string {
	for to > from && strings.TrimSpace(t.LineText(to-1)) == "" {
		to--
	}
	h := sha256.New()
	for i := from; i < to; i++ {
		h.Write([]byte(strings.TrimRight(t.LineText(i), " \t")))
		h.Write([]byte{'\n'})
	}
	return hex.EncodeToString(h.Sum(nil))
}

func FuzzHashLinesAgrees(f *testing.F) {
	for _, s := range []string{"# T\n\nbody  \n\t\n", "a\r\nb \t\r\n\r\n", "\u00a0\n x\u2003\n", "", "no newline"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		tx := NewText([]byte(s))
		n := len(tx.Lines)
		for from := 0; from <= n; from++ {
			for to := from; to <= n; to++ {
				if got, want := hashLines(tx, from, to), referenceHashLines(tx, from, to); got != want {
					t.Fatalf("hashLines(%q, %d, %d) = %s, want %s", s, from, to, got, want)
				}
			}
		}
	})
}
