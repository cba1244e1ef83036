package providers

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
	"github.com/openai/openai-go/v3/packages/param"
	"github.com/openai/openai-go/v3/packages/ssestream"
	"github.com/openai/openai-go/v3/shared"
)

// Role is a chat message author.
type Role string

const (
	RoleSystem    Role = "system"
	RoleDeveloper Role = "developer"
	RoleUser      Role = "user"
	RoleAssistant Role = "assistant"
	RoleTool      Role = "tool"
)

// Message is one chat turn.
type Message struct {
	Role    Role
	Content string
	// ToolCalls are the calls an assistant turn made (replayed history).
	ToolCalls []ToolCall
	// ToolCallID is required for RoleTool: the call this turn answers.
	ToolCallID string
}

// Tool is a function the model may call. Parameters is a JSON Schema object
// (nil means no parameters).
type Tool struct {
	Name        string
	Description string
	Parameters  map[string]any
	Strict      bool
}

// ToolCall is a function call requested by the model. Arguments is the JSON
// text the model produced; it is passed through unvalidated (models can emit
// invalid JSON unless Strict is set; repairing it is the host's choice).
type ToolCall struct {
	ID        string
	Name      string
	Arguments string
}

// JSONSchema requests structured output (response_format json_schema).
// When set, a completed answer (finish_reason "stop", no refusal) whose
// content is not valid JSON fails with KindInvalidResponse.
type JSONSchema struct {
	Name        string
	Description string
	Schema      map[string]any
	Strict      bool
}

// ChatRequest is one chat completion request (always n=1).
type ChatRequest struct {
	Messages []Message
	Tools    []Tool
	// ToolChoice: "" (server default), "auto", "none", "required", or the
	// name of one of Tools to force it.
	ToolChoice     string
	ResponseSchema *JSONSchema
	Temperature    *float64
	// MaxTokens is sent as max_completion_tokens when > 0.
	MaxTokens int
	Seed      *int64
}

// ChatResponse is the validated first (only) choice of a completion.
type ChatResponse struct {
	Provider     string
	Model        string // as reported by the server, else configured
	ID           string
	Content      string
	Refusal      string
	ToolCalls    []ToolCall
	FinishReason string // "stop", "length", "tool_calls", "content_filter", ...
	Usage        Usage
}

// StreamDelta is one increment of a streamed answer, as received.
type StreamDelta struct {
	Content   string
	Refusal   string
	ToolCalls []ToolCallDelta
}

// ToolCallDelta is a fragment of tool call Index: ID and Name usually arrive
// once, Arguments in pieces to be concatenated.
type ToolCallDelta struct {
	Index     int
	ID        string
	Name      string
	Arguments string
}

// ChatConfig configures a [ChatClient].
type ChatConfig struct {
	Config
	// NoStreamUsage stops Stream from sending stream_options.include_usage
	// (for servers that reject it); usage is then zero for streamed answers.
	NoStreamUsage bool
	// MaxAnswerBytes bounds the bytes read from one chat answer's HTTP body
	// (a JSON answer, or all of a stream's server-sent events); past it the
	// call fails with KindTooLarge. 0 means DefaultMaxAnswerBytes; negative
	// is a KindConfiguration error.
	MaxAnswerBytes int64
}

// DefaultMaxAnswerBytes is the default ChatConfig.MaxAnswerBytes: 4 MiB,
// some hundred times a long answer with its tool calls.
const DefaultMaxAnswerBytes = 4 << 20

// ChatClient calls POST {BaseURL}/chat/completions through openai-go. It is
// safe for concurrent use.
type ChatClient struct {
	ep            *endpoint
	svc           openai.ChatCompletionService
	noStreamUsage bool
	maxAnswer     int64
}

