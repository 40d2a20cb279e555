package embeddings

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/git-adr/git-adr/internal/embedtest"
)

func TestEmbedBatchesInOrder(t *testing.T) {
	fake := &embedtest.Server{Key: "sekret"}
	srv := httptest.NewServer(fake)
	defer srv.Close()
	texts := make([]string, 130)
	for i := range texts {
		texts[i] = fmt.Sprintf("record %d about word%d", i, i)
	}
	c := &Client{BaseURL: srv.URL + "/v1/", Model: "m", APIKey: "sekret"}
	vs, err := c.Embed(context.Background(), texts)
	if err != nil {
		t.Fatal(err)
	}
	if len(vs) != len(texts) {
		t.Fatalf("%d vectors for %d texts", len(vs), len(texts))
	}
	for i, v := range vs {
		// The fake lists its vectors last to first, with their indexes.
		if Cosine(v, embedtest.Vector(texts[i])) < 0.9999 {
			t.Fatalf("vector %d is not the vector of its text", i)
		}
	}
	reqs := fake.Requests()
	var sizes []int
	for _, r := range reqs {
		sizes = append(sizes, len(r.Inputs))
		if r.Authorization != "Bearer sekret" || r.Model != "m" {
			t.Errorf("request %+v: want the model and the Bearer token", r)
		}
	}
	if fmt.Sprint(sizes) != "[64 64 2]" {
		t.Errorf("batches %v, want [64 64 2]", sizes)
	}
}

func TestEmbedKeepsAnsweredBatches(t *testing.T) {
	fake := &embedtest.Server{FailAfter: 1}
	srv := httptest.NewServer(fake)
	defer srv.Close()
	c := &Client{BaseURL: srv.URL + "/v1", Model: "m", Batch: 2}
	vs, err := c.Embed(context.Background(), []string{"a", "b", "c", "d", "e"})
	if err == nil || !strings.Contains(err.Error(), "503 Service Unavailable") || !strings.Contains(err.Error(), srv.URL+"/v1/embeddings") {
		t.Fatalf("err = %v, want the endpoint and its 503", err)
	}
	if len(vs) != 2 {
		t.Fatalf("%d vectors kept, want the first batch's 2", len(vs))
	}
}

func TestEmbedErrors(t *testing.T) {
	answer := func(body string) http.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) { fmt.Fprint(w, body) }
	}
	for _, c := range []struct {
		name    string
		handler http.Handler
		want    string
	}{
		{"status", &embedtest.Server{Status: http.StatusInternalServerError}, `500 Internal Server Error: {"error":{"message":"model not loaded"}}`},
		{"bad key", &embedtest.Server{Key: "right"}, "401 Unauthorized"},
		{"not json", answer("<html>"), "the answer is not an embeddings list: <html>"},
		{"too few", answer(`{"data":[{"index":0,"embedding":[1,2]}]}`), "1 vectors for 2 texts"},
		{"repeated index", answer(`{"data":[{"index":0,"embedding":[1,2]},{"index":0,"embedding":[1,2]}]}`), "vector 1 has index 0, out of range or repeated"},
		{"index out of range", answer(`{"data":[{"index":0,"embedding":[1,2]},{"index":7,"embedding":[1,2]}]}`), "vector 1 has index 7"},
		{"empty vector", answer(`{"data":[{"embedding":[]},{"embedding":[1]}]}`), "vector 0 has 0 numbers"},
		{"mixed lengths", answer(`{"data":[{"embedding":[1,2]},{"embedding":[1]}]}`), "vectors of 2 and 1 numbers in one answer"},
		{"infinite", answer(`{"data":[{"embedding":[1e39]},{"embedding":[1]}]}`), "vector 0 holds 1e+39, out of range"},
		{"too long", answer(`{"data":[{"embedding":[` + strings.Repeat("0,", MaxDims) + `0]},{"embedding":[1]}]}`), fmt.Sprintf("vector 0 has %d numbers (1 to %d expected)", MaxDims+1, MaxDims)},
	} {
		t.Run(c.name, func(t *testing.T) {
			srv := httptest.NewServer(c.handler)
			defer srv.Close()
			_, err := (&Client{BaseURL: srv.URL + "/v1", Model: "m"}).Embed(context.Background(), []string{"x", "y"})
			if err == nil || !strings.Contains(err.Error(), c.want) || !strings.HasPrefix(err.Error(), "embeddings endpoint "+srv.URL+"/v1/embeddings: ") {
				t.Fatalf("err = %v, want the endpoint and %q", err, c.want)
			}
		})
	}
}

