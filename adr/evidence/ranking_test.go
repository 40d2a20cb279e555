package evidence

import (
	"fmt"
	"math"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/git-adr/git-adr/retrieve"
)

// record renders an adr-tools record with free sections.
func record(n int, title, status string, sections ...string) string {
	var b strings.Builder
	b.WriteString("# ")
	b.WriteString(title)
	b.WriteString("\n\nDate: 2026-01-01\n\n## Status\n\n" + status + "\n")
	for _, s := range sections {
		b.WriteString("\n" + s + "\n")
	}
	return b.String()
}

func unitIDs(r *Response) []string {
	var ids []string
	for _, u := range r.Units {
		ids = append(ids, u.ID)
	}
	return ids
}

// TestDecisionFirst: a record whose options and context match the task
// more than its one-line decision answers with the window that matches
// best, and its decision is in the answer too: within that window, or
// right after it.
func TestDecisionFirst(t *testing.T) {
	options := "## Considered Options\n\n" + strings.Repeat("Redis or Memcached as the cache for order reads: Redis keeps the cache warm across restarts, Memcached evicts the cache under load. ", 6)
	fsys := fstest.MapFS{
		name(1, "cache"): {Data: []byte(record(1, "1. Cache order reads", "Accepted",
			"## Context\n\nOrder reads are slow; a cache for order reads is needed.", options,
			"## Decision\n\nWe use Redis.", "## Consequences\n\nA cache to run."))},
		name(2, "cache-ttl"): {Data: []byte(record(2, "2. Cache entries expire", "Accepted",
			"## Decision\n\nThe Redis cache for order reads expires entries after five minutes."))},
	}
	svc := &Service{Log: load(t, fsys)}
	resp := answer(t, svc, Request{Task: "which cache do order reads use, Redis or Memcached"})
	ids := unitIDs(resp)
	if len(ids) < 2 || strings.Split(ids[0], "#")[0] != "ADR-0001" || !strings.Contains(strings.Join(ids, " "), "ADR-0002#decision") {
		t.Fatalf("units %v: want ADR-0001 first, then ADR-0002's decision", ids)
	}
	var first strings.Builder
	for _, u := range resp.Units {
		if strings.Split(u.ID, "#")[0] == "ADR-0001" {
			first.WriteString(u.Text)
		}
	}
	if !strings.Contains(first.String(), "We use Redis.") || !strings.Contains(first.String(), "Redis keeps the cache warm") {
		t.Errorf("ADR-0001 sends %q: want the options that match and the decision", first.String())
	}
	// Its decision alone, when the window that matches best is far from
	// it: the decision follows the window.
	far := record(3, "3. Cache order reads", "Accepted",
		"## Context\n\nOrder reads are slow; a cache for order reads is needed.", options,
		"## Consequences\n\n"+strings.Repeat("Operations run the cache. ", 60), "## Decision\n\nWe use Redis.")
	svc = &Service{Log: load(t, fstest.MapFS{name(3, "cache"): {Data: []byte(far)}})}
	resp = answer(t, svc, Request{Task: "which cache do order reads use, Redis or Memcached"})
	if ids := unitIDs(resp); len(ids) != 2 || ids[1] != "ADR-0003#decision" || resp.Units[1].Text != "We use Redis.\n" {
		t.Errorf("units %v: want the best window, then ADR-0003#decision", ids)
	}
	// --rationale still leads with what the intent asks for.
	resp = answer(t, svc, Request{Task: "which cache do order reads use, Redis or Memcached", Intent: Rationale})
	if len(resp.Units) == 0 {
		t.Fatal("no units")
	}
}

