package mcpserver

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// DrainTimeout bounds how long end of input waits for answers still being
// computed.
const DrainTimeout = 30 * time.Second

// MaxIDChars bounds a request ID as encoded (an integer or a string of at
// most 62 characters): the wire budget of every answer reserves this much
// for the ID it echoes.
const MaxIDChars = 64

// MaxLineBytes bounds one incoming message.
const MaxLineBytes = 4 << 20

// streams are methods whose request stays open for the whole session (a
// notification stream, protocol 2026-07-28): end of input never waits for
// them.
var streams = map[string]bool{"subscriptions/listen": true}

// beforeInitialize are the methods a client may call before initialize:
// the handshake, a ping and the sessionless protocol's discovery.
var beforeInitialize = map[string]bool{"initialize": true, "ping": true, "server/discover": true}

// StdioTransport is newline-delimited JSON-RPC over in and out. It differs
// from the SDK's stdio transport where the SDK would end or stall the
// session:
//
//   - a line that is not one valid JSON-RPC 2.0 message (not JSON,
//     trailing data, "jsonrpc" other than "2.0", an ID that is not a string
//     or a number, a batch) is answered with a JSON-RPC error (-32700 or
//     -32600) here, and the session goes on;
//   - a call before initialize gets -32600, not the SDK's code 0, and any
//     other error without a code gets -32603;
//   - the answer to a request the client cancelled is not sent;
//   - output is JSON without HTML escaping ("<" stays "<", not "\u003c"),
//     the encoding wire budgets are measured in ([Server.WireCost]);
//   - end of input waits (at most DrainTimeout) for every request read to
//     be answered, except streams that only end with the session
//     (subscriptions/listen), so `printf '...' | git adr mcp` gets its
//     answers and a 2026-07-28 client is not kept waiting.
//
// out is never closed.
func StdioTransport(in io.ReadCloser, out io.Writer) mcp.Transport {
	return &stdioTransport{in: in, out: out}
}

type stdioTransport struct {
	in  io.ReadCloser
	out io.Writer
}

func (t *stdioTransport) Connect(context.Context) (mcp.Connection, error) {
	c := &stdioConn{in: t.in, out: t.out, lines: make(chan lineOrErr), closed: make(chan struct{}),
		pending: map[string]bool{}, cancelled: map[string]bool{}}
	c.cond = sync.NewCond(&c.mu)
	go c.readLoop()
	return c, nil
}

type lineOrErr struct {
	line []byte
	err  error
}

type stdioConn struct {
	in    io.ReadCloser
	out   io.Writer
	lines chan lineOrErr

	closeOnce sync.Once
	closed    chan struct{}

	writeMu sync.Mutex

	mu          sync.Mutex
	cond        *sync.Cond
	pending     map[string]bool // requests read and not answered, by ID as JSON
	cancelled   map[string]bool // requests the client cancelled
	initialized bool            // an initialize request was read
}

func (c *stdioConn) SessionID() string { return "" }

func (c *stdioConn) readLoop() {
	r := bufio.NewReaderSize(c.in, 64<<10)
	for {
		line, err := readLine(r)
		if len(line) > 0 || err != nil {
			select {
			case c.lines <- lineOrErr{line, err}:
			case <-c.closed:
				return
			}
		}
		if err != nil {
			return
		}
	}
}

// errLineTooLong reports an incoming message over MaxLineBytes; the rest
// of the line is skipped.
var errLineTooLong = errors.New("message too long")

// readLine reads one line without its end; a line over MaxLineBytes is
// returned as errLineTooLong with the rest of it discarded.
func readLine(r *bufio.Reader) ([]byte, error) {
	var line []byte
	for {
		chunk, err := r.ReadSlice('\n')
		if len(line)+len(chunk) > MaxLineBytes {
			for errors.Is(err, bufio.ErrBufferFull) {
				_, err = r.ReadSlice('\n')
			}
			if err != nil && !errors.Is(err, io.EOF) {
				return nil, err
			}
			return []byte{}, errLineTooLong
		}
		line = append(line, chunk...)
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		if err != nil && !errors.Is(err, io.EOF) || len(line) == 0 && err != nil {
			return nil, err
		}
		return bytes.TrimRight(line, "\r\n"), err
	}
}

