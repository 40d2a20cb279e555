package evidence

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"testing/fstest"

	"github.com/git-adr/git-adr/adr"
	"github.com/git-adr/git-adr/internal/embedtest"
	"github.com/git-adr/git-adr/retrieve"
	"github.com/git-adr/git-adr/retrieve/embeddings"
)

// embedLog is a log in which one record (Yarn workspaces) shares no word
// with the task embedTask but is about its subject (a Lerna monorepo).
func embedLog() fstest.MapFS {
	fsys := fstest.MapFS{}
	for i, r := range []struct{ slug, title, decision string }{
		{"postgresql", "Use PostgreSQL for orders", "Orders are stored in PostgreSQL."},
		{"yarn-workspaces", "Use Yarn workspaces", "All packages live in one repository, managed with Yarn workspaces."},
		{"redis", "Cache product pages in Redis", "Product pages are cached in Redis for five minutes."},
		{"oauth", "Log in with OAuth", "People sign in through the company's OAuth provider."},
		{"json-logs", "Write logs as JSON", "Services write one JSON object per log line."},
		{"kubernetes", "Deploy with Kubernetes", "Services are deployed to the shared Kubernetes cluster."},
		{"semver", "Version releases semantically", "Releases follow semantic versioning."},
		{"openapi", "Describe HTTP APIs with OpenAPI", "Every HTTP API has an OpenAPI description."},
		{"ci", "Run the tests on every push", "The CI runs every test on every push."},
		{"flags", "Ship behind feature flags", "Unfinished features ship switched off behind flags."},
	} {
		fsys[name(i+1, r.slug)] = &fstest.MapFile{Data: []byte(nygard(i+1, r.title, "Accepted", r.decision))}
	}
	return fsys
}

const embedTask = "where are orders kept in our lerna setup"

// endpoint serves the fake embeddings endpoint and returns an Embeddings
// that uses it.
func endpoint(t *testing.T, fake *embedtest.Server) (*httptest.Server, func() *Embeddings) {
	t.Helper()
	srv := httptest.NewServer(fake)
	t.Cleanup(srv.Close)
	return srv, func() *Embeddings {
		return &Embeddings{Resolve: func() (*EmbeddingEndpoint, string) {
			c := &embeddings.Client{BaseURL: srv.URL + "/v1", Model: "concepts"}
			return &EmbeddingEndpoint{Embedder: c, Model: c.Model, URL: c.BaseURL}, ""
		}}
	}
}

func unitRoles(resp *Response) map[string]string {
	out := map[string]string{}
	for _, u := range resp.Units {
		if _, ok := out[u.Path]; !ok {
			out[u.Path] = u.Role
		}
	}
	return out
}

func TestEmbeddingsAddARecordSharingNoWord(t *testing.T) {
	l := load(t, embedLog())
	yarn := name(2, "yarn-workspaces")
	req := Request{Task: embedTask}

	lexical := answer(t, &Service{Log: l, CacheDir: t.TempDir()}, req)
	if _, ok := unitRoles(lexical)[yarn]; ok {
		t.Fatalf("the lexical answer already holds %s: the test shows nothing", yarn)
	}
	if lexical.Retrieval != "" {
		t.Errorf("retrieval %q without embeddings, want none", lexical.Retrieval)
	}

	fake := &embedtest.Server{}
	srv, emb := endpoint(t, fake)
	resp := answer(t, &Service{Log: l, CacheDir: t.TempDir(), Embeddings: emb()}, req)
	roles := unitRoles(resp)
	if roles[yarn] != "match (embedding)" {
		t.Fatalf("%s: role %q, want it in the answer as \"match (embedding)\"; units %v", yarn, roles[yarn], roles)
	}
	if want := "lexical+embeddings (concepts at " + strings.TrimPrefix(srv.URL, "http://") + ")"; resp.Retrieval != want {
		t.Errorf("retrieval %q, want %q", resp.Retrieval, want)
	}
	// Nothing lexical is lost, and the best lexical match stays first.
	if resp.Units[0].Path != lexical.Units[0].Path {
		t.Errorf("first unit %s, want the best lexical match %s", resp.Units[0].Path, lexical.Units[0].Path)
	}
	for path := range unitRoles(lexical) {
		if _, ok := roles[path]; !ok {
			t.Errorf("%s left the answer", path)
		}
	}
	if resp.Confidence != lexical.Confidence {
		t.Errorf("confidence %q, want the lexical %q", resp.Confidence, lexical.Confidence)
	}
	// The task is one request; the records, one more (ten texts, one batch).
	reqs := fake.Requests()
	if len(reqs) != 2 || len(reqs[0].Inputs) != 1 || reqs[0].Inputs[0] != embedTask || len(reqs[1].Inputs) != 10 {
		t.Errorf("requests %d, want the task then the ten records", len(reqs))
	}
	// What a record sends: its title and decision first.
	if got := reqs[1].Inputs[1]; !strings.HasPrefix(got, "Use Yarn workspaces\n\n## Decision\n\nAll packages live in one repository") {
		t.Errorf("record 2 is embedded as %q", got)
	}
}

