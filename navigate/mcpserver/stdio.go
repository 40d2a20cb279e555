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

	"github.com/git-adr/git-adr/internal/failpoint"
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
//     or a number) is answered with a JSON-RPC error (-32700 or -32600)
//     here, and the session goes on;
//   - a JSON-RPC batch (a line holding an array of messages) is served
//     when the session negotiated protocol 2025-03-26, the one version
//     that has batches, and answered with one array of the answers; it is
//     refused (-32600) on every other protocol and before initialize,
//     which must be sent alone (see batch.go);
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
		pending: map[string]bool{}, cancelled: map[string]bool{}, batches: map[string]*batch{}}
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
	// initID is the ID of the initialize request read last while its
	// answer is not written ("" otherwise): a batch waits for that answer,
	// which settles the protocol.
	initID string
	// protocol is the version the answer to initialize gave ("" before).
	protocol string
	// batches are the batches being answered, by the IDs of their
	// requests still unanswered.
	batches map[string]*batch
	// queue holds the messages of a batch not yet returned by Read
	// (Read is never called concurrently).
	queue []jsonrpc.Message
	done  bool // Close was called
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
		// A line over the limit was answered and skipped: the session
		// goes on with the next line.
		if err != nil && !errors.Is(err, errLineTooLong) {
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
	if len(c.queue) > 0 {
		msg := c.queue[0]
		c.queue = c.queue[1:]
		return msg, nil
	}
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
			if msgs := c.check(v.line); len(msgs) > 0 {
				c.queue = msgs[1:]
				return msgs[0], nil
			}
		}
		if v.err != nil {
			if errors.Is(v.err, io.EOF) {
				// Every line before the end was checked (cancellations
				// noted); tests hold slow answers until here.
				failpoint.Hit("stdio-end-of-input")
				c.drain(DrainTimeout)
			}
			return nil, v.err
		}
	}
}

// check validates one line: the messages it holds are returned, and
// invalid ones answered here.
func (c *stdioConn) check(line []byte) []jsonrpc.Message {
	line = bytes.TrimSpace(line)
	v, rej := decodeLine(line)
	if rej != nil {
		c.reject(rej)
		return nil
	}
	if _, isBatch := v.([]any); isBatch {
		return c.checkBatch(line)
	}
	msg, rej := c.checkOne(line, v, nil)
	if rej != nil {
		c.reject(rej)
		return nil
	}
	return []jsonrpc.Message{msg}
}

// decodeLine decodes one line of JSON, numbers as written.
func decodeLine(line []byte) (any, *rejection) {
	dec := json.NewDecoder(bytes.NewReader(line))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, &rejection{code: jsonrpc.CodeParseError, message: "parse error: not JSON"}
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return nil, &rejection{code: jsonrpc.CodeParseError, message: "parse error: data after the JSON message"}
	}
	return v, nil
}

// rejection is the JSON-RPC error that answers an invalid message.
type rejection struct {
	id      json.RawMessage // nil: the message has no usable ID
	code    int64
	message string
}

// checkOne validates one message, raw as decoded into v, and notes the
// requests it makes; in, when not nil, is the batch it is part of.
func (c *stdioConn) checkOne(raw []byte, v any, in *batch) (jsonrpc.Message, *rejection) {
	invalid := func(id json.RawMessage, message string) (jsonrpc.Message, *rejection) {
		return nil, &rejection{id: id, code: jsonrpc.CodeInvalidRequest, message: "invalid request: " + message}
	}
	obj, ok := v.(map[string]any)
	if !ok {
		return invalid(nil, "a message is a JSON object")
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
		return invalid(nil, "an id is a string or a number")
	}
	if len(id) > MaxIDChars {
		return invalid(nil, fmt.Sprintf("an id is at most %d characters", MaxIDChars))
	}
	if tag, _ := obj["jsonrpc"].(string); tag != "2.0" {
		return invalid(id, `"jsonrpc" must be "2.0"`)
	}
	method, isCall := obj["method"].(string)
	if _, has := obj["method"]; has && !isCall {
		return invalid(id, `"method" must be a string`)
	}
	if !has(obj, "method") && !has(obj, "result") && !has(obj, "error") {
		return invalid(id, `no "method"`)
	}
	msg, err := jsonrpc.DecodeMessage(raw)
	if err != nil {
		return invalid(id, err.Error())
	}
	if !isCall {
		return msg, nil // a response to a request of the server
	}
	request := hasID && rawID != nil
	if in != nil {
		if method == "initialize" {
			return invalid(id, "initialize must not be part of a JSON-RPC batch; send it alone")
		}
		if request && in.has(string(id)) {
			return invalid(id, fmt.Sprintf("id %s is used twice in this batch", id))
		}
		c.mu.Lock()
		busy := request && c.pending[string(id)]
		c.mu.Unlock()
		if busy {
			return invalid(id, fmt.Sprintf("id %s is the id of a request not answered yet", id))
		}
	}
	c.mu.Lock()
	if method == "initialize" {
		c.initialized = true
		if request {
			c.initID = string(id)
		}
	}
	early := request && !c.initialized && !beforeInitialize[method] && !sessionless(obj)
	c.mu.Unlock()
	if early {
		return invalid(id, fmt.Sprintf("%q before initialize; send initialize first", clipMethod(method)))
	}
	if method == "notifications/cancelled" {
		if p, ok := obj["params"].(map[string]any); ok {
			if rid := normID(p["requestId"]); rid != "" {
				c.cancel(rid)
			}
		}
	}
	if request && !streams[method] {
		c.mu.Lock()
		c.pending[string(id)] = true
		c.mu.Unlock()
	}
	if request && in != nil {
		in.wait(id)
	}
	return msg, nil
}