// TestNotInForceRankedAfter: records no longer binding (rejected,
// superseded, deprecated) come after the others and say so, unless they
// match more than twice as well; a proposed record is live evidence,
// ranked by its match and labelled; with --history all rank by score.
func TestNotInForceRankedAfter(t *testing.T) {
	fsys := fstest.MapFS{
		name(1, "proposed-queue"): {Data: []byte(record(1, "1. Queue orders in Kafka", "Proposed",
			"## Decision\n\nOrders are queued in Kafka topics before billing reads the order queue."))},
		name(2, "queue"): {Data: []byte(record(2, "2. Queue orders", "Accepted",
			"## Decision\n\nOrders are queued before billing."))},
		name(3, "rejected-lambda"): {Data: []byte(record(3, "3. Run billing in AWS Lambda functions", "Rejected",
			"## Decision\n\nWe will not run billing in AWS Lambda functions: Lambda cold starts and Lambda limits rule it out."))},
		name(4, "billing-service"): {Data: []byte(record(4, "4. Billing service", "Accepted",
			"## Decision\n\nBilling runs as a service."))},
	}
	svc := &Service{Log: load(t, fsys)}
	resp := answer(t, svc, Request{Task: "queue orders in kafka before billing"})
	ids := unitIDs(resp)
	if len(ids) < 2 || ids[0] != "ADR-0001#decision" || ids[1] != "ADR-0002#decision" {
		t.Fatalf("units %v: the proposed record that matches best first, labelled", ids)
	}
	for _, u := range resp.Units {
		switch u.ID {
		case "ADR-0001#decision":
			if u.InForce == nil || *u.InForce || u.Note != "proposed" || !strings.Contains(u.Role, "proposed") {
				t.Errorf("the proposed record is not labelled: %+v", u)
			}
		case "ADR-0002#decision":
			if u.InForce == nil || !*u.InForce || u.Note != "" {
				t.Errorf("the accepted record is labelled: %+v", u)
			}
		}
	}
	// A rejected record that matches far better than anything in force
	// still comes first, labelled.
	resp = answer(t, svc, Request{Task: "may billing run in AWS Lambda functions"})
	if len(resp.Units) == 0 || resp.Units[0].ID != "ADR-0003#decision" || *resp.Units[0].InForce {
		t.Errorf("units %v: the rejected record that answers the question first", unitIDs(resp))
	}
	// A rejected record that matches better, but not twice as well,
	// comes after the record in force.
	resp = answer(t, svc, Request{Task: "run billing service in AWS Lambda"})
	if ids := unitIDs(resp); len(ids) < 2 || ids[0] != "ADR-0004#decision" || ids[1] != "ADR-0003#decision" {
		t.Errorf("units %v: the billing service first, then the rejected option", ids)
	}
	// History ranks by score alone, and so does a task that asks how
	// things were.
	for _, req := range []Request{{Task: "run billing service in AWS Lambda", Intent: History}, {Task: "did we previously run billing service in AWS Lambda"}} {
		if ids := unitIDs(answer(t, svc, req)); len(ids) == 0 || !strings.HasPrefix(ids[0], "ADR-0003") {
			t.Errorf("%+v: units %v, want the best match (ADR-0003) first", req, ids)
		}
	}
	// Without tiering the rejected record, which matches better, leads.
	svc.Ablate.NoTiering = true
	resp = answer(t, svc, Request{Task: "run billing service in AWS Lambda"})
	if ids := unitIDs(resp); len(ids) == 0 || !strings.HasPrefix(ids[0], "ADR-0003") {
		t.Errorf("no tiering: units %v", ids)
	}
}

// TestSupersededLabels: a record superseded by its status, decorated or
// not, is never presented as in force; its successor leads.
func TestSupersededLabels(t *testing.T) {
	fsys := fstest.MapFS{
		name(1, "mysql"): {Data: []byte(record(1, "1. Store orders in MySQL", "⌛️ Superseded by [2. PostgreSQL](0002-postgresql.md)",
			"## Decision\n\nOrders are stored in MySQL."))},
		name(2, "postgresql"): {Data: []byte(record(2, "2. Store orders in PostgreSQL", "✅ Accepted",
			"Supersedes [1. MySQL](0001-mysql.md)", "## Decision\n\nOrders are stored in PostgreSQL."))},
	}
	svc := &Service{Log: load(t, fsys)}
	for _, req := range []Request{{Task: "where are orders stored, mysql"}, {ID: "1"}, {Domain: ""}} {
		if req.Task == "" && req.ID == "" {
			continue
		}
		resp := answer(t, svc, req)
		if len(resp.Units) == 0 || !strings.HasPrefix(resp.Units[0].ID, "ADR-0002") {
			t.Errorf("%+v: units %v, want the successor first", req, unitIDs(resp))
		}
		for _, u := range resp.Units {
			if strings.HasPrefix(u.ID, "ADR-0001") && (u.InForce == nil || *u.InForce || u.Note != "superseded by ADR-0002") {
				t.Errorf("%+v: the superseded record is not labelled: %+v", req, u)
			}
		}
	}
}