// Read returns the next valid message, answering invalid ones itself.
func (c *stdioConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	for {
		var v lineOrErr
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-c.closed:
			return nil, io.EOF
		case v = <-c.lines:
		}
		if errors.Is(v.err, errLineTooLong) {
			c.reply(nil, jsonrpc.CodeInvalidRequest, fmt.Sprintf("the message is over %d bytes", MaxLineBytes))
			continue
		}
		if len(bytes.TrimSpace(v.line)) > 0 {
			if msg := c.check(v.line); msg != nil {
				return msg, nil
			}
		}
		if v.err != nil {
			if errors.Is(v.err, io.EOF) {
				c.drain(DrainTimeout)
			}
			return nil, v.err
		}
	}
}

// check validates one line; an invalid one is answered and nil returned.
func (c *stdioConn) check(line []byte) jsonrpc.Message {
	line = bytes.TrimSpace(line)
	dec := json.NewDecoder(bytes.NewReader(line))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		c.reply(nil, jsonrpc.CodeParseError, "parse error: not JSON")
		return nil
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		c.reply(nil, jsonrpc.CodeParseError, "parse error: data after the JSON message")
		return nil
	}
	obj, ok := v.(map[string]any)
	if !ok {
		if _, batch := v.([]any); batch {
			c.reply(nil, jsonrpc.CodeInvalidRequest, "invalid request: JSON-RPC batches are not supported (MCP 2025-06-18 and later); send one message per line")
		} else {
			c.reply(nil, jsonrpc.CodeInvalidRequest, "invalid request: a message is a JSON object")
		}
		return nil
	}
	rawID, hasID := obj["id"]
	var id json.RawMessage
	switch x := rawID.(type) {
	case nil:
	case string:
		id, _ = json.Marshal(x)
	case json.Number:
		id = json.RawMessage(normID(x)) // 1 and 1.0 are the same ID
	default:
		c.reply(nil, jsonrpc.CodeInvalidRequest, "invalid request: an id is a string or a number")
		return nil
	}
	if len(id) > MaxIDChars {
		c.reply(nil, jsonrpc.CodeInvalidRequest, fmt.Sprintf("invalid request: an id is at most %d characters", MaxIDChars))
		return nil
	}
	if tag, _ := obj["jsonrpc"].(string); tag != "2.0" {
		c.reply(id, jsonrpc.CodeInvalidRequest, `invalid request: "jsonrpc" must be "2.0"`)
		return nil
	}
	method, isCall := obj["method"].(string)
	if _, has := obj["method"]; has && !isCall {
		c.reply(id, jsonrpc.CodeInvalidRequest, `invalid request: "method" must be a string`)
		return nil
	}
	if !has(obj, "method") && !has(obj, "result") && !has(obj, "error") {
		c.reply(id, jsonrpc.CodeInvalidRequest, `invalid request: no "method"`)
		return nil
	}
	msg, err := jsonrpc.DecodeMessage(line)
	if err != nil {
		c.reply(id, jsonrpc.CodeInvalidRequest, "invalid request: "+err.Error())
		return nil
	}
	if !isCall {
		return msg // a response to a request of the server
	}
	request := hasID && rawID != nil
	c.mu.Lock()
	if method == "initialize" {
		c.initialized = true
	}
	early := request && !c.initialized && !beforeInitialize[method] && !sessionless(obj)
	c.mu.Unlock()
	if early {
		c.reply(id, jsonrpc.CodeInvalidRequest, fmt.Sprintf("invalid request: %q before initialize; send initialize first", method))
		return nil
	}
	if method == "notifications/cancelled" {
		if p, ok := obj["params"].(map[string]any); ok {
			if rid := normID(p["requestId"]); rid != "" {
				c.mu.Lock()
				if c.pending[rid] {
					c.cancelled[rid] = true
					delete(c.pending, rid)
					c.cond.Broadcast()
				}
				c.mu.Unlock()
			}
		}
	}
	if request && !streams[method] {
		c.mu.Lock()
		c.pending[string(id)] = true
		c.mu.Unlock()
	}
	return msg
}

func has(obj map[string]any, k string) bool { _, ok := obj[k]; return ok }

// sessionless reports a request of the 2026-07-28 protocol, which carries
// its protocol version in _meta instead of an initialize handshake.
func sessionless(obj map[string]any) bool {
	p, _ := obj["params"].(map[string]any)
	meta, _ := p["_meta"].(map[string]any)
	_, ok := meta["io.modelcontextprotocol/protocolVersion"]
	return ok
}

