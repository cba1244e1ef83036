package mcp

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"slices"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/rlm-dev/rlm/internal/textclip"
)

// MaxMessageBytes bounds an HTTP request body (the largest arguments and
// the envelope around them); larger ones get HTTP 413.
const MaxMessageBytes = MaxArgBytes + 64<<10

// MaxLineBytes bounds one line (one message) of the stdio transport, the
// SDK's own bound: arguments over MaxArgBytes in a line under it get the
// executor's too_large tool error, with the request's id.
const MaxLineBytes = sdk.DefaultMaxLineLength

// lineFilter is the stdio transport's input: newline-delimited JSON-RPC
// messages, of which it passes on only those the SDK's connection can
// decode. The SDK ends the session on the first line it cannot decode; a
// line that is not JSON gets a -32700 (parse error) response here, a line
// that is JSON but not a JSON-RPC message the SDK accepts (bad version
// tag, an id that is neither a string nor a number, a batch the protocol
// version does not allow, ...) or one over MaxLineBytes gets a -32600
// (invalid request) response, and the session goes on. Responses are
// written to out, which the SDK writes through too (one Write per
// message, under out's lock).
//
// When the input ends, the filter reports its end to the SDK (which then
// ends the session, abandoning what it has not answered) only once every
// request it passed on has been answered, or MaxDrainWait after the end:
// a client that writes its requests and closes stdin (a pipe, a script)
// gets every answer.
type lineFilter struct {
	in      *bufio.Reader
	out     *syncWriter
	log     *slog.Logger
	pending []byte // the current valid line, with its "\n", not yet read
	version string // the protocol version the client's initialize asked for
	err     error  // the input's error (io.EOF), once every line is passed
	drained bool   // the requests passed on before err were waited for
}

// MaxDrainWait bounds how long a stdio session stays open after its
// input ended, for the requests it read before to be answered.
const MaxDrainWait = time.Minute

func newLineFilter(in io.Reader, out *syncWriter, log *slog.Logger) *lineFilter {
	return &lineFilter{in: bufio.NewReaderSize(in, 64<<10), out: out, log: log}
}

func (f *lineFilter) Read(p []byte) (int, error) {
	for len(f.pending) == 0 {
		if f.err != nil {
			if !f.drained {
				f.drained = true
				f.out.waitAnswered(MaxDrainWait)
			}
			return 0, f.err
		}
		line, tooLong, err := f.readLine()
		if err != nil {
			f.err = err
		}
		if tooLong {
			f.refuse(nil, jsonrpc.CodeInvalidRequest, fmt.Sprintf("Invalid Request: a message over %d bytes", MaxLineBytes))
			continue
		}
		line = bytes.TrimSpace(line)
		if len(line) > 0 && f.valid(line) {
			f.pending = append(line, '\n')
		}
	}
	n := copy(p, f.pending)
	f.pending = f.pending[n:]
	return n, nil
}

// readLine reads the next line (without its "\n"), or reports that it
// was longer than MaxLineBytes (then it is skipped to its end).
func (f *lineFilter) readLine() (line []byte, tooLong bool, err error) {
	for {
		chunk, err := f.in.ReadSlice('\n')
		if !tooLong {
			if len(line)+len(chunk) > MaxLineBytes+1 {
				tooLong, line = true, nil
			} else {
				line = append(line, chunk...)
			}
		}
		if !errors.Is(err, bufio.ErrBufferFull) {
			return bytes.TrimSuffix(line, []byte("\n")), tooLong, err
		}
	}
}

// valid reports whether the SDK can take line (one JSON value), and
// answers it with an error response if not.
func (f *lineFilter) valid(line []byte) bool {
	if !json.Valid(line) {
		f.refuse(nil, jsonrpc.CodeParseError, "Parse error: the line is not JSON")
		return false
	}
	if line[0] != '[' {
		msg, err := jsonrpc.DecodeMessage(line)
		if err != nil {
			f.refuse(requestID(line), jsonrpc.CodeInvalidRequest, "Invalid Request: "+textclip.Clean(err.Error(), 200))
			return false
		}
		f.noteVersion(msg)
		f.out.expect(msg)
		return true
	}
	var batch []json.RawMessage
	if err := json.Unmarshal(line, &batch); err != nil || len(batch) == 0 {
		f.refuse(nil, jsonrpc.CodeInvalidRequest, "Invalid Request: an empty batch")
		return false
	}
	if !f.batchesAllowed() {
		f.refuse(nil, jsonrpc.CodeInvalidRequest, fmt.Sprintf("Invalid Request: JSON-RPC batches are not supported in protocol version %s", textclip.Clean(f.version, 40)))
		return false
	}
	ids := map[jsonrpc.ID]bool{}
	for _, raw := range batch {
		msg, err := jsonrpc.DecodeMessage(raw)
		if err != nil {
			f.refuse(nil, jsonrpc.CodeInvalidRequest, "Invalid Request: in a batch: "+textclip.Clean(err.Error(), 200))
			return false
		}
		if req, ok := msg.(*jsonrpc.Request); ok && req.ID.IsValid() {
			if ids[req.ID] {
				f.refuse(nil, jsonrpc.CodeInvalidRequest, "Invalid Request: a batch repeats a request id")
				return false
			}
			ids[req.ID] = true
		}
		f.noteVersion(msg)
	}
	for _, raw := range batch {
		msg, _ := jsonrpc.DecodeMessage(raw) // decoded above
		f.out.expect(msg)
	}
	return true
}