func TestEmbeddingsOffChangesNothing(t *testing.T) {
	l := load(t, embedLog())
	for _, req := range []Request{{Task: embedTask}, {Task: "orders"}, {}, {ID: "2"}} {
		_, plain, err := (&Service{Log: l}).Answer(req)
		if err != nil {
			t.Fatal(err)
		}
		off := &Embeddings{Resolve: func() (*EmbeddingEndpoint, string) { return nil, "" }}
		_, out, err := (&Service{Log: l, Embeddings: off}).Answer(req)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(plain, out) {
			t.Errorf("%+v: an Embeddings with no endpoint changed the answer:\n%s\nwant\n%s", req, out, plain)
		}
	}
	// A source that is never asked for a vector is never resolved.
	resolved := false
	lazy := &Embeddings{Resolve: func() (*EmbeddingEndpoint, string) { resolved = true; return nil, "" }}
	answer(t, &Service{Log: l, Embeddings: lazy}, Request{ID: "2"})
	if resolved {
		t.Error("an ID request resolved the embeddings endpoint")
	}
}

func TestEmbeddingsCachedByBlob(t *testing.T) {
	fsys := embedLog()
	fake := &embedtest.Server{}
	_, emb := endpoint(t, fake)
	cache := t.TempDir()
	req := Request{Task: embedTask}
	first := answer(t, &Service{Log: load(t, fsys), CacheDir: cache, Embeddings: emb()}, req)
	if n := len(fake.Requests()); n != 2 {
		t.Fatalf("first answer: %d requests, want 2", n)
	}
	// Unchanged records are not sent again: the task alone is.
	second := answer(t, &Service{Log: load(t, fsys), CacheDir: cache, Embeddings: emb()}, req)
	reqs := fake.Requests()
	if len(reqs) != 3 || len(reqs[2].Inputs) != 1 || reqs[2].Inputs[0] != embedTask {
		t.Fatalf("second answer: requests %d (last %v), want only the task's", len(reqs)-2, reqs[len(reqs)-1].Inputs)
	}
	if fmt.Sprint(unitRoles(first)) != fmt.Sprint(unitRoles(second)) {
		t.Errorf("cached vectors answer %v, fresh ones %v", unitRoles(second), unitRoles(first))
	}
	// A changed record is embedded again, alone.
	p := name(4, "oauth")
	fsys[p] = &fstest.MapFile{Data: []byte(nygard(4, "Log in with OAuth", "Accepted", "People sign in through OAuth, with passkeys where they can."))}
	answer(t, &Service{Log: load(t, fsys), CacheDir: cache, Embeddings: emb()}, req)
	reqs = fake.Requests()
	if len(reqs) != 5 || len(reqs[4].Inputs) != 1 || !strings.HasPrefix(reqs[4].Inputs[0], "Log in with OAuth") {
		t.Fatalf("after an edit: %d requests, want the task and the changed record", len(reqs)-3)
	}
	// Another model's vectors are not this one's.
	other := &Embeddings{Resolve: func() (*EmbeddingEndpoint, string) {
		ep, _ := emb().Resolve()
		ep.Model = "other"
		ep.Embedder.(*embeddings.Client).Model = "other"
		return ep, ""
	}}
	answer(t, &Service{Log: load(t, fsys), CacheDir: cache, Embeddings: other}, req)
	if reqs = fake.Requests(); len(reqs) != 7 || len(reqs[6].Inputs) != 10 {
		t.Fatalf("another model: want every record embedded again, got %d requests", len(reqs)-5)
	}
}

func TestEmbeddingsCacheFile(t *testing.T) {
	entries := map[cacheKey][]float32{{1}: {0.5, -1, 3}, {2}: {1}}
	data := encodeVectors(entries)
	got, err := decodeVectors(data)
	if err != nil || fmt.Sprint(got) != fmt.Sprint(entries) {
		t.Fatalf("decode(encode) = %v, %v", got, err)
	}
	for i := range data {
		bad := bytes.Clone(data)
		bad[i] ^= 0x40
		if _, err := decodeVectors(bad); err == nil {
			t.Fatalf("a flipped byte %d was read", i)
		}
	}
	for n := range data {
		if _, err := decodeVectors(data[:n]); err == nil {
			t.Fatalf("a file cut at %d was read", n)
		}
	}
}