// TestProseSupersession: a record in force whose text says it is being
// replaced, naming the record, is flagged with the pointer; words such as
// "replaced by" without a record named are not.
func TestProseSupersession(t *testing.T) {
	fsys := fstest.MapFS{
		name(1, "ranges"): {Data: []byte(record(1, "1. IP ranges for the network", "Accepted",
			"## Decision\n\nUse 10.0.0.0/16 for the network.\n\n**These IP ranges have been superseded by [ADR #0003](0003-new-ranges.md).**"))},
		name(2, "dns"): {Data: []byte(record(2, "2. DNS for the network", "Accepted",
			"## Decision\n\nWe are moving on from this decision, see ADR-3 for the network."))},
		name(3, "new-ranges"): {Data: []byte(record(3, "3. New IP ranges for the network", "Accepted",
			"## Decision\n\nUse 10.1.0.0/16. The old channel will be replaced by a `Send` method."))},
		// Its link names a file that is not there (a typo in 0003's
		// name): the number still names the record.
		name(4, "proxy"): {Data: []byte(record(4, "4. A proxy for the network", "Accepted",
			"## Decision\n\nRoute the network through a proxy.\n\nThis decision has been superseded by [the new ranges](0003-new-rangez.md)."))},
		// Its pointer names no record of this log: still flagged, with
		// the pointer as written.
		name(5, "vpn"): {Data: []byte(record(5, "5. A VPN for the network", "Accepted",
			"## Decision\n\nUse a VPN for the network.\n\nWe are moving on from this decision, see ADR-42."))},
		// It names the record it replaces, and what someone else chose:
		// neither says it is replaced.
		name(6, "cluster"): {Data: []byte(record(6, "6. One cluster for the network", "Accepted",
			"## Context\n\nSee ADR-5 for the network before, which is superseded by this one.",
			"## Decision\n\nRun one cluster for the network."))},
		name(8, "edge"): {Data: []byte(record(8, "8. An edge for the network", "Accepted",
			"## Context\n\nWe decommissioned the old network in favour of the proxy (see [ADR-4](0004-proxy.md)).",
			"## Decision\n\nRun an edge for the network."))},
		// "Withdrawn in favour of" does.
		name(7, "mesh"): {Data: []byte(record(7, "7. A mesh for the network", "Accepted",
			"## Decision\n\nUse a mesh for the network.\n\nWithdrawn in favour of [ADR-6](0006-cluster.md)."))},
	}
	svc := &Service{Log: load(t, fsys)}
	resp := answer(t, svc, Request{Task: "ip ranges, dns, vpn, cluster, mesh, edge and proxy for the network"})
	notes := map[string]string{}
	for _, u := range resp.Units {
		notes[strings.Split(u.ID, "#")[0]] = u.Note
		if u.InForce == nil || !*u.InForce {
			t.Errorf("%s: a possibly superseded record is still accepted: %+v", u.ID, u)
		}
	}
	if n := notes["ADR-0001"]; !strings.HasPrefix(n, "possibly superseded: its text says") || !strings.HasSuffix(n, "(see ADR-0003)") {
		t.Errorf("ADR-0001 note %q", n)
	}
	if n := notes["ADR-0002"]; !strings.Contains(n, "moving on from this decision") || !strings.HasSuffix(n, "(see ADR-0003)") {
		t.Errorf("ADR-0002 note %q", n)
	}
	if n := notes["ADR-0004"]; !strings.Contains(n, "has been superseded by") || !strings.HasSuffix(n, "(see ADR-0003)") {
		t.Errorf("ADR-0004 note %q (a link to a missing file named by its number)", n)
	}
	if n := notes["ADR-0003"]; n != "" {
		t.Errorf("ADR-0003 flagged for a phrase that names no record: %q", n)
	}
	if n := notes["ADR-0005"]; !strings.Contains(n, "moving on from this decision") || !strings.HasSuffix(n, "(ADR-42 names no record of this log)") {
		t.Errorf("ADR-0005 note %q (a pointer to a record that is not there)", n)
	}
	for _, id := range []string{"ADR-0006", "ADR-0008"} {
		if n, ok := notes[id]; !ok || n != "" {
			t.Errorf("%s note %q (in the answer: %v), flagged for the record it replaces or what someone chose", id, n, ok)
		}
	}
	if n := notes["ADR-0007"]; !strings.Contains(n, "Withdrawn in favour of") || !strings.HasSuffix(n, "(see ADR-0006)") {
		t.Errorf("ADR-0007 note %q", n)
	}
}

