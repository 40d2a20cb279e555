package evidence

import (
	"math"
	"testing"
	"testing/fstest"
)

// On one log, the merged scale is the log's own: MergedScores gives each
// unit its record's score as the answer's ranking computes it before
// fusion (body BM25, the title bonus, the status prior), and two logs
// that hold the same records give each the same score.
func TestMergedScoresOfOneLogAreItsOwn(t *testing.T) {
	fsys := fstest.MapFS{
		name(1, "use-postgres"):   {Data: []byte(nygard(1, "Use Postgres for orders", "Accepted", "Orders are stored in Postgres."))},
		name(2, "cache-sessions"): {Data: []byte(nygard(2, "Cache sessions in Redis", "Proposed", "Sessions are cached in Redis, not in Postgres."))},
		name(3, "queue-emails"):   {Data: []byte(nygard(3, "Queue emails", "Accepted", "Emails go through a queue."))},
	}
	task := "orders and sessions in postgres"
	svc := &Service{Log: load(t, fsys), KeepIndexes: true}
	resp := answer(t, svc, Request{Task: task, Format: JSON})
	if len(resp.Units) < 2 {
		t.Fatalf("%d units, want 2 or more", len(resp.Units))
	}
	terms := MergeTerms(task, MergeAblation{})
	st := svc.WordStats(terms, resp.Units)
	other := &Service{Log: load(t, fsys)} // no kept indexes: made again
	st2 := other.WordStats(terms, resp.Units)
	scores := MergedScores(terms, []WordStats{st}, MergeAblation{})[0]
	both := MergedScores(terms, []WordStats{st, st2}, MergeAblation{})

	recs, ix, tix := svc.taskIndexes()
	q := terms
	body, title := ix.Scores(q), tix.Scores(q)
	for i, u := range resp.Units {
		d := -1
		for k, r := range recs {
			if r.Path == u.Path {
				d = k
			}
		}
		want := (body[d] + titleBonus*title[d]) * statusPrior[recs[d].Status]
		if math.Abs(scores[i]-want) > 1e-9 {
			t.Errorf("unit %s: merged %v, the log's own %v", u.ID, scores[i], want)
		}
		if both[0][i] != both[1][i] {
			t.Errorf("unit %s: %v in one log, %v in its copy", u.ID, both[0][i], both[1][i])
		}
	}
	if scores[0] <= 0 {
		t.Errorf("the best unit scores %v", scores[0])
	}
	// A log that answered nothing adds nothing; a unit whose record the
	// log does not hold (a path it has not) scores nothing.
	stray := svc.WordStats(terms, []Unit{{ID: "ADR-0099", Path: "doc/adr/0099-gone.md"}})
	with := MergedScores(terms, []WordStats{st, {}, stray}, MergeAblation{})
	if len(with[1]) != 0 || len(with[2]) != 1 || with[2][0] != 0 {
		t.Errorf("an empty answer scores %v, a unit of no record %v", with[1], with[2])
	}
	alone := MergedScores(terms, []WordStats{st, {}}, MergeAblation{})[0]
	for i := range scores {
		if alone[i] != scores[i] {
			t.Errorf("unit %d: %v beside an empty answer, %v alone", i, alone[i], scores[i])
		}
	}
}
