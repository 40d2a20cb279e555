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
	st := svc.WordStats(task, resp.Units, MergeAblation{})
	other := &Service{Log: load(t, fsys)} // no kept indexes: made again
	st2 := other.WordStats(task, resp.Units, MergeAblation{})
	scores := MergedScores([]WordStats{st}, MergeAblation{})[0]
	both := MergedScores([]WordStats{st, st2}, MergeAblation{})

	recs, ix, tix := svc.taskIndexes()
	q := st.Terms
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
}