// TestConfidenceShapesTheAnswer: a weak match sends the shortest windows
// of a few records, with a warning that they are leads; no match sends
// no units, only leads.
func TestConfidenceShapesTheAnswer(t *testing.T) {
	fsys := fstest.MapFS{}
	for i, topic := range []string{"orders", "billing", "search", "shipping", "catalog", "payments", "returns", "reviews"} {
		n := i + 1
		fsys[name(n, topic)] = &fstest.MapFile{Data: []byte(record(n, topic+" storage", "Accepted",
			"## Decision\n\nThe "+topic+" service stores its data in PostgreSQL tables with nightly backups and strict schema review."))}
	}
	svc := &Service{Log: load(t, fsys)}
	high := answer(t, svc, Request{Task: "where does the billing service store its data"})
	if high.Confidence != "high" || len(high.Units) == 0 || !strings.HasPrefix(high.Units[0].ID, "ADR-0002") {
		t.Errorf("high: %s %v", high.Confidence, unitIDs(high))
	}
	low := answer(t, svc, Request{Task: "billing storage spreadsheet forecast"})
	if low.Confidence != "low" {
		t.Fatalf("confidence %s, want low", low.Confidence)
	}
	if len(low.Units) == 0 || len(low.Units) > lowRecords {
		t.Errorf("low: %d units, want 1 to %d", len(low.Units), lowRecords)
	}
	for i, u := range low.Units {
		if n := len([]rune(u.Text)); i > 0 && n > minWindow {
			t.Errorf("low: %s sends %d code points, over the shortest window %d", u.ID, n, minWindow)
		}
	}
	if !strings.Contains(strings.Join(low.Warnings, " "), "leads, not answers") {
		t.Errorf("low: warnings %v", low.Warnings)
	}
	none := answer(t, svc, Request{Task: "pick a font for the marketing site"})
	if none.Confidence != "none" || len(none.Units) != 0 {
		t.Errorf("none: %s %v", none.Confidence, unitIDs(none))
	}
}

// TestAbsentWordsLowerConfidence: a task whose weightiest word no record
// contains is not answered with confidence, however well its other words
// match, and the warning names the word as the task writes it.
func TestAbsentWordsLowerConfidence(t *testing.T) {
	fsys := fstest.MapFS{}
	for i, topic := range []string{"orders", "billing", "search", "shipping", "catalog", "payments", "returns", "reviews"} {
		n := i + 1
		body := "## Decision\n\nThe " + topic + " service stores user records in PostgreSQL."
		if topic == "billing" {
			body += " An operator can reset them."
		}
		fsys[name(n, topic)] = &fstest.MapFile{Data: []byte(record(n, topic+" storage", "Accepted", body))}
	}
	svc := &Service{Log: load(t, fsys)}
	r := answer(t, svc, Request{Task: "how are user Passwords stored and reset"})
	if r.Confidence != "low" {
		t.Fatalf("confidence %s, want low (no record says password)", r.Confidence)
	}
	if w := strings.Join(r.Warnings, " "); !strings.Contains(w, `no record mentions "Passwords"`) {
		t.Errorf("warnings %q do not name the absent word", w)
	}
	// The same task without the absent word is answered with confidence.
	if r := answer(t, svc, Request{Task: "how are user records stored and reset"}); r.Confidence != "high" {
		t.Errorf("without the absent word: confidence %s, want high", r.Confidence)
	}
}