// NewChatClient validates cfg (KindConfiguration on failure). The key
// variable is read on every call, not here.
func NewChatClient(cfg ChatConfig) (*ChatClient, error) {
	ep, err := newEndpoint(cfg.Config, "chat", DefaultChatTimeout)
	if err != nil {
		return nil, err
	}
	maxAnswer := cfg.MaxAnswerBytes
	switch {
	case maxAnswer < 0:
		return nil, &Error{Kind: KindConfiguration, Op: "chat", Provider: cfg.Provider, Model: cfg.Model,
			Message: fmt.Sprintf("MaxAnswerBytes is %d; want 0 (the default) or more", maxAnswer)}
	case maxAnswer == 0:
		maxAnswer = DefaultMaxAnswerBytes
	}
	return &ChatClient{ep: ep, svc: openai.NewChatCompletionService(ep.serviceOptions()...),
		noStreamUsage: cfg.NoStreamUsage, maxAnswer: maxAnswer}, nil
}

// Model returns the configured model id.
func (c *ChatClient) Model() string { return c.ep.model }

// CompleteAsync starts Complete in its own goroutine; see [Future].
func (c *ChatClient) CompleteAsync(ctx context.Context, req ChatRequest) *Future[*ChatResponse] {
	return Go(ctx, func(ctx context.Context) (*ChatResponse, error) { return c.Complete(ctx, req) })
}

// Complete sends req and waits for the whole answer.
func (c *ChatClient) Complete(ctx context.Context, req ChatRequest) (*ChatResponse, error) {
	const op = "chat"
	params, err := c.params(op, req)
	if err != nil {
		return nil, err
	}
	key, err := c.ep.resolveKey(op)
	if err != nil {
		return nil, err
	}
	attrs := []slog.Attr{slog.Int("messages", len(req.Messages)), slog.Int("tools", len(req.Tools))}
	return call(ctx, c.ep, op, key, attrs, func(actx context.Context, opts []option.RequestOption) (*ChatResponse, error) {
		var raw []byte
		opts = append(opts, option.WithMiddleware(limitBody(c.maxAnswer)), option.WithResponseBodyInto(&raw))
		if _, err := c.svc.New(actx, params, opts...); err != nil {
			return nil, err
		}
		var cc openai.ChatCompletion
		if err := json.Unmarshal(raw, &cc); err != nil {
			return nil, &Error{Kind: KindInvalidResponse, Op: op, Message: "malformed JSON: " + err.Error(), Err: err}
		}
		if f, ok := cc.JSON.ExtraFields["error"]; ok && f.Raw() != "" && f.Raw() != "null" {
			return nil, providerError(op, []byte(f.Raw()))
		}
		return c.response(op, KindInvalidResponse, &cc, req.ResponseSchema != nil, key)
	})
}

