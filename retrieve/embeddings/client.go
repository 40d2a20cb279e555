// Package embeddings calls an OpenAI-compatible embeddings endpoint
// (POST {base}/embeddings, as OpenAI, Ollama, llama.cpp's server and vLLM
// serve it) and compares the vectors it returns.
//
// # Bounds
//
// A [Client] sends at most [Client.Batch] texts a request, waits at most
// [Client.Timeout] for each answer, and reads at most [MaxResponse] bytes
// of it. An answer is checked before it is used: one vector for each text
// sent, in the order of the request's indexes, all of one length of at
// most [MaxDims] finite numbers. Anything else is an error naming the
// endpoint, never a vector that might be wrong.
package embeddings

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"net/http"
	"net/url"
	"strings"
	"time"
	"unicode/utf8"
)

// Defaults and limits of a client.
const (
	// DefaultBatch is how many texts one request carries: OpenAI accepts
	// 2,048, local servers are slower per text than per request, and a
	// failing batch loses little.
	DefaultBatch = 64
	// DefaultTimeout bounds one request.
	DefaultTimeout = 30 * time.Second
	// MaxResponse bounds the bytes read of one answer: 64 vectors of
	// 4,096 numbers written as JSON are some 6 MiB.
	MaxResponse = 32 << 20
	// MaxDims bounds a vector's length (the largest common models have
	// 4,096).
	MaxDims = 16384
)

// Client is an OpenAI-compatible embeddings endpoint.
type Client struct {
	// BaseURL is the API's base ("http://localhost:11434/v1"); requests
	// go to BaseURL + "/embeddings".
	BaseURL string
	Model   string
	// APIKey, when set, is sent as the Bearer token.
	APIKey string
	// HTTP is the client requests go through (nil: http.DefaultClient).
	HTTP *http.Client
	// Timeout bounds each request (0: DefaultTimeout).
	Timeout time.Duration
	// Batch is how many texts a request carries (0: DefaultBatch).
	Batch int
}

// CheckURL reports whether base can be an endpoint's base URL: an http or
// https URL with a host, and no credentials in it (a key belongs in an
// environment variable, not in configuration).
func CheckURL(base string) error {
	u, err := url.Parse(base)
	if err != nil {
		return fmt.Errorf("%q is not a URL: %w", base, err)
	}
	if u.Scheme != "http" && u.Scheme != "https" {
		return fmt.Errorf("%q is not an http or https URL", base)
	}
	if u.Host == "" {
		return fmt.Errorf("%q names no host", base)
	}
	if u.RawQuery != "" || u.Fragment != "" {
		return fmt.Errorf("%q has a query or fragment: the base URL ends at its path (\"http://localhost:11434/v1\")", base)
	}
	if u.User != nil {
		return fmt.Errorf("%q holds credentials: name an environment variable for the key instead", redact(u))
	}
	return nil
}

func redact(u *url.URL) string {
	c := *u
	c.User = url.User("…")
	return c.String()
}

// Endpoint is the URL requests are sent to.
func (c *Client) Endpoint() string { return strings.TrimRight(c.BaseURL, "/") + "/embeddings" }

// Embed returns the vectors of texts, one per text, in order, asking for
// at most Batch texts a request. On an error it returns the vectors of
// the batches answered before it (a prefix of texts), so that a caller
// may keep them.
func (c *Client) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	if err := CheckURL(c.BaseURL); err != nil {
		return nil, fmt.Errorf("embeddings endpoint: %w", err)
	}
	batch := c.Batch
	if batch <= 0 {
		batch = DefaultBatch
	}
	out := make([][]float32, 0, len(texts))
	dims := 0
	for from := 0; from < len(texts); from += batch {
		vs, err := c.request(ctx, texts[from:min(from+batch, len(texts))])
		if err == nil && dims != 0 && len(vs[0]) != dims {
			err = fmt.Errorf("embeddings endpoint %s: vectors of %d numbers after vectors of %d", c.Endpoint(), len(vs[0]), dims)
		}
		if err != nil {
			return out, err
		}
		dims = len(vs[0])
		out = append(out, vs...)
	}
	return out, nil
}