// TestStatusNotStated: a record that states no status (MADR makes the
// field optional) is in force, noted "status not stated", unless another
// record supersedes it; a status word the parser does not know is not in
// force.
func TestStatusNotStated(t *testing.T) {
	madr := func(title, body string) []byte {
		return []byte("# " + title + "\n\n## Decision Outcome\n\n" + body + "\n")
	}
	fsys := fstest.MapFS{
		name(1, "cache"):    {Data: madr("Use Redis for the session cache", "Sessions are cached in Redis.")},
		name(2, "queue"):    {Data: madr("Use Kafka for order events", "Order events go to Kafka.")},
		name(3, "queue-v2"): {Data: []byte("# Use NATS for order events\n\nSupersedes [2](0002-queue.md)\n\n## Decision Outcome\n\nOrder events go to NATS.\n")},
		name(4, "search"):   {Data: []byte(record(4, "Use Solr for search", "Pondering", "## Decision\n\nSearch runs on Solr."))},
	}
	svc := &Service{Log: load(t, fsys)}
	want := map[string]struct {
		in   bool
		note string
	}{
		"ADR-0001": {true, "status not stated"},
		"ADR-0002": {false, "status not stated; superseded by ADR-0003"},
		"ADR-0004": {false, "status unknown"},
	}
	for id, w := range want {
		resp := answer(t, svc, Request{ID: strings.TrimPrefix(id, "ADR-")})
		if len(resp.Units) == 0 {
			t.Fatalf("%s: no units", id)
		}
		u := resp.Units[0]
		if !strings.HasPrefix(u.ID, id) || u.InForce == nil || *u.InForce != w.in || u.Note != w.note {
			t.Errorf("%s: unit %s in force %v note %q, want %v %q", id, u.ID, u.InForce != nil && *u.InForce, u.Note, w.in, w.note)
		}
	}
}

// TestShortTail: a task answer's best record sends the largest window,
// the two after it a smaller one and the rest the smallest (their best
// sentences); without the rule every record's window may be as long as
// the first's.
func TestShortTail(t *testing.T) {
	fsys := fstest.MapFS{}
	for n := 1; n <= 8; n++ {
		var b strings.Builder
		b.WriteString("## Decision\n\n")
		for p := 0; p < 6; p++ {
			fmt.Fprintf(&b, "Paragraph %d of record %d: the orders service keeps its queue of events in Kafka topics, partitioned by customer, retained for a week, replayed on recovery.\n\n", p, n)
		}
		fsys[name(n, fmt.Sprintf("kafka-%d", n))] = &fstest.MapFile{Data: []byte(record(n, fmt.Sprintf("%d. Orders events in Kafka", n), "Accepted", b.String()))}
	}
	svc := &Service{Log: load(t, fsys)}
	req := Request{Task: "orders events kafka topics"}
	ws := windows{req: req.withDefaults(), short: sentenceWindow}
	resp := answer(t, svc, req)
	recs := 0
	seen := map[string]bool{}
	for _, u := range resp.Units {
		id := strings.Split(u.ID, "#")[0]
		if !seen[id] {
			seen[id] = true
			recs++
		}
		n := len([]rune(u.Text))
		if limit := ws.limit(recs-1, false); n > limit {
			t.Errorf("%s (record %d of the answer): %d code points, over its window %d", u.ID, recs, n, limit)
		}
		if recs > 3 && n > ws.limit(3, false) {
			t.Errorf("%s (record %d): %d code points, over the smallest window", u.ID, recs, n)
		}
	}
	if recs <= 3 {
		t.Fatalf("%d records in the answer: the test needs more than 3", recs)
	}
	svc = &Service{Log: load(t, fsys), Ablate: Ablation{NoShortTail: true}}
	long := 0
	for _, u := range answer(t, svc, req).Units {
		if len([]rune(u.Text)) > ws.limit(3, false) {
			long++
		}
	}
	if long <= 3 {
		t.Errorf("without the rule only %d units are longer than the smallest window: the records do not test it", long)
	}
}