// Stream sends req with stream=true, calls onDelta (may be nil) for every
// non-empty increment of the answer, and returns the accumulated answer
// (openai-go's ChatCompletionAccumulator). The stream must end with a
// finish_reason and `data: [DONE]`; otherwise KindInvalidStream. It is
// retried like Complete only while nothing has been delivered to onDelta.
// If onDelta returns an error the stream is closed and that error is
// returned unchanged. A server that echoes the API key gets it replaced by
// [REDACTED] in the deltas and the answer, also when it is split across
// deltas: a delta's tail that could begin the key is held back until the
// next delta shows it does not (or the stream ends).
func (c *ChatClient) Stream(ctx context.Context, req ChatRequest, onDelta func(StreamDelta) error) (*ChatResponse, error) {
	const op = "chat_stream"
	params, err := c.params(op, req)
	if err != nil {
		return nil, err
	}
	if !c.noStreamUsage {
		params.StreamOptions = openai.ChatCompletionStreamOptionsParam{IncludeUsage: param.NewOpt(true)}
	}
	key, err := c.ep.resolveKey(op)
	if err != nil {
		return nil, err
	}
	var cbErr error
	attrs := []slog.Attr{slog.Int("messages", len(req.Messages)), slog.Int("tools", len(req.Tools))}
	res, err := call(ctx, c.ep, op, key, attrs, func(actx context.Context, opts []option.RequestOption) (*ChatResponse, error) {
		done := &doneDetector{}
		opts = append(opts, option.WithMiddleware(limitBody(c.maxAnswer)), option.WithMiddleware(done.middleware))
		stream := c.svc.NewStreaming(actx, params, opts...)
		defer stream.Close()
		var acc openai.ChatCompletionAccumulator
		delivered := false
		red := newStreamRedactor(key)
		deliver := func(d StreamDelta) error {
			if err := onDelta(d); err != nil {
				cbErr = err
				return &noRetryError{&Error{Kind: KindCanceled, Op: op, Message: "stream callback returned an error", Err: err}}
			}
			return nil
		}
		fail := func(err error) error {
			if delivered {
				return &noRetryError{err}
			}
			return err
		}
		for stream.Next() {
			chunk := stream.Current()
			if !acc.AddChunk(chunk) {
				return nil, fail(&Error{Kind: KindInvalidStream, Op: op, Message: "chunk could not be accumulated (bad choice or tool-call index, or changed id)"})
			}
			if onDelta == nil {
				continue
			}
			for _, ch := range chunk.Choices {
				if ch.Index != 0 {
					continue
				}
				d := StreamDelta{Content: ch.Delta.Content, Refusal: ch.Delta.Refusal}
				for _, tc := range ch.Delta.ToolCalls {
					d.ToolCalls = append(d.ToolCalls, ToolCallDelta{Index: int(tc.Index), ID: tc.ID, Name: tc.Function.Name, Arguments: tc.Function.Arguments})
				}
				if d = red.delta(d); d.empty() {
					continue
				}
				delivered = true
				if err := deliver(d); err != nil {
					return nil, err
				}
			}
		}
		if err := stream.Err(); err != nil {
			var se *ssestream.StreamError
			var syn *json.SyntaxError
			var typ *json.UnmarshalTypeError
			switch {
			case errors.As(err, &se):
				return nil, fail(providerError(op, []byte(gjsonError(se.Event.Data))))
			case errors.As(err, &syn), errors.As(err, &typ):
				return nil, fail(&Error{Kind: KindInvalidStream, Op: op, Message: "malformed chunk JSON: " + err.Error(), Err: err})
			}
			return nil, fail(err)
		}
		if err := actx.Err(); err != nil {
			return nil, fail(err)
		}
		if !done.sawDone {
			return nil, fail(&Error{Kind: KindInvalidStream, Op: op, Message: "stream ended without data: [DONE]"})
		}
		if d := red.flush(); onDelta != nil && !d.empty() {
			if err := deliver(d); err != nil {
				return nil, err
			}
		}
		return c.response(op, KindInvalidStream, &acc.ChatCompletion, req.ResponseSchema != nil, key)
	})
	if cbErr != nil {
		return nil, cbErr
	}
	return res, err
}

// gjsonError extracts the "error" member of a stream event's data.
func gjsonError(data []byte) string {
	var ev struct {
		Error json.RawMessage `json:"error"`
	}
	if json.Unmarshal(data, &ev) == nil && len(ev.Error) > 0 {
		return string(ev.Error)
	}
	return "{}"
}

// response validates the first choice and removes the API key from its
// texts (redactResponse). kind is the failure kind for protocol
// violations (invalid_response or invalid_stream).
func (c *ChatClient) response(op string, kind Kind, cc *openai.ChatCompletion, wantJSON bool, key string) (*ChatResponse, error) {
	bad := func(format string, a ...any) (*ChatResponse, error) {
		return nil, &Error{Kind: kind, Op: op, Message: fmt.Sprintf(format, a...)}
	}
	if len(cc.Choices) == 0 {
		return bad("no choices in answer")
	}
	ch := cc.Choices[0]
	if ch.Index != 0 {
		return bad("first choice has index %d", ch.Index)
	}
	if ch.FinishReason == "" {
		return bad("answer has no finish_reason")
	}
	out := &ChatResponse{
		Provider:     c.ep.provider,
		Model:        firstNonEmpty(cc.Model, c.ep.model),
		ID:           cc.ID,
		Content:      ch.Message.Content,
		Refusal:      ch.Message.Refusal,
		FinishReason: ch.FinishReason,
		Usage: Usage{
			PromptTokens:     cc.Usage.PromptTokens,
			CompletionTokens: cc.Usage.CompletionTokens,
			TotalTokens:      cc.Usage.TotalTokens,
		},
	}
	for i, tc := range ch.Message.ToolCalls {
		if tc.Type != "" && tc.Type != "function" {
			return bad("tool call %d has unsupported type %q", i, tc.Type)
		}
		if tc.ID == "" || tc.Function.Name == "" {
			return bad("tool call %d lacks id or function name", i)
		}
		out.ToolCalls = append(out.ToolCalls, ToolCall{ID: tc.ID, Name: tc.Function.Name, Arguments: tc.Function.Arguments})
	}
	if wantJSON && out.FinishReason == "stop" && out.Refusal == "" && !json.Valid([]byte(out.Content)) {
		return nil, &Error{Kind: KindInvalidResponse, Op: op, Message: "structured output is not valid JSON"}
	}
	redactResponse(out, key)
	return out, nil
}

