package mcpserver

import (
	"bytes"
	"encoding/json"
	"io"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// DrainTimeout bounds how long end of input waits for answers still being
// computed.
const DrainTimeout = 30 * time.Second

// StdioTransport is newline-delimited JSON-RPC over in and out, like the
// SDK's stdio transport, except that end of input waits (at most
// DrainTimeout) until every request read has been answered: the SDK closes
// the session at end of input and would drop answers still being computed,
// so `printf '...' | git adr mcp` would lose them. out is never closed.
func StdioTransport(in io.ReadCloser, out io.Writer) mcp.Transport {
	d := &drain{}
	d.cond = sync.NewCond(&d.mu)
	return &mcp.IOTransport{
		Reader: &drainReader{d: d, r: in},
		Writer: &drainWriter{d: d, w: out},
	}
}

// drain counts requests read and not yet answered.
type drain struct {
	mu      sync.Mutex
	cond    *sync.Cond
	pending map[string]bool // request IDs, as raw JSON
}

func (d *drain) mark(id json.RawMessage, open bool) {
	var v any
	if json.Unmarshal(id, &v) == nil { // 1 and 1.0 are the same ID
		id, _ = json.Marshal(v)
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.pending == nil {
		d.pending = map[string]bool{}
	}
	if open {
		d.pending[string(id)] = true
	} else {
		delete(d.pending, string(id))
	}
	d.cond.Broadcast()
}

// wait returns once nothing is pending or the timeout passed.
func (d *drain) wait(timeout time.Duration) {
	timer := time.AfterFunc(timeout, func() {
		d.mu.Lock()
		d.pending = nil
		d.mu.Unlock()
		d.cond.Broadcast()
	})
	defer timer.Stop()
	d.mu.Lock()
	for len(d.pending) > 0 {
		d.cond.Wait()
	}
	d.mu.Unlock()
}

// lines splits a stream into lines and hands each complete one to f.
type lines struct{ partial []byte }

func (l *lines) feed(p []byte, f func([]byte)) {
	for len(p) > 0 {
		i := bytes.IndexByte(p, '\n')
		if i < 0 {
			l.partial = append(l.partial, p...)
			return
		}
		f(append(l.partial, p[:i]...))
		l.partial = l.partial[:0]
		p = p[i+1:]
	}
}

// message is the part of a JSON-RPC message that tells requests from
// responses.
type message struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
}

func parse(line []byte) []message {
	line = bytes.TrimSpace(line)
	var ms []message
	if len(line) > 0 && line[0] == '[' { // a batch
		_ = json.Unmarshal(line, &ms)
		return ms
	}
	var m message
	if json.Unmarshal(line, &m) == nil {
		ms = append(ms, m)
	}
	return ms
}

type drainReader struct {
	d *drain
	r io.ReadCloser
	l lines
}

func (r *drainReader) Read(p []byte) (int, error) {
	n, err := r.r.Read(p)
	r.l.feed(p[:n], func(line []byte) {
		for _, m := range parse(line) {
			if m.Method != "" && len(m.ID) > 0 && string(m.ID) != "null" {
				r.d.mark(m.ID, true)
			}
		}
	})
	if err == io.EOF {
		r.d.wait(DrainTimeout)
	}
	return n, err
}

func (r *drainReader) Close() error { return r.r.Close() }

type drainWriter struct {
	d  *drain
	w  io.Writer
	l  lines
	mu sync.Mutex
}

func (w *drainWriter) Write(p []byte) (int, error) {
	n, err := w.w.Write(p)
	w.mu.Lock()
	w.l.feed(p[:n], func(line []byte) {
		for _, m := range parse(line) {
			if m.Method == "" && len(m.ID) > 0 {
				w.d.mark(m.ID, false)
			}
		}
	})
	w.mu.Unlock()
	return n, err
}

func (w *drainWriter) Close() error { return nil }