// TestReplacementLeads: a record in force whose own text says it is
// replaced, naming a record in force, answers after that record (as a
// superseded record's successor leads), still labelled possibly
// superseded.
func TestReplacementLeads(t *testing.T) {
	fsys := fstest.MapFS{
		name(1, "openapi-nswag"): {Data: []byte(record(1, "1. Generate the OpenAPI document with NSwag", "Accepted",
			"## Decision\n\nGenerate the OpenAPI document and the API UI with NSwag and Swagger UI.\n\nSuperseded by [2. Use Scalar](0002-openapi-scalar.md)."))},
		name(2, "openapi-scalar"): {Data: []byte(record(2, "2. Use Scalar", "Accepted",
			"## Decision\n\nUse the built-in generator and Scalar."))},
	}
	svc := &Service{Log: load(t, fsys)}
	resp := answer(t, svc, Request{Task: "how do we generate the OpenAPI document and API UI with NSwag"})
	ids := unitIDs(resp)
	if len(ids) < 2 || !strings.HasPrefix(ids[0], "ADR-0002") || !strings.HasPrefix(ids[1], "ADR-0001") {
		t.Fatalf("units %v: want the replacement ADR-0002 first", ids)
	}
	if n := resp.Units[1].Note; !strings.HasPrefix(n, "possibly superseded") {
		t.Errorf("ADR-0001 note %q", n)
	}
	if r := resp.Units[0].Role; !strings.Contains(r, "replacement by ADR-0001") {
		t.Errorf("ADR-0002 role %q", r)
	}
}

// TestSentenceTail: when many records are relevant, the records after
// the best three share what the budget leaves down to the sentence
// window, and no further; without the sentence tail, down to minWindow.
func TestSentenceTail(t *testing.T) {
	req := Request{Task: "orders"}.withDefaults()
	ws := windows{req: req, short: sentenceWindow}
	if got := ws.tail(40); got != sentenceWindow {
		t.Errorf("tail of 40 records: %d code points, want the sentence window %d", got, sentenceWindow)
	}
	if got := ws.tail(4); got <= sentenceWindow {
		t.Errorf("tail of 4 records: %d code points, want more than the sentence window", got)
	}
	if got := ws.limit(5, true); got != sentenceWindow {
		t.Errorf("a weak answer's 6th record: %d code points, want %d", got, sentenceWindow)
	}
	off := (&Service{Ablate: Ablation{NoSentenceTail: true}}).windowsFor(req)
	if got := off.tail(40); got != minWindow {
		t.Errorf("without the sentence tail: %d code points, want %d", got, minWindow)
	}
}

// TestFusePlain: a record the request's own words find best climbs over
// one the expanded ranking put first by a little, and the fused scores
// keep the expanded ranking's scale.
func TestFusePlain(t *testing.T) {
	ix := retrieve.NewIndex([]retrieve.Doc{
		{ID: "a", Fields: []retrieve.Field{{Text: "message broker choice for events"}}},
		{ID: "b", Fields: []retrieve.Field{{Text: "kafka topics keep the orders events"}}},
		{ID: "c", Fields: []retrieve.Field{{Text: "unrelated text about logging"}}},
	})
	hits := []retrieve.Hit{{Doc: 0, ID: "a", Score: 10}, {Doc: 1, ID: "b", Score: 9}}
	plain := retrieve.QueryWith("kafka orders", retrieve.English, retrieve.QueryOptions{NoThesaurus: true, NoPhrases: true})
	got := sortHits(fusePlain(hits, ix, plain))
	if got[0].ID != "b" {
		t.Fatalf("fused order %v: want b, which the plain words find, first", []string{got[0].ID, got[1].ID})
	}
	if want := 9 + fuseK*10; math.Abs(got[0].Score-want) > 1e-9 {
		t.Errorf("b's fused score %v, want %v (its own plus fuseK times the best score)", got[0].Score, want)
	}
	if got[1].Score != 10 {
		t.Errorf("a's fused score %v: want 10 (the plain words do not match it)", got[1].Score)
	}
}