func TestEmbedBoundsTheAnswer(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte(`{"data":[{"embedding":[`))
		chunk := []byte(strings.Repeat("0.125,", 1<<16))
		for written := 0; written <= MaxResponse; written += len(chunk) {
			if _, err := w.Write(chunk); err != nil {
				return
			}
		}
	}))
	defer srv.Close()
	_, err := (&Client{BaseURL: srv.URL, Model: "m"}).Embed(context.Background(), []string{"x"})
	if err == nil || !strings.Contains(err.Error(), "the answer is larger than 32 MiB") {
		t.Fatalf("err = %v, want the size bound", err)
	}
}

func TestEmbedTimeout(t *testing.T) {
	release := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		// Never answers: only the client's bound ends the request.
		select {
		case <-r.Context().Done():
		case <-release:
		}
	}))
	defer srv.Close()
	defer close(release)
	_, err := (&Client{BaseURL: srv.URL, Model: "m", Timeout: 100 * time.Millisecond}).Embed(context.Background(), []string{"x"})
	if err == nil || !strings.Contains(err.Error(), "no answer within 100ms") {
		t.Fatalf("err = %v, want the timeout", err)
	}
	// The caller's own deadline is named as such.
	ctx, cancel := context.WithCancelCause(context.Background())
	cancel(fmt.Errorf("the answer's embedding time is spent"))
	_, err = (&Client{BaseURL: srv.URL, Model: "m"}).Embed(ctx, []string{"x"})
	if err == nil || !strings.Contains(err.Error(), "the answer's embedding time is spent") {
		t.Fatalf("err = %v, want the caller's cause", err)
	}
}

func TestEmbedConnectionRefused(t *testing.T) {
	srv := httptest.NewServer(http.NotFoundHandler())
	url := srv.URL
	srv.Close()
	_, err := (&Client{BaseURL: url + "/v1", Model: "m"}).Embed(context.Background(), []string{"x"})
	if err == nil || !strings.Contains(err.Error(), "connection refused") || strings.Contains(err.Error(), `Post "`) {
		t.Fatalf("err = %v, want a refused connection, said once", err)
	}
}

func TestCheckURL(t *testing.T) {
	for base, want := range map[string]string{
		"http://localhost:11434/v1":      "",
		"https://api.openai.com/v1":      "",
		"file:///etc/passwd":             "is not an http or https URL",
		"localhost:11434":                "is not an http or https URL",
		"http:///v1":                     "names no host",
		"http://user:pw@host/v1":         `"http://%E2%80%A6@host/v1" holds credentials`,
		"http://host/v1?key=1":           "has a query or fragment",
		"http://host/v1\x7f":             "is not a URL",
		"https://host.example/v1#anchor": "has a query or fragment",
	} {
		err := CheckURL(base)
		if want == "" && err != nil || want != "" && (err == nil || !strings.Contains(err.Error(), want)) {
			t.Errorf("CheckURL(%q) = %v, want %q", base, err, want)
		}
		if err != nil && strings.Contains(err.Error(), "pw") {
			t.Errorf("CheckURL(%q) = %v: the password is shown", base, err)
		}
	}
}

func TestCosine(t *testing.T) {
	for _, c := range []struct {
		a, b []float32
		want float64
	}{
		{[]float32{1, 0}, []float32{1, 0}, 1},
		{[]float32{1, 0}, []float32{0, 1}, 0},
		{[]float32{1, 1}, []float32{-1, -1}, -1},
		{[]float32{0, 0}, []float32{1, 0}, 0},
		{[]float32{1}, []float32{1, 0}, 0},
	} {
		if got := Cosine(c.a, c.b); got < c.want-1e-9 || got > c.want+1e-9 {
			t.Errorf("Cosine(%v, %v) = %v, want %v", c.a, c.b, got, c.want)
		}
	}
	if Cosine(embedtest.Vector("how is the monorepo organised"), embedtest.Vector("Use Yarn workspaces")) < 0.5 {
		t.Error("the fake's concept words should be close")
	}
}
