package main

import (
	"os"
	"path/filepath"
	"testing"
)

// Both modes rank by the same BM25 over the same words: counting only the
// task's words changes the work, not the scores.
func TestRankModesAgree(t *testing.T) {
	dir := t.TempDir()
	for name, text := range map[string]string{
		"0001-use-postgresql.md": "# 1. Use PostgreSQL\n\nWe store orders in PostgreSQL, not MySQL.\n",
		"0002-use-kafka.md":      "# 2. Use Kafka\n\nEvents go through Kafka. Orders are events too.\n",
		"0003-logging.md":        "# 3. Logging\n\nLogs are JSON lines.\n",
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	every, err := rank(dir, "Replace MySQL with PostgreSQL for ORDER storage", false)
	if err != nil {
		t.Fatal(err)
	}
	only, err := rank(dir, "Replace MySQL with PostgreSQL for ORDER storage", true)
	if err != nil {
		t.Fatal(err)
	}
	if len(every) != 3 || every[0].name != "0001-use-postgresql.md" || every[2].score != 0 {
		t.Fatalf("ranking %+v; want the PostgreSQL record first and the logging one scoring 0", every)
	}
	for i := range every {
		if every[i] != only[i] {
			t.Errorf("rank %d: every word %+v, task words %+v", i, every[i], only[i])
		}
	}
}
