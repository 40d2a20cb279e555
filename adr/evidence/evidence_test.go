package evidence

import (
	"crypto/sha256"
	"errors"
	"fmt"
	"io/fs"
	"math/rand"
	"strings"
	"testing"
	"testing/fstest"
	"unicode/utf8"

	"github.com/git-adr/git-adr/adr"
)

// nygard renders an adr-tools record.
func nygard(n int, title, status, decision string, links ...string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "# %d. %s\n\nDate: 2026-01-%02d\n\n## Status\n\n%s\n", n, title, n%28+1, status)
	for _, l := range links {
		b.WriteString("\n" + l + "\n")
	}
	fmt.Fprintf(&b, "\n## Context\n\nContext of %s.\n\n## Decision\n\n%s\n\n## Consequences\n\nSome.\n", title, decision)
	return b.String()
}

func name(n int, slug string) string { return fmt.Sprintf("doc/adr/%04d-%s.md", n, slug) }

func link(label string, n int, slug string) string {
	return fmt.Sprintf("%s [%d. X](%04d-%s.md)", label, n, n, slug)
}

func load(t testing.TB, fsys fs.FS) *adr.Log {
	t.Helper()
	l, err := adr.Load(fsys, adr.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return l
}

func answer(t testing.TB, svc *Service, req Request) *Response {
	t.Helper()
	resp, out, err := svc.Answer(req)
	if err != nil {
		t.Fatalf("%+v: %v", req, err)
	}
	checkBudget(t, req, resp, out)
	return resp
}

func checkBudget(t testing.TB, req Request, resp *Response, out []byte) {
	t.Helper()
	r := req.withDefaults()
	if n := utf8.RuneCount(out); n > r.MaxChars {
		t.Errorf("%s %q: %d code points > %d", r.Selector(), clip(req.ID+req.Task+req.Domain, 30), n, r.MaxChars)
	}
	if len(resp.Units) > r.MaxUnits {
		t.Errorf("%d units > %d", len(resp.Units), r.MaxUnits)
	}
	if resp.Size.CodePoints != utf8.RuneCount(out) || resp.Size.Bytes != len(out) {
		t.Errorf("size %+v does not describe the output (%d bytes, %d code points)", resp.Size, len(out), utf8.RuneCount(out))
	}
}

// stressLog has very long bodies and titles, CJK, a dense relation graph
// and many records in one domain.
func stressLog(seed int64) fstest.MapFS {
	rng := rand.New(rand.NewSource(seed))
	fsys := fstest.MapFS{}
	words := []string{"cache", "queue", "storage", "决策", "数据库", "缓存", "latency", "tenant", "billing", "schema"}
	for n := 1; n <= 60; n++ {
		title := "Record " + fmt.Sprint(n)
		if n%7 == 0 {
			title = strings.Repeat("Very long title about caches ", 200)
		}
		if n%5 == 0 {
			title = "缓存策略与数据库选择 " + fmt.Sprint(n)
		}
		var body strings.Builder
		size := 20 + rng.Intn(60)
		if n%9 == 0 {
			size = 4000 // a huge decision
		}
		for i := 0; i < size; i++ {
			body.WriteString(words[rng.Intn(len(words))] + " ")
			if i%15 == 14 {
				body.WriteString("\n")
			}
			if n%11 == 0 && i%30 == 29 {
				body.WriteString(strings.Repeat("x", 3000) + "\n") // overlong lines
			}
		}
		var links []string
		for k := 1; k <= 12; k++ {
			m := (n*k*7)%60 + 1
			if m != n {
				links = append(links, link("Relates to", m, "r"))
			}
		}
		status := "Accepted"
		if n%4 == 0 {
			status = "Proposed"
		}
		rec := nygard(n, title, status, body.String(), links...)
		rec = strings.Replace(rec, "## Status", "Domains: billing\n\n## Status", 1)
		fsys[name(n, "r")] = &fstest.MapFile{Data: []byte(rec)}
	}
	return fsys
}

// No response, whatever the selector, budget, format or content, exceeds
// its budget.
func TestBudgetProperty(t *testing.T) {
	for seed := int64(1); seed <= 3; seed++ {
		l := load(t, stressLog(seed))
		svc := &Service{Log: l, CursorKey: testKey("r")}
		rng := rand.New(rand.NewSource(seed))
		for i := 0; i < 40; i++ {
			req := Request{MaxChars: 2000 + rng.Intn(18000), MaxUnits: 1 + rng.Intn(12)}
			switch i % 6 {
			case 0:
			case 1:
				req.ID = fmt.Sprint(1 + rng.Intn(60))
			case 2:
				req.Domain = "billing"
			case 3:
				req.Task = "缓存 cache latency for billing tenants"
			case 4:
				req.ID, req.Intent = fmt.Sprint(1+rng.Intn(60)), Rationale
			case 5:
				req.ID, req.Intent = fmt.Sprint(1+rng.Intn(60)), History
			}
			for _, f := range []Format{JSON, Text} {
				req.Format = f
				resp, out, err := svc.Answer(req)
				if err != nil {
					if isRequestError(err) && strings.Contains(err.Error(), "cannot hold") {
						continue // an honest refusal of a tiny budget
					}
					t.Fatalf("%+v: %v", req, err)
				}
				checkBudget(t, req, resp, out)
			}
		}
	}
}

// Paging with the cursor returns every selected unit exactly once.
func TestCursorPagingExactlyOnce(t *testing.T) {
	l := load(t, stressLog(7))
	svc := &Service{Log: l, CursorKey: testKey("r")}
	for _, req := range []Request{
		{Domain: "billing", MaxChars: 4000, MaxUnits: 3},
		{ID: "9", MaxChars: 20000, MaxUnits: 12},
		{ID: "11", Intent: History, MaxChars: 5000, MaxUnits: 4},
		{Task: "cache storage schema", MaxChars: 3000},
	} {
		seen := map[string]int{}
		var selected, pages int
		r := req
		for {
			resp, out, err := svc.Answer(r)
			if err != nil {
				t.Fatalf("%s page %d: %v", describe(req), pages+1, err)
			}
			checkBudget(t, req, resp, out)
			pages++
			selected = resp.Coverage.Selected
			for _, u := range resp.Units {
				seen[u.ID]++
			}
			if resp.Cursor == nil {
				if !resp.Coverage.Complete {
					t.Errorf("%s: last page not complete", describe(req))
				}
				break
			}
			if pages > 2000 {
				t.Fatalf("%s: paging does not end", describe(req))
			}
			r = Request{Cursor: *resp.Cursor, Format: req.Format}
		}
		total := 0
		for id, n := range seen {
			total += n
			if n != 1 {
				t.Errorf("%s: unit %s delivered %d times", describe(req), id, n)
			}
		}
		if total != selected {
			t.Errorf("%s: delivered %d units over %d pages, selected %d", describe(req), total, pages, selected)
		}
	}
}

func supersessionLog() fstest.MapFS {
	return fstest.MapFS{
		name(1, "use-mysql"):        {Data: []byte(nygard(1, "Use MySQL", "Superseded by [2. Use PostgreSQL](0002-use-postgresql.md)", "Use MySQL for orders."))},
		name(2, "use-postgresql"):   {Data: []byte(nygard(2, "Use PostgreSQL", "Accepted", "Use PostgreSQL for orders.", link("Supersedes", 1, "use-mysql"), link("Relates to", 3, "use-pgbouncer")))},
		name(3, "use-pgbouncer"):    {Data: []byte(nygard(3, "Use PgBouncer", "Accepted", "Pool connections.", link("Relates to", 2, "use-postgresql")))},
		name(4, "use-redis"):        {Data: []byte(nygard(4, "Use Redis", "Superseded by [5. A](0005-use-valkey.md)\n\nSuperseded by [6. B](0006-use-memcached.md)", "Cache in Redis."))},
		name(5, "use-valkey"):       {Data: []byte(nygard(5, "Use Valkey", "Accepted", "Cache in Valkey.", link("Supersedes", 4, "use-redis")))},
		name(6, "use-memcached"):    {Data: []byte(nygard(6, "Use Memcached", "Accepted", "Cache in Memcached.", link("Supersedes", 4, "use-redis")))},
		name(7, "scope-everything"): {Data: []byte(strings.Replace(nygard(7, "All services log JSON", "Accepted", "Log JSON lines."), "## Status", "Scope: system\n\n## Status", 1))},
	}
}

// Asking about a superseded record leads with its accepted successor; an
// ambiguous successor is reported, not guessed; system constraints come
// before dependencies.
func TestSuccessorPreference(t *testing.T) {
	svc := &Service{Log: load(t, supersessionLog()), CursorKey: testKey("r")}
	resp := answer(t, svc, Request{ID: "ADR-0001"})
	if len(resp.Units) < 2 || !strings.HasPrefix(resp.Units[0].ID, "ADR-0002") || resp.Units[0].Role != "current successor of ADR-0001" {
		t.Fatalf("first unit = %+v, want the successor ADR-0002", resp.Units[0])
	}
	if resp.Units[1].Status != "superseded" || !strings.HasPrefix(resp.Units[1].ID, "ADR-0001") {
		t.Errorf("second unit = %+v, want ADR-0001 labelled superseded", resp.Units[1])
	}
	var order []string
	for _, u := range resp.Units {
		order = append(order, u.Role)
	}
	if strings.Join(order, "|") != "current successor of ADR-0001|requested (superseded)|system constraint|dependency (relates to ADR-0002)" {
		t.Errorf("roles = %q", order)
	}
	resp = answer(t, svc, Request{ID: "4"})
	if !strings.HasPrefix(resp.Units[0].ID, "ADR-0004") {
		t.Errorf("ambiguous successor: first unit %s, want the requested ADR-0004", resp.Units[0].ID)
	}
	if !strings.Contains(strings.Join(resp.Warnings, "\n"), "successor is ambiguous (ADR-0005, ADR-0006)") {
		t.Errorf("warnings = %q", resp.Warnings)
	}
	// A task that matches the superseded record leads with the successor.
	resp = answer(t, svc, Request{Task: "MySQL for orders"})
	if !strings.HasPrefix(resp.Units[0].ID, "ADR-0002") || !strings.HasPrefix(resp.Units[1].ID, "ADR-0001") {
		t.Errorf("task: units %s, %s; want ADR-0002 then ADR-0001", resp.Units[0].ID, resp.Units[1].ID)
	}
}

// Relations are followed at most three hops; archived bodies at most one.
func TestHopLimits(t *testing.T) {
	fsys := fstest.MapFS{
		name(1, "a"):                {Data: []byte(nygard(1, "A", "Accepted", "a", link("Relates to", 2, "b")))},
		"doc/adr/archive/0002-b.md": {Data: []byte(nygard(2, "B", "Accepted", "b", "Relates to [3. X](0003-c.md)"))},
		"doc/adr/archive/0003-c.md": {Data: []byte(nygard(3, "C", "Accepted", "c", "Relates to [4. X](../0004-d.md)"))},
		name(4, "d"):                {Data: []byte(nygard(4, "D", "Accepted", "d", link("Relates to", 5, "e")))},
		name(5, "e"):                {Data: []byte(nygard(5, "E", "Accepted", "e"))},
	}
	svc := &Service{Log: load(t, fsys), CursorKey: testKey("r")}
	resp := answer(t, svc, Request{ID: "1"})
	got := map[string]bool{}
	for _, u := range resp.Units {
		id, _ := adr.SplitLocator(u.ID)
		got[id] = true
	}
	if !got["ADR-0002"] {
		t.Error("archived record one hop away: body missing")
	}
	if got["ADR-0003"] {
		t.Error("archived record two hops away: body included")
	}
	if !got["ADR-0004"] {
		t.Error("live record three hops away: missing")
	}
	if got["ADR-0005"] {
		t.Error("record four hops away: included")
	}
	refs := ""
	for _, r := range resp.References {
		refs += r.ID + " "
	}
	if !strings.Contains(refs, "ADR-0003") {
		t.Errorf("archived record beyond one hop not named in references: %q", refs)
	}
}

func TestCursorErrors(t *testing.T) {
	fsys := stressLog(3)
	svc := &Service{Log: load(t, fsys), CursorKey: testKey("r")}
	resp := answer(t, svc, Request{Domain: "billing", MaxChars: 3000})
	if resp.Cursor == nil {
		t.Fatal("no cursor")
	}
	cur := *resp.Cursor
	for _, tc := range []struct {
		svc  *Service
		cur  string
		want string
	}{
		{svc, cur[:len(cur)-3], "malformed cursor"},
		{svc, "hello", "malformed cursor"},
		{svc, flip(cur, 3), "was not issued by this repository, or was changed"},
		{&Service{Log: svc.Log, CursorKey: testKey("other")}, cur, "was not issued by this repository"},
		{&Service{Log: svc.Log, CursorKey: noKey}, cur, "was not issued by this repository"},
	} {
		_, _, err := tc.svc.Answer(Request{Cursor: tc.cur})
		if err == nil || !strings.Contains(err.Error(), tc.want) || !isRequestError(err) {
			t.Errorf("cursor %q: error %v, want %q", clip(tc.cur, 20), err, tc.want)
		}
	}
	// Any edit makes the cursor stale.
	changed := fstest.MapFS{}
	for k, v := range fsys {
		changed[k] = v
	}
	changed[name(1, "r")] = &fstest.MapFile{Data: append([]byte(nil), append(fsys[name(1, "r")].Data, '\n')...)}
	_, _, err := (&Service{Log: load(t, changed), CursorKey: testKey("r")}).Answer(Request{Cursor: cur})
	if err == nil || !strings.Contains(err.Error(), "stale cursor") {
		t.Errorf("edited log: %v, want stale cursor", err)
	}
	// A cursor with a different selector is refused.
	_, _, err = svc.Answer(Request{Cursor: cur, Domain: "other"})
	if err == nil || !strings.Contains(err.Error(), "different request") {
		t.Errorf("mixed request: %v", err)
	}
}

func TestRequestErrors(t *testing.T) {
	svc := &Service{Log: load(t, supersessionLog()), CursorKey: testKey("r")}
	for _, tc := range []struct {
		req  Request
		want string
	}{
		{Request{ID: "99"}, `no record "99"`},
		{Request{ID: "2#nothing"}, `has no unit "nothing"`},
		{Request{Domain: "nope"}, `no record has domain "nope"`},
		{Request{ID: "1", Task: "x"}, "only one selector"},
		{Request{File: "a.go"}, "--file needs --task"},
		{Request{Task: "the and of"}, ""},
		{Request{MaxChars: 10}, "out of range"},
	} {
		_, _, err := svc.Answer(tc.req)
		if tc.want == "" {
			if err != nil {
				t.Errorf("%+v: %v", tc.req, err)
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%+v: error %v, want %q", tc.req, err, tc.want)
		}
	}
}

func TestNoRecordApplies(t *testing.T) {
	svc := &Service{Log: load(t, supersessionLog()), CursorKey: testKey("r")}
	resp := answer(t, svc, Request{Task: "choose a GPU for training"})
	if resp.Confidence != "none" || len(resp.Units) != 0 {
		t.Errorf("confidence %q with %d units, want none and no units", resp.Confidence, len(resp.Units))
	}
}

func loadFS(fsys fs.FS) (*adr.Log, error) { return adr.Load(fsys, adr.LoadOptions{}) }

// isRequestError reports whether err is a bad request.
func isRequestError(err error) bool {
	var re *RequestError
	return errors.As(err, &re)
}

// testKey is a cursor key named after a repository, as a Service wants it.
func testKey(repo string) func(bool) ([]byte, error) {
	sum := sha256.Sum256([]byte(repo))
	return func(bool) ([]byte, error) { return sum[:], nil }
}

// noKey is the key of a repository that never issued a cursor.
func noKey(create bool) ([]byte, error) {
	if create {
		return nil, errors.New("read-only")
	}
	return nil, fs.ErrNotExist
}

// flip changes the character at i of a cursor into another base64 one.
func flip(cur string, i int) string {
	c := byte('A')
	if cur[i] == 'A' {
		c = 'B'
	}
	return cur[:i] + string(c) + cur[i+1:]
}

// A cursor signed with the right key still has every field checked against
// the limits of a request: a leaked key or a bug cannot take the service out
// of its bounds, and nothing panics.
func TestCursorFieldsValidated(t *testing.T) {
	fsys := stressLog(3)
	svc := &Service{Log: load(t, fsys), CursorKey: testKey("r")}
	key, _ := testKey("r")(false)
	good := cursorState{fingerprint: svc.fingerprintPrefix(), req: Request{Domain: "billing", Intent: Current, MaxUnits: 2, MaxChars: 3000}}
	with := func(f func(*cursorState)) string {
		c := good
		f(&c)
		return signCursor(key, encodePayload(c))
	}
	raw := func(f func([]byte) []byte) string { return signCursor(key, f(encodePayload(good))) }
	if _, _, err := svc.Answer(Request{Cursor: with(func(*cursorState) {})}); err != nil {
		t.Fatalf("well-formed cursor: %v", err)
	}
	for _, tc := range []struct {
		name, cur, want string
	}{
		{"negative pos", with(func(c *cursorState) { c.pos = -5 }), "invalid cursor: position -5 is out of range"},
		{"negative part", with(func(c *cursorState) { c.part = -1 }), "invalid cursor: part -1 is out of range"},
		{"pos past the end", with(func(c *cursorState) { c.pos = 500 }), "stale cursor: it points past the end of the answer"},
		{"part past the end", with(func(c *cursorState) { c.part = 7 }), "stale cursor: it points past the end of the answer"},
		{"huge pos", with(func(c *cursorState) { c.pos = 1 << 40 }), "invalid cursor: position 1099511627776 is out of range"},
		{"no units", with(func(c *cursorState) { c.req.MaxUnits = 0 }), "invalid cursor: max_units 0 is out of range (1 to 100)"},
		{"too many units", with(func(c *cursorState) { c.req.MaxUnits = 500 }), "invalid cursor: max_units 500 is out of range (1 to 100)"},
		{"too few chars", with(func(c *cursorState) { c.req.MaxChars = 1999 }), "invalid cursor: max_chars 1999 is out of range (2000 to 1000000)"},
		{"too many chars", with(func(c *cursorState) { c.req.MaxChars = 5000000 }), "invalid cursor: max_chars 5000000 is out of range"},
		{"bogus intent", with(func(c *cursorState) { c.req.Intent = "bogus" }), "invalid cursor: unknown intent 3"},
		{"two selectors", with(func(c *cursorState) { c.req.ID = "1" }), "invalid cursor: only one selector may be given"},
		{"file without task", with(func(c *cursorState) { c.req.File = "a.go" }), "invalid cursor: --file needs --task"},
		{"long task", with(func(c *cursorState) { c.req.Domain, c.req.Task = "", strings.Repeat("x", 1001) }), "invalid cursor: --task is 1001 characters"},
		{"another log", with(func(c *cursorState) { c.fingerprint[0]++ }), "stale cursor: the decision log changed"},
		{"old version", raw(func(b []byte) []byte { b[0] = 1; return b }), "invalid cursor: version 1 is not 3"},
		{"trailing bytes", raw(func(b []byte) []byte { return append(b, 0) }), "invalid cursor: 1 bytes after the request"},
		{"cut short", raw(func(b []byte) []byte { return b[:len(b)-3] }), "invalid cursor: truncated request"},
		{"only a header", raw(func(b []byte) []byte { return b[:5] }), "invalid cursor: 5 bytes is too short"},
		{"not UTF-8", with(func(c *cursorState) { c.req.Domain = "\xff" }), "invalid cursor: the request is not UTF-8"},
		{"padded varint", raw(func(b []byte) []byte {
			// pos 0 written as two bytes instead of one.
			return append(append(append([]byte(nil), b[:1+cursorFPSize]...), 0x80, 0x00), b[1+cursorFPSize+1:]...)
		}), "invalid cursor: not in canonical form"},
	} {
		_, _, err := svc.Answer(Request{Cursor: tc.cur})
		if err == nil || !strings.Contains(err.Error(), tc.want) || !isRequestError(err) {
			t.Errorf("%s: error %v, want %q", tc.name, err, tc.want)
		}
	}
}
