// Package embedtest is an OpenAI-compatible embeddings endpoint for tests
// (POST /v1/embeddings): deterministic vectors in which words of one
// concept ("monorepo", "yarn", "workspaces") fall on the same
// coordinates, so that texts sharing no word can still be close. It
// counts what it is asked, and can be told to fail.
package embedtest

import (
	"encoding/json"
	"fmt"
	"hash/fnv"
	"io"
	"math"
	"net/http"
	"strings"
	"sync"
	"unicode"
)

// Dims is the length of every vector.
const Dims = 64

// concepts are groups of words that land on one coordinate.
var concepts = [][]string{
	{"monorepo", "monorepos", "workspace", "workspaces", "yarn", "lerna", "turborepo", "nx"},
	{"database", "databases", "postgresql", "postgres", "sql", "datastore", "storage", "stored"},
	{"amp", "accelerated", "mobile", "pages"},
	{"authentication", "login", "oauth", "sso", "password", "passwords", "credentials", "sign"},
	{"cache", "caching", "redis", "memcached", "cached"},
}

// stop are words that carry no concept.
var stop = map[string]bool{}

func init() {
	for _, w := range strings.Fields("a an and are as at be by do does for from how in is it of on or our the this to use used we what which with") {
		stop[w] = true
	}
}

// Vector is the vector of text: every word not a stop word adds one to
// the coordinate of its concept (three coordinates' worth for a word of a
// concept) or to a coordinate its hash picks, and the sum is normalised.
func Vector(text string) []float32 {
	v := make([]float64, Dims)
	for _, w := range strings.FieldsFunc(strings.ToLower(text), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }) {
		if stop[w] {
			continue
		}
		if c := conceptOf(w); c >= 0 {
			v[c] += 3
			continue
		}
		h := fnv.New32a()
		h.Write([]byte(w))
		v[len(concepts)+int(h.Sum32()%uint32(Dims-len(concepts)))]++
	}
	norm := 0.0
	for _, x := range v {
		norm += x * x
	}
	out := make([]float32, Dims)
	for i, x := range v {
		if norm > 0 {
			out[i] = float32(x / math.Sqrt(norm))
		}
	}
	return out
}

func conceptOf(w string) int {
	for i, ws := range concepts {
		for _, c := range ws {
			if c == w {
				return i
			}
		}
	}
	return -1
}

// Request is one request the server received.
type Request struct {
	Model         string
	Inputs        []string
	Authorization string
}

// Server answers POST /v1/embeddings with [Vector] of each input.
type Server struct {
	// Key, when set, is the Bearer token every request must carry.
	Key string
	// Status, when set, is the HTTP status every request gets, with an
	// error body.
	Status int
	// FailAfter, when set, makes every request after the first FailAfter
	// fail with status 503.
	FailAfter int
	// Log, when set, gets one line a request: method, path, model,
	// number of inputs and the Authorization header.
	Log func(line string)

	mu       sync.Mutex
	requests []Request
}

// Requests returns the requests received so far.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Request(nil), s.requests...)
}

// ServeHTTP implements http.Handler.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	var body struct {
		Model string   `json:"model"`
		Input []string `json:"input"`
	}
	data, _ := io.ReadAll(io.LimitReader(r.Body, 64<<20))
	decodeErr := json.Unmarshal(data, &body)
	if s.Log != nil {
		s.Log(fmt.Sprintf("%s %s model=%s inputs=%d authorization=%q", r.Method, r.URL.Path, body.Model, len(body.Input), r.Header.Get("Authorization")))
	}
	s.mu.Lock()
	s.requests = append(s.requests, Request{Model: body.Model, Inputs: body.Input, Authorization: r.Header.Get("Authorization")})
	n := len(s.requests)
	s.mu.Unlock()
	switch {
	case r.Method != http.MethodPost || r.URL.Path != "/v1/embeddings":
		http.Error(w, `{"error":{"message":"not found"}}`, http.StatusNotFound)
		return
	case s.Key != "" && r.Header.Get("Authorization") != "Bearer "+s.Key:
		http.Error(w, `{"error":{"message":"invalid api key"}}`, http.StatusUnauthorized)
		return
	case s.Status != 0:
		http.Error(w, `{"error":{"message":"model not loaded"}}`, s.Status)
		return
	case s.FailAfter > 0 && n > s.FailAfter:
		http.Error(w, `{"error":{"message":"overloaded"}}`, http.StatusServiceUnavailable)
		return
	case decodeErr != nil || body.Model == "" || len(body.Input) == 0:
		http.Error(w, `{"error":{"message":"bad request"}}`, http.StatusBadRequest)
		return
	}
	type item struct {
		Object    string    `json:"object"`
		Index     int       `json:"index"`
		Embedding []float32 `json:"embedding"`
	}
	out := struct {
		Object string `json:"object"`
		Model  string `json:"model"`
		Data   []item `json:"data"`
	}{Object: "list", Model: body.Model}
	// Listed last to first, as the index says: a client must follow the
	// indexes, not the order.
	for i := len(body.Input) - 1; i >= 0; i-- {
		out.Data = append(out.Data, item{Object: "embedding", Index: i, Embedding: Vector(body.Input[i])})
	}
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(out)
}