// params validates req and converts it to openai-go parameters.
func (c *ChatClient) params(op string, req ChatRequest) (openai.ChatCompletionNewParams, error) {
	var p openai.ChatCompletionNewParams
	bad := func(format string, a ...any) (openai.ChatCompletionNewParams, error) {
		return p, &Error{Kind: KindConfiguration, Op: op, Provider: c.ep.provider, Model: c.ep.model, Message: fmt.Sprintf(format, a...)}
	}
	if len(req.Messages) == 0 {
		return bad("no messages")
	}
	p.Model = shared.ChatModel(c.ep.model)
	for i, m := range req.Messages {
		switch m.Role {
		case RoleSystem:
			p.Messages = append(p.Messages, openai.SystemMessage(m.Content))
		case RoleDeveloper:
			p.Messages = append(p.Messages, openai.DeveloperMessage(m.Content))
		case RoleUser:
			p.Messages = append(p.Messages, openai.UserMessage(m.Content))
		case RoleAssistant:
			var a openai.ChatCompletionAssistantMessageParam
			if m.Content != "" || len(m.ToolCalls) == 0 {
				a.Content.OfString = param.NewOpt(m.Content)
			}
			for j, tc := range m.ToolCalls {
				if tc.ID == "" || tc.Name == "" {
					return bad("message %d: tool call %d needs ID and Name", i, j)
				}
				a.ToolCalls = append(a.ToolCalls, openai.ChatCompletionMessageToolCallUnionParam{
					OfFunction: &openai.ChatCompletionMessageFunctionToolCallParam{
						ID:       tc.ID,
						Function: openai.ChatCompletionMessageFunctionToolCallFunctionParam{Name: tc.Name, Arguments: tc.Arguments},
					},
				})
			}
			p.Messages = append(p.Messages, openai.ChatCompletionMessageParamUnion{OfAssistant: &a})
		case RoleTool:
			if m.ToolCallID == "" {
				return bad("message %d: tool message needs ToolCallID", i)
			}
			p.Messages = append(p.Messages, openai.ToolMessage(m.Content, m.ToolCallID))
		default:
			return bad("message %d: unknown role %q", i, m.Role)
		}
	}
	names := map[string]bool{}
	for i, t := range req.Tools {
		if t.Name == "" || names[t.Name] {
			return bad("tool %d: name is empty or duplicated", i)
		}
		names[t.Name] = true
		fd := shared.FunctionDefinitionParam{Name: t.Name, Parameters: shared.FunctionParameters(t.Parameters)}
		if t.Description != "" {
			fd.Description = param.NewOpt(t.Description)
		}
		if t.Strict {
			fd.Strict = param.NewOpt(true)
		}
		p.Tools = append(p.Tools, openai.ChatCompletionFunctionTool(fd))
	}
	switch req.ToolChoice {
	case "":
	case "auto", "none", "required":
		p.ToolChoice = openai.ChatCompletionToolChoiceOptionUnionParam{OfAuto: param.NewOpt(req.ToolChoice)}
	default:
		if !names[req.ToolChoice] {
			return bad("ToolChoice %q names no tool", req.ToolChoice)
		}
		p.ToolChoice = openai.ToolChoiceOptionFunctionToolChoice(openai.ChatCompletionNamedToolChoiceFunctionParam{Name: req.ToolChoice})
	}
	if s := req.ResponseSchema; s != nil {
		if s.Name == "" || s.Schema == nil {
			return bad("ResponseSchema needs Name and Schema")
		}
		js := shared.ResponseFormatJSONSchemaJSONSchemaParam{Name: s.Name, Schema: s.Schema}
		if s.Description != "" {
			js.Description = param.NewOpt(s.Description)
		}
		if s.Strict {
			js.Strict = param.NewOpt(true)
		}
		p.ResponseFormat = openai.ChatCompletionNewParamsResponseFormatUnion{OfJSONSchema: &shared.ResponseFormatJSONSchemaParam{JSONSchema: js}}
	}
	if req.Temperature != nil {
		p.Temperature = param.NewOpt(*req.Temperature)
	}
	if req.MaxTokens < 0 {
		return bad("MaxTokens must not be negative")
	}
	if req.MaxTokens > 0 {
		p.MaxCompletionTokens = param.NewOpt(int64(req.MaxTokens))
	}
	if req.Seed != nil {
		p.Seed = param.NewOpt(*req.Seed)
	}
	return p, nil
}