// noteVersion records the protocol version an initialize request asks for.
func (f *lineFilter) noteVersion(msg jsonrpc.Message) {
	req, ok := msg.(*jsonrpc.Request)
	if !ok || req.Method != "initialize" {
		return
	}
	var p struct {
		ProtocolVersion string `json:"protocolVersion"`
	}
	if json.Unmarshal(req.Params, &p) == nil {
		f.version = p.ProtocolVersion
	}
}

// batchesAllowed mirrors the SDK: batches are refused once the session's
// protocol version is 2025-06-18 or later (an unsupported version asked
// for is negotiated to the latest).
func (f *lineFilter) batchesAllowed() bool {
	if f.version == "" {
		return true
	}
	return slices.Contains(sdk.SupportedProtocolVersions(), f.version) && f.version < "2025-06-18"
}

// requestID is line's "id" if it is a string or a number (as JSON text),
// else nil (the response's id is then null).
func requestID(line []byte) json.RawMessage {
	var m struct {
		ID json.RawMessage `json:"id"`
	}
	if json.Unmarshal(line, &m) != nil || len(m.ID) == 0 {
		return nil
	}
	var v any
	if json.Unmarshal(m.ID, &v) != nil {
		return nil
	}
	switch v.(type) {
	case string, float64:
		return m.ID
	}
	return nil
}

// refuse writes an error response with id (nil: null) and logs it.
func (f *lineFilter) refuse(id json.RawMessage, code int64, message string) {
	f.out.Write(append(errorResponse(id, code, message), '\n'))
	if f.log != nil {
		f.log.Warn("refused a JSON-RPC message", "code", code, "message", message)
	}
}

// errorResponse is a JSON-RPC error response with id (nil: null).
func errorResponse(id json.RawMessage, code int64, message string) []byte {
	if id == nil {
		id = json.RawMessage("null")
	}
	type wireError struct {
		Code    int64  `json:"code"`
		Message string `json:"message"`
	}
	b, err := json.Marshal(struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Error   wireError       `json:"error"`
	}{"2.0", id, wireError{code, message}})
	if err != nil { // a string, a number and valid JSON always marshal
		panic(err)
	}
	return b
}

// syncWriter serialises the writes of the SDK and of lineFilter, so
// that each message stays one line, and keeps the ids of the client's
// requests passed on (expect) that no response written has answered yet.
type syncWriter struct {
	mu       sync.Mutex
	w        io.Writer
	open     map[jsonrpc.ID]bool
	answered chan struct{} // a response was written (buffered, one)
}

func (l *syncWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.settle(p)
	return l.w.Write(p)
}

// expect records msg's id if it is a request that awaits a response.
func (l *syncWriter) expect(msg jsonrpc.Message) {
	req, ok := msg.(*jsonrpc.Request)
	if !ok || !req.ID.IsValid() {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.open == nil {
		l.open, l.answered = map[jsonrpc.ID]bool{}, make(chan struct{}, 1)
	}
	l.open[req.ID] = true
}

// settle takes the ids of the responses in p (one message, or a batch of
// them) out of open. Called with mu held.
func (l *syncWriter) settle(p []byte) {
	if len(l.open) == 0 {
		return
	}
	p = bytes.TrimSpace(p)
	msgs := []json.RawMessage{p}
	if len(p) > 0 && p[0] == '[' {
		// A fresh slice: decoding into msgs would write over p itself
		// (a RawMessage is decoded into its own backing array).
		var batch []json.RawMessage
		if json.Unmarshal(p, &batch) != nil {
			return
		}
		msgs = batch
	}
	for _, raw := range msgs {
		if m, err := jsonrpc.DecodeMessage(raw); err == nil {
			if r, ok := m.(*jsonrpc.Response); ok && l.open[r.ID] {
				delete(l.open, r.ID)
				select {
				case l.answered <- struct{}{}:
				default:
				}
			}
		}
	}
}

// waitAnswered returns once every expected request is answered, or after
// max.
func (l *syncWriter) waitAnswered(max time.Duration) {
	deadline := time.NewTimer(max)
	defer deadline.Stop()
	for {
		l.mu.Lock()
		n, ch := len(l.open), l.answered
		l.mu.Unlock()
		if n == 0 {
			return
		}
		select {
		case <-ch:
		case <-deadline.C:
			return
		}
	}
}

func (*syncWriter) Close() error { return nil }