// normID renders an ID as the pending map keys it ("1", "\"a\"").
func normID(v any) string {
	switch x := v.(type) {
	case string:
		b, _ := json.Marshal(x)
		return string(b)
	case json.Number:
		f, err := x.Float64()
		if err != nil {
			return x.String()
		}
		b, _ := json.Marshal(f)
		return string(b)
	case float64:
		b, _ := json.Marshal(x)
		return string(b)
	}
	return ""
}

// reply answers an invalid message with a JSON-RPC error.
func (c *stdioConn) reply(id json.RawMessage, code int64, message string) {
	if id == nil {
		id = json.RawMessage("null")
	}
	b, _ := json.Marshal(struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Error   jsonrpc.Error   `json:"error"`
	}{"2.0", id, jsonrpc.Error{Code: code, Message: message}})
	c.writeLine(b)
}

// drain waits until no request is pending, or timeout.
func (c *stdioConn) drain(timeout time.Duration) {
	timer := time.AfterFunc(timeout, func() {
		c.mu.Lock()
		c.pending = map[string]bool{}
		c.mu.Unlock()
		c.cond.Broadcast()
	})
	defer timer.Stop()
	c.mu.Lock()
	for len(c.pending) > 0 {
		c.cond.Wait()
	}
	c.mu.Unlock()
}

// Write sends msg, unless it answers a cancelled request.
func (c *stdioConn) Write(ctx context.Context, msg jsonrpc.Message) error {
	if resp, ok := msg.(*jsonrpc.Response); ok {
		key := idKey(resp.ID)
		c.mu.Lock()
		drop := c.cancelled[key]
		delete(c.cancelled, key)
		delete(c.pending, key)
		c.cond.Broadcast()
		c.mu.Unlock()
		if drop {
			return nil
		}
		if resp.Error != nil {
			var we *jsonrpc.Error
			if !errors.As(resp.Error, &we) || we.Code == 0 {
				code := int64(jsonrpc.CodeInternalError)
				if we != nil {
					code = we.Code
				}
				if code == 0 {
					code = jsonrpc.CodeInternalError
				}
				resp = &jsonrpc.Response{ID: resp.ID, Error: &jsonrpc.Error{Code: code, Message: resp.Error.Error()}}
				msg = resp
			}
		}
	}
	data, err := encodeMessage(msg)
	if err != nil {
		return err
	}
	select {
	case <-c.closed:
		return mcp.ErrConnectionClosed
	default:
	}
	return c.writeLine(data)
}

func (c *stdioConn) writeLine(data []byte) error {
	c.writeMu.Lock()
	defer c.writeMu.Unlock()
	_, err := c.out.Write(append(data, '\n'))
	return err
}

func (c *stdioConn) Close() error {
	var err error
	c.closeOnce.Do(func() {
		close(c.closed)
		err = c.in.Close()
	})
	return err
}

// idKey renders an SDK ID as the pending map keys it.
func idKey(id jsonrpc.ID) string {
	b, err := json.Marshal(id.Raw())
	if err != nil {
		return ""
	}
	return string(b)
}

// encodeMessage is the SDK's encoding without HTML escaping.
func encodeMessage(msg jsonrpc.Message) ([]byte, error) {
	data, err := jsonrpc.EncodeMessage(msg)
	if err != nil {
		return nil, fmt.Errorf("encoding a message: %w", err)
	}
	return unescapeHTML(data), nil
}

// unescapeHTML undoes encoding/json's HTML escaping (\u003c, \u003e,
// \u0026) in valid JSON, leaving every other escape as it is.
func unescapeHTML(data []byte) []byte {
	if !bytes.Contains(data, []byte(`\u00`)) {
		return data
	}
	out := make([]byte, 0, len(data))
	for i := 0; i < len(data); i++ {
		b := data[i]
		if b != '\\' || i+1 >= len(data) {
			out = append(out, b)
			continue
		}
		if data[i+1] == 'u' && i+6 <= len(data) {
			switch string(data[i+2 : i+6]) {
			case "003c":
				out = append(out, '<')
				i += 5
				continue
			case "003e":
				out = append(out, '>')
				i += 5
				continue
			case "0026":
				out = append(out, '&')
				i += 5
				continue
			}
		}
		out = append(out, b, data[i+1]) // an escape: keep both bytes
		i++
	}
	return out
}