// doneDetector wraps a 2xx response body and records whether an SSE line
// `data: [DONE]` went by. openai-go's stream ends the same way on [DONE]
// and on a bare EOF, so this is how a truncated stream is told apart.
type doneDetector struct {
	sawDone bool
	line    []byte
	long    bool
}

func (d *doneDetector) middleware(req *http.Request, next option.MiddlewareNext) (*http.Response, error) {
	res, err := next(req)
	if err == nil && res != nil && res.StatusCode < 300 && res.Body != nil {
		res.Body = &doneBody{ReadCloser: res.Body, d: d}
	}
	return res, err
}

type doneBody struct {
	io.ReadCloser
	d *doneDetector
}

func (b *doneBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	b.d.scan(p[:n])
	if err == io.EOF {
		b.d.endLine()
	}
	return n, err
}

const maxDoneLine = 16

func (d *doneDetector) scan(p []byte) {
	for _, c := range p {
		if c == '\n' || c == '\r' {
			d.endLine()
			continue
		}
		if len(d.line) >= maxDoneLine {
			d.long = true
			continue
		}
		d.line = append(d.line, c)
	}
}

func (d *doneDetector) endLine() {
	if !d.long {
		s := string(d.line)
		if s == "data: [DONE]" || s == "data:[DONE]" {
			d.sawDone = true
		}
	}
	d.line, d.long = d.line[:0], false
}

// answerTooLarge is the read error of a body cut off by limitBody.
type answerTooLarge struct{ limit int64 }

func (e *answerTooLarge) Error() string {
	return fmt.Sprintf("the answer is larger than %d bytes", e.limit)
}

// limitBody returns a middleware that fails the reading of a 2xx response
// body with *answerTooLarge once more than limit bytes have been read.
func limitBody(limit int64) option.Middleware {
	return func(req *http.Request, next option.MiddlewareNext) (*http.Response, error) {
		res, err := next(req)
		if err == nil && res != nil && res.StatusCode < 300 && res.Body != nil {
			res.Body = &limitedBody{ReadCloser: res.Body, left: limit, limit: limit}
		}
		return res, err
	}
}

type limitedBody struct {
	io.ReadCloser
	left, limit int64
}

func (b *limitedBody) Read(p []byte) (int, error) {
	if b.left < 0 {
		return 0, &answerTooLarge{b.limit}
	}
	if int64(len(p)) > b.left+1 {
		p = p[:b.left+1]
	}
	n, err := b.ReadCloser.Read(p)
	b.left -= int64(n)
	if b.left < 0 {
		return n - 1, &answerTooLarge{b.limit}
	}
	return n, err
}
