package adr

import (
	"testing"
	"testing/fstest"
)

func TestSameTitle(t *testing.T) {
	fsys := fstest.MapFS{
		"doc/adr/0001-use-postgresql.md":           {Data: []byte("# 1. Use PostgreSQL\n\n## Status\n\nAccepted\n")},
		"doc/adr/archive/0002-cache-reads.md":      {Data: []byte("# 2. Cache  reads\n\n## Status\n\nSuperseded\n")},
		"services/adr/0001-use-redis-cache.md":     {Data: []byte("# 1. Use Redis cache\n\n## Status\n\nAccepted\n")},
		"services/adr/0002-something-else-here.md": {Data: []byte("# 2. Something else\n\n## Status\n\nProposed\n")},
	}
	l, err := Load(fsys, LoadOptions{Roots: []string{"doc/adr", "services/adr"}})
	if err != nil {
		t.Fatal(err)
	}
	doc, svc := l.Roots[0], l.Roots[1]
	if r := l.SameTitle(doc, "  use   postgresql "); r == nil || r.Path != "doc/adr/0001-use-postgresql.md" {
		t.Errorf("SameTitle ignoring case and spacing = %v", r)
	}
	if r := l.SameTitle(doc, "Cache reads"); r == nil || r.Path != "doc/adr/archive/0002-cache-reads.md" {
		t.Errorf("SameTitle of an archived record = %v", r)
	}
	if r := l.SameTitle(svc, "Use PostgreSQL"); r != nil {
		t.Errorf("SameTitle found %s in another root", r.Path)
	}
	if r := l.SameTitle(doc, "Use PostgreSQL for storage"); r != nil {
		t.Errorf("SameTitle of another title = %s", r.Path)
	}
}