// cancel notes that the client cancelled the request rid: its answer
// will not be sent, and a batch it is part of is sent without it.
func (c *stdioConn) cancel(rid string) {
	c.mu.Lock()
	if !c.pending[rid] {
		c.mu.Unlock()
		return
	}
	c.cancelled[rid] = true
	delete(c.pending, rid)
	var line []byte
	var done *batch
	if b := c.batches[rid]; b != nil {
		delete(c.batches, rid)
		if line = b.settle(rid, nil); line != nil {
			done = b
		}
	}
	c.cond.Broadcast()
	c.mu.Unlock()
	if done != nil {
		c.sendBatch(done, line)
	}
}

func has(obj map[string]any, k string) bool { _, ok := obj[k]; return ok }

// clipMethod shortens a method name echoed in an error: the answer must
// fit the wire budget (MessageBudget) whatever the client sent.
func clipMethod(m string) string {
	if rs := []rune(m); len(rs) > 100 {
		return string(rs[:100]) + "…"
	}
	return m
}

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
	c.reject(&rejection{id: id, code: code, message: message})
}

// reject sends the answer to an invalid message.
func (c *stdioConn) reject(r *rejection) { c.writeLine(r.encode()) }

// encode renders r as the JSON-RPC error response it is.
func (r *rejection) encode() []byte {
	id := r.id
	if id == nil {
		id = json.RawMessage("null")
	}
	b, _ := json.Marshal(struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Error   jsonrpc.Error   `json:"error"`
	}{"2.0", id, jsonrpc.Error{Code: r.code, Message: r.message}})
	return unescapeHTML(b)
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

// Write sends msg, unless it answers a cancelled request. The answer to
// a request of a batch waits for the other answers of the batch, and
// goes with them in one array (sendBatch).
func (c *stdioConn) Write(ctx context.Context, msg jsonrpc.Message) error {
	resp, ok := msg.(*jsonrpc.Response)
	if !ok {
		data, err := encodeMessage(msg)
		if err != nil {
			return err
		}
		return c.send(data)
	}
	resp = withCode(resp)
	key := idKey(resp.ID)
	data, err := encodeMessage(resp)
	if err != nil {
		// A batch waiting for initialize's answer must not wait for the
		// end of the session.
		c.mu.Lock()
		if key == c.initID {
			c.initID = ""
		}
		c.cond.Broadcast()
		c.mu.Unlock()
		return err
	}
	c.mu.Lock()
	isInit := key == c.initID
	if isInit {
		// The protocol is settled before its answer is sent (a client may
		// send a batch as soon as it reads it), and a batch waiting for
		// it is checked after (initID is cleared below).
		if resp.Error == nil {
			var r struct {
				ProtocolVersion string `json:"protocolVersion"`
			}
			if json.Unmarshal(resp.Result, &r) == nil {
				c.protocol = r.ProtocolVersion
			}
		}
	}
	drop := c.cancelled[key]
	delete(c.cancelled, key)
	b := c.batches[key]
	var line []byte
	if b != nil {
		delete(c.batches, key)
		// A request cancelled before its batch was registered (the
		// cancel came in the same batch) is left out of the array like
		// any cancelled one; the batch still answers the others.
		if drop {
			data = nil
		}
		line = b.settle(key, data)
	}
	c.cond.Broadcast()
	c.mu.Unlock()
	switch {
	case b != nil:
		if line != nil {
			return c.sendBatch(b, line)
		}
		return nil
	case !drop:
		err = c.send(data)
	}
	c.mu.Lock()
	delete(c.pending, key)
	if isInit && c.initID == key {
		c.initID = ""
	}
	c.cond.Broadcast()
	c.mu.Unlock()
	return err
}

// withCode gives an error response without a JSON-RPC code (the SDK's
// errors that are not *jsonrpc.Error, or code 0) code -32603.
func withCode(resp *jsonrpc.Response) *jsonrpc.Response {
	if resp.Error == nil {
		return resp
	}
	var we *jsonrpc.Error
	if errors.As(resp.Error, &we) && we.Code != 0 {
		return resp
	}
	return &jsonrpc.Response{ID: resp.ID, Error: &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: resp.Error.Error()}}
}

// send writes one message, unless the connection is closed.
func (c *stdioConn) send(data []byte) error {
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
		c.mu.Lock()
		c.done = true
		c.cond.Broadcast()
		c.mu.Unlock()
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