func TestEmbeddingsEndpointFailing(t *testing.T) {
	l := load(t, embedLog())
	req := Request{Task: embedTask}
	_, lexical, err := (&Service{Log: l}).Answer(req)
	if err != nil {
		t.Fatal(err)
	}
	refused := httptest.NewServer(http.NotFoundHandler())
	refused.Close()
	for _, c := range []struct {
		name string
		url  func(t *testing.T) string
		want string
	}{
		{"refused", func(*testing.T) string { return refused.URL + "/v1" }, "connection refused"},
		{"error status", func(t *testing.T) string {
			srv, _ := endpoint(t, &embedtest.Server{Status: http.StatusInternalServerError})
			return srv.URL + "/v1"
		}, "500 Internal Server Error"},
	} {
		t.Run(c.name, func(t *testing.T) {
			u := c.url(t)
			emb := &Embeddings{Resolve: func() (*EmbeddingEndpoint, string) {
				return &EmbeddingEndpoint{Embedder: &embeddings.Client{BaseURL: u, Model: "m"}, Model: "m", URL: u}, ""
			}}
			resp, out, err := (&Service{Log: l, Embeddings: emb}).Answer(req)
			if err != nil {
				t.Fatalf("a failing endpoint failed the answer: %v", err)
			}
			if resp.Retrieval != "lexical" {
				t.Errorf("retrieval %q, want lexical", resp.Retrieval)
			}
			last := resp.Warnings[len(resp.Warnings)-1]
			if !strings.HasPrefix(last, "embeddings not used: embeddings endpoint "+u+"/embeddings: ") || !strings.Contains(last, c.want) || !strings.HasSuffix(last, "; the answer is the lexical ranking alone") {
				t.Errorf("warning %q, want why the endpoint failed", last)
			}
			// The units are the lexical answer's.
			var a, b struct{ Units []map[string]any }
			if err := json.Unmarshal(lexical, &a); err != nil {
				t.Fatal(err)
			}
			if err := json.Unmarshal(out, &b); err != nil {
				t.Fatal(err)
			}
			if fmt.Sprint(a.Units) != fmt.Sprint(b.Units) {
				t.Errorf("units differ from the lexical answer's")
			}
		})
	}
}

func TestEmbeddingsPartly(t *testing.T) {
	// The endpoint answers the task and the first batch of records, then
	// fails: the vectors it gave are used and kept, and the answer says
	// how many records they cover.
	fake := &embedtest.Server{FailAfter: 2}
	srv := httptest.NewServer(fake)
	defer srv.Close()
	cache := t.TempDir()
	emb := func() *Embeddings {
		return &Embeddings{Resolve: func() (*EmbeddingEndpoint, string) {
			c := &embeddings.Client{BaseURL: srv.URL + "/v1", Model: "m", Batch: 4}
			return &EmbeddingEndpoint{Embedder: c, Model: "m", URL: c.BaseURL}, ""
		}}
	}
	resp := answer(t, &Service{Log: load(t, embedLog()), CacheDir: cache, Embeddings: emb()}, Request{Task: embedTask})
	if !strings.HasPrefix(resp.Retrieval, "lexical+embeddings") {
		t.Errorf("retrieval %q, want the embeddings named", resp.Retrieval)
	}
	found := false
	for _, w := range resp.Warnings {
		found = found || strings.HasPrefix(w, "embeddings cover 4 of 10 records: embeddings endpoint "+srv.URL+"/v1/embeddings: 503 Service Unavailable")
	}
	if !found {
		t.Errorf("warnings %q, want the share the embeddings cover", resp.Warnings)
	}
	data, err := os.ReadFile(filepath.Join(cache, "vectors.bin"))
	if err != nil {
		t.Fatal(err)
	}
	if got, err := decodeVectors(data); err != nil || len(got) != 4 {
		t.Errorf("cache holds %d vectors (%v), want the 4 answered", len(got), err)
	}
}

func TestEmbeddingsNote(t *testing.T) {
	note := "context.embeddings.base_url in .adr.toml is ignored: the file is not trusted"
	emb := &Embeddings{Resolve: func() (*EmbeddingEndpoint, string) { return nil, note }}
	resp := answer(t, &Service{Log: load(t, embedLog()), Embeddings: emb}, Request{Task: embedTask})
	if resp.Retrieval != "" || len(resp.Warnings) == 0 || resp.Warnings[len(resp.Warnings)-1] != note {
		t.Errorf("retrieval %q, warnings %q: want the note and no retrieval", resp.Retrieval, resp.Warnings)
	}
}

func TestEmbeddingsLeads(t *testing.T) {
	// No record shares a word with the task: the answer has no
	// confidence and names leads, the nearest in meaning labelled so.
	fake := &embedtest.Server{}
	_, emb := endpoint(t, fake)
	resp := answer(t, &Service{Log: load(t, embedLog()), Embeddings: emb()}, Request{Task: "lerna turborepo"})
	if resp.Confidence != "none" || len(resp.References) == 0 {
		t.Fatalf("confidence %q, references %v: want leads", resp.Confidence, resp.References)
	}
	r := resp.References[0]
	if r.Path != name(2, "yarn-workspaces") || !strings.HasPrefix(r.Relation, "lead: close in meaning to the task (embedding similarity 0.") {
		t.Errorf("first lead %+v, want the Yarn record, labelled", r)
	}
}