// request embeds one batch.
func (c *Client) request(ctx context.Context, texts []string) ([][]float32, error) {
	timeout := c.Timeout
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	parent := ctx
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	// Invalid UTF-8 is replaced: JSON would send it as U+FFFD anyway, and
	// some servers refuse the request instead.
	inputs := make([]string, len(texts))
	for i, t := range texts {
		inputs[i] = strings.ToValidUTF8(t, "\uFFFD")
	}
	body, err := json.Marshal(map[string]any{"model": c.Model, "input": inputs})
	if err != nil {
		return nil, err
	}
	endpoint := c.Endpoint()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, endpoint, bytes.NewReader(body))
	if err != nil {
		return nil, fmt.Errorf("embeddings endpoint %s: %w", endpoint, err)
	}
	req.Header.Set("Content-Type", "application/json")
	if c.APIKey != "" {
		req.Header.Set("Authorization", "Bearer "+c.APIKey)
	}
	client := c.HTTP
	if client == nil {
		client = http.DefaultClient
	}
	resp, err := client.Do(req)
	if err != nil {
		if parent.Err() != nil {
			return nil, fmt.Errorf("embeddings endpoint %s: %w", endpoint, context.Cause(parent))
		}
		if errors.Is(err, context.DeadlineExceeded) {
			return nil, fmt.Errorf("embeddings endpoint %s: no answer within %s", endpoint, timeout)
		}
		return nil, fmt.Errorf("embeddings endpoint %s: %w", endpoint, unwrapURLError(err))
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, MaxResponse+1))
	if err != nil {
		if parent.Err() != nil {
			return nil, fmt.Errorf("embeddings endpoint %s: %w", endpoint, context.Cause(parent))
		}
		if errors.Is(err, context.DeadlineExceeded) {
			return nil, fmt.Errorf("embeddings endpoint %s: no complete answer within %s", endpoint, timeout)
		}
		return nil, fmt.Errorf("embeddings endpoint %s: reading the answer: %w", endpoint, err)
	}
	if resp.StatusCode/100 != 2 {
		return nil, fmt.Errorf("embeddings endpoint %s: %s: %s", endpoint, resp.Status, clip(strings.TrimSpace(string(data)), 200))
	}
	if len(data) > MaxResponse {
		return nil, fmt.Errorf("embeddings endpoint %s: the answer is larger than %d MiB", endpoint, MaxResponse>>20)
	}
	vs, err := decode(data, len(texts))
	if err != nil {
		return nil, fmt.Errorf("embeddings endpoint %s: %w", endpoint, err)
	}
	return vs, nil
}

// decode reads an embeddings answer for n texts.
func decode(data []byte, n int) ([][]float32, error) {
	var answer struct {
		Data []struct {
			Index     *int      `json:"index"`
			Embedding []float64 `json:"embedding"`
		} `json:"data"`
	}
	if err := json.Unmarshal(data, &answer); err != nil {
		return nil, fmt.Errorf("the answer is not an embeddings list: %s", clip(string(data), 120))
	}
	if len(answer.Data) != n {
		return nil, fmt.Errorf("%d vectors for %d texts", len(answer.Data), n)
	}
	out := make([][]float32, n)
	for i, d := range answer.Data {
		at := i
		if d.Index != nil {
			at = *d.Index
		}
		if at < 0 || at >= n || out[at] != nil {
			return nil, fmt.Errorf("vector %d has index %d, out of range or repeated", i, at)
		}
		if len(d.Embedding) == 0 || len(d.Embedding) > MaxDims {
			return nil, fmt.Errorf("vector %d has %d numbers (1 to %d expected)", at, len(d.Embedding), MaxDims)
		}
		if i > 0 && len(d.Embedding) != len(answer.Data[0].Embedding) {
			return nil, fmt.Errorf("vectors of %d and %d numbers in one answer", len(answer.Data[0].Embedding), len(d.Embedding))
		}
		v := make([]float32, len(d.Embedding))
		for j, x := range d.Embedding {
			v[j] = float32(x)
			if math.IsInf(float64(v[j]), 0) {
				return nil, fmt.Errorf("vector %d holds %g, out of range", at, x)
			}
		}
		out[at] = v
	}
	return out, nil
}

// unwrapURLError drops net/http's "Post \"URL\": " prefix, which the
// caller's message already says.
func unwrapURLError(err error) error {
	var ue *url.Error
	if errors.As(err, &ue) {
		return ue.Err
	}
	return err
}

func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}

// Cosine is the cosine similarity of a and b (0 when either is zero or
// their lengths differ).
func Cosine(a, b []float32) float64 {
	if len(a) != len(b) {
		return 0
	}
	var dot, na, nb float64
	for i := range a {
		x, y := float64(a[i]), float64(b[i])
		dot += x * y
		na += x * x
		nb += y * y
	}
	if na == 0 || nb == 0 {
		return 0
	}
	return dot / math.Sqrt(na*nb)
}