func TestFuseHits(t *testing.T) {
	recs := make([]*adr.Record, 12)
	for i := range recs {
		recs[i] = &adr.Record{ID: fmt.Sprint(i), Path: fmt.Sprintf("%d.md", i)}
	}
	// Lexical: 0..9 in order, scores 10 down to 1.
	var hits []retrieve.Hit
	for i := 0; i < 10; i++ {
		hits = append(hits, retrieve.Hit{Doc: i, Score: float64(10 - i), Matched: []string{"w"}})
	}
	sims := map[*adr.Record]float64{}
	for _, r := range recs {
		sims[r] = 0.1
	}
	sims[recs[11]] = 0.9 // no lexical hit, nearest in meaning
	sims[recs[9]] = 0.85 // lexical rank 10: past the lexical pool
	sims[recs[1]] = 0.8  // lexical rank 2: needs no help
	out, added := fuseHits(hits, recs, sims)
	var order []int
	for _, h := range out {
		order = append(order, h.Doc)
	}
	if len(added) != 2 || added[recs[11]] != 0.9 || added[recs[9]] != 0.85 {
		t.Errorf("added %v, want records 11 and 9", added)
	}
	// Both after the best lexical hit: 9, matched by both rankings, fuses
	// above everything else; 11 after 1, which its vector confirms.
	// Each takes the score of the hit before it.
	if fmt.Sprint(order) != "[0 9 1 11 2 3 4 5 6 7 8]" {
		t.Errorf("order %v", order)
	}
	for i := 1; i < len(out); i++ {
		if out[i].Score > out[i-1].Score {
			t.Errorf("hit %d scores %v above the one before it (%v): sorting would move it", i, out[i].Score, out[i-1].Score)
		}
	}
	if m := out[1].Matched; len(m) != 1 {
		t.Errorf("a moved lexical hit lost what it matched: %v", m)
	}
	// Nothing stands out: nothing is added.
	flat := map[*adr.Record]float64{}
	for _, r := range recs {
		flat[r] = 0.5
	}
	if out, added := fuseHits(hits, recs, flat); len(added) != 0 || len(out) != len(hits) {
		t.Errorf("flat similarities added %v", added)
	}
}

func TestEmbeddingsConcurrentTasks(t *testing.T) {
	// Rankings made at once on one Service ask the endpoint once per
	// task, and agree. (Service.Answer itself is not made for concurrent
	// calls: each MCP call builds its own Service.)
	fake := &embedtest.Server{}
	_, emb := endpoint(t, fake)
	l := load(t, embedLog())
	svc := &Service{Log: l, CacheDir: t.TempDir(), Embeddings: emb()}
	recs := svc.live()
	outs := make([][]retrieve.Hit, 8)
	var wg sync.WaitGroup
	for i := range outs {
		task := embedTask
		if i%2 == 1 {
			task = "lerna turborepo"
		}
		wg.Go(func() { outs[i] = svc.embedHits(task, recs, nil) })
	}
	wg.Wait()
	svc.saving.Wait()
	for i := range outs {
		if fmt.Sprint(outs[i]) != fmt.Sprint(outs[i%2]) || len(outs[i]) == 0 {
			t.Fatalf("ranking %d: %v, want %v", i, outs[i], outs[i%2])
		}
	}
	if n := len(fake.Requests()); n < 3 || n > 4 {
		t.Errorf("%d requests, want one per task and the records once or twice", n)
	}
}

func TestEmbeddingsNoRecordEmbedded(t *testing.T) {
	// The task is embedded, no record is: the answer is lexical and says
	// so.
	fake := &embedtest.Server{FailAfter: 1}
	srv, emb := endpoint(t, fake)
	resp := answer(t, &Service{Log: load(t, embedLog()), CacheDir: t.TempDir(), Embeddings: emb()}, Request{Task: embedTask})
	if resp.Retrieval != "lexical" {
		t.Errorf("retrieval %q, want lexical", resp.Retrieval)
	}
	if last := resp.Warnings[len(resp.Warnings)-1]; !strings.HasPrefix(last, "embeddings cover 0 of 10 records: embeddings endpoint "+srv.URL+"/v1/embeddings: 503 Service Unavailable") {
		t.Errorf("warning %q", last)
	}
	for _, u := range resp.Units {
		if strings.Contains(u.Role, "embedding") {
			t.Errorf("unit %s labelled %q with no vectors", u.ID, u.Role)
		}
	}
}
