package providers

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"math"
	"strconv"
	"sync/atomic"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
	"github.com/openai/openai-go/v3/packages/param"

	"github.com/rlm-dev/rlm/retrieval"
)

// Embeddings is the validated result of one EmbedDetailed call.
type Embeddings struct {
	Provider   string      // Config.Provider, or "local"
	Model      string      // model id (as reported by the server when it reports one)
	Dimensions int         // length of every vector
	Vectors    [][]float32 // Vectors[i] embeds texts[i]; finite numbers only
	Usage      Usage       // summed over all batches
}

// Usage counts tokens as reported by the provider. For embeddings
// CompletionTokens is 0. The local embedder reports its own token count
// (identifier sub-tokens) in PromptTokens and TotalTokens.
type Usage struct {
	PromptTokens     int64
	CompletionTokens int64
	TotalTokens      int64
}

// The embedders of this package are retrieval's one Embedder interface.
var (
	_ retrieval.Embedder = (*RemoteEmbedder)(nil)
	_ retrieval.Embedder = (*LocalEmbedder)(nil)
)

// vectorsOf is the vectors of an EmbedDetailed result, or its error.
func vectorsOf(res *Embeddings, err error) ([][]float32, error) {
	if err != nil {
		return nil, err
	}
	return res.Vectors, nil
}

// EmbedOne embeds a single text with e and returns its vector. An embedder
// that answers with other than one vector gives a KindInvalidResponse
// *Error.
func EmbedOne(ctx context.Context, e retrieval.Embedder, text string) ([]float32, error) {
	vecs, err := e.Embed(ctx, []string{text})
	if err != nil {
		return nil, err
	}
	if len(vecs) != 1 {
		return nil, invalid("embedder %s returned %d vectors for 1 text", e.Model(), len(vecs))
	}
	return vecs[0], nil
}

// EmbedAsync starts e.Embed in its own goroutine; see [Future]. The result
// holds one vector per text, in input order. For usage and the reported
// model, start [RemoteEmbedder.EmbedDetailed] or
// [LocalEmbedder.EmbedDetailed] with [Go].
func EmbedAsync(ctx context.Context, e retrieval.Embedder, texts []string) *Future[[][]float32] {
	return Go(ctx, func(ctx context.Context) ([][]float32, error) { return e.Embed(ctx, texts) })
}

// EmbeddingConfig configures a [RemoteEmbedder].
type EmbeddingConfig struct {
	Config
	// Dimensions, when > 0, is sent as the `dimensions` request field and
	// every returned vector must have exactly this length.
	Dimensions int
	// BatchSize is the number of texts per HTTP request (default 64).
	// Batches are sent one after another, in order.
	BatchSize int
	// MaxTexts caps the number of texts per Embed call (default 4096).
	MaxTexts int
	// MaxTextBytes caps the UTF-8 length of each text (default 32 KiB).
	MaxTextBytes int
}

// RemoteEmbedder calls POST {BaseURL}/embeddings through openai-go and
// validates every answer: each input index exactly once and in range, the
// count matching the batch, every vector the same length (equal to
// Dimensions when configured) and made of finite float32 numbers. It is safe
// for concurrent use.
type RemoteEmbedder struct {
	ep       *endpoint
	svc      openai.EmbeddingService
	dims     int
	batch    int
	maxTexts int
	maxBytes int
	seenDims atomic.Int64
}

// NewRemoteEmbedder validates cfg (KindConfiguration on failure). The key
// variable is not read here but on every Embed call.
func NewRemoteEmbedder(cfg EmbeddingConfig) (*RemoteEmbedder, error) {
	ep, err := newEndpoint(cfg.Config, "embed", DefaultEmbedTimeout)
	if err != nil {
		return nil, err
	}
	r := &RemoteEmbedder{ep: ep, dims: cfg.Dimensions, batch: cfg.BatchSize, maxTexts: cfg.MaxTexts, maxBytes: cfg.MaxTextBytes}
	bad := func(msg string) error {
		return &Error{Kind: KindConfiguration, Op: "embed", Provider: ep.provider, Model: ep.model, Message: msg}
	}
	if r.dims < 0 || r.batch < 0 || r.maxTexts < 0 || r.maxBytes < 0 {
		return nil, bad("Dimensions, BatchSize, MaxTexts and MaxTextBytes must not be negative")
	}
	if r.batch == 0 {
		r.batch = DefaultBatchSize
	}
	if r.maxTexts == 0 {
		r.maxTexts = DefaultMaxTexts
	}
	if r.maxBytes == 0 {
		r.maxBytes = DefaultMaxTextBytes
	}
	r.svc = openai.NewEmbeddingService(ep.serviceOptions()...)
	return r, nil
}

// Model returns the configured model id.
func (r *RemoteEmbedder) Model() string { return r.ep.model }

// Nature returns retrieval.EmbedderLearned: the endpoint serves a trained
// model (retrieval.NatureReporter).
func (r *RemoteEmbedder) Nature() string { return retrieval.EmbedderLearned }

// Endpoint returns the configured base URL, which never carries
// credentials (NewRemoteEmbedder refuses them): two endpoints may serve
// different vector spaces under one model name, so a knowledge base keys
// its vectors by it too (project.Endpointer).
func (r *RemoteEmbedder) Endpoint() string { return r.ep.baseURL }

// Dimensions returns the configured dimensions, else the length observed in
// the last successful answer, else 0.
func (r *RemoteEmbedder) Dimensions() int {
	if r.dims > 0 {
		return r.dims
	}
	return int(r.seenDims.Load())
}

// Embed implements retrieval.Embedder: it returns the vectors of
// [RemoteEmbedder.EmbedDetailed], one per text in input order, with the same
// errors.
func (r *RemoteEmbedder) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	return vectorsOf(r.EmbedDetailed(ctx, texts))
}

// EmbedDetailed embeds texts and also reports the provider, the model the
// server names, the dimensions and the token usage. texts must be non-empty,
// every text non-empty and at most MaxTextBytes, at most MaxTexts of them;
// violations fail with KindConfiguration before any network call. Texts are
// split into batches of BatchSize; a failing batch fails the whole call (no
// partial result). Cancelling ctx stops before the next batch and aborts
// the one in flight.
func (r *RemoteEmbedder) EmbedDetailed(ctx context.Context, texts []string) (*Embeddings, error) {
	const op = "embed"
	if err := checkTexts(texts, r.maxTexts, r.maxBytes); err != nil {
		return nil, r.ep.stamp(err, 0)
	}
	key, err := r.ep.resolveKey(op)
	if err != nil {
		return nil, err
	}
	out := &Embeddings{Provider: r.ep.provider, Model: r.ep.model, Dimensions: r.dims, Vectors: make([][]float32, len(texts))}
	for start := 0; start < len(texts); start += r.batch {
		end := min(start+r.batch, len(texts))
		batch := texts[start:end]
		params := openai.EmbeddingNewParams{
			Model:          r.ep.model,
			Input:          openai.EmbeddingNewParamsInputUnion{OfArrayOfStrings: batch},
			EncodingFormat: openai.EmbeddingNewParamsEncodingFormatFloat,
		}
		if r.dims > 0 {
			params.Dimensions = param.NewOpt(int64(r.dims))
		}
		attrs := []slog.Attr{slog.Int("batch_start", start), slog.Int("batch_len", len(batch))}
		res, err := call(ctx, r.ep, op, key, attrs, func(actx context.Context, opts []option.RequestOption) (*batchResult, error) {
			var raw []byte
			opts = append(opts, option.WithResponseBodyInto(&raw))
			if _, err := r.svc.New(actx, params, opts...); err != nil {
				return nil, err
			}
			return decodeEmbeddingBatch(raw, len(batch), out.Dimensions)
		})
		if err != nil {
			return nil, err
		}
		if out.Dimensions == 0 {
			out.Dimensions = res.dims
		}
		if start == 0 && res.model != "" {
			out.Model = res.model
		}
		copy(out.Vectors[start:end], res.vectors)
		out.Usage.PromptTokens += res.usage.PromptTokens
		out.Usage.TotalTokens += res.usage.TotalTokens
	}
	r.seenDims.Store(int64(out.Dimensions))
	return out, nil
}

// checkTexts enforces the input contract shared by all embedders.
func checkTexts(texts []string, maxTexts, maxBytes int) *Error {
	bad := func(format string, a ...any) *Error {
		return &Error{Kind: KindConfiguration, Op: "embed", Message: fmt.Sprintf(format, a...)}
	}
	if len(texts) == 0 {
		return bad("no texts to embed")
	}
	if len(texts) > maxTexts {
		return bad("%d texts exceed the cap of %d per call", len(texts), maxTexts)
	}
	for i, t := range texts {
		if t == "" {
			return bad("text %d is empty", i)
		}
		if len(t) > maxBytes {
			return bad("text %d is %d bytes, over the cap of %d", i, len(t), maxBytes)
		}
	}
	return nil
}

type batchResult struct {
	model   string
	dims    int
	vectors [][]float32
	usage   Usage
}

func invalid(format string, a ...any) *Error {
	return &Error{Kind: KindInvalidResponse, Op: "embed", Message: fmt.Sprintf(format, a...)}
}

// decodeEmbeddingBatch decodes and validates one /embeddings answer. JSON is
// decoded with openai-go's CreateEmbeddingResponse; each vector is then
// re-read strictly from its raw JSON so that null, strings, nested values
// and numbers that overflow float32 (1e39, 1e999) are rejected instead of
// being coerced. (A bare NaN/Infinity token is not JSON and already fails
// decoding.) wantDims is 0 when unknown.
func decodeEmbeddingBatch(raw []byte, n, wantDims int) (*batchResult, error) {
	var res openai.CreateEmbeddingResponse
	if err := json.Unmarshal(raw, &res); err != nil {
		return nil, &Error{Kind: KindInvalidResponse, Op: "embed", Message: "malformed JSON: " + err.Error(), Err: err}
	}
	if f, ok := res.JSON.ExtraFields["error"]; ok && f.Raw() != "" && f.Raw() != "null" {
		return nil, providerError("embed", []byte(f.Raw()))
	}
	if len(res.Data) != n {
		return nil, invalid("got %d embeddings for %d inputs", len(res.Data), n)
	}
	out := &batchResult{model: res.Model, dims: wantDims, vectors: make([][]float32, n)}
	for i, item := range res.Data {
		idx, err := strconv.Atoi(item.JSON.Index.Raw())
		if err != nil {
			return nil, invalid("data[%d]: index is missing or not an integer", i)
		}
		if idx < 0 || idx >= n {
			return nil, invalid("data[%d]: index %d out of range [0,%d)", i, idx, n)
		}
		if out.vectors[idx] != nil {
			return nil, invalid("data[%d]: index %d appears more than once", i, idx)
		}
		vec, err := parseVector(item)
		if err != nil {
			return nil, invalid("data[%d] (index %d): %v", i, idx, err)
		}
		if len(vec) == 0 {
			return nil, invalid("data[%d] (index %d): empty embedding", i, idx)
		}
		if out.dims == 0 {
			out.dims = len(vec)
		} else if len(vec) != out.dims {
			return nil, invalid("data[%d] (index %d): dimension %d, expected %d", i, idx, len(vec), out.dims)
		}
		out.vectors[idx] = vec
	}
	// len(Data)==n, every index unique and in range: all covered.
	out.usage = Usage{PromptTokens: res.Usage.PromptTokens, TotalTokens: res.Usage.TotalTokens}
	return out, nil
}

// providerError builds a KindProvider error from an `error` object found in
// a 2xx body or stream event.
func providerError(op string, raw []byte) *Error {
	var pe struct {
		Message string          `json:"message"`
		Code    json.RawMessage `json:"code"`
		Type    string          `json:"type"`
	}
	if json.Unmarshal(raw, &pe) != nil {
		var s string
		if json.Unmarshal(raw, &s) == nil {
			pe.Message = s
		}
	}
	code := string(bytes.Trim(pe.Code, `"`))
	if code == "null" {
		code = ""
	}
	return &Error{Kind: KindProvider, Op: op, Code: firstNonEmpty(code, pe.Type),
		Message: firstNonEmpty(pe.Message, "error object in response")}
}

// parseVector reads an embedding strictly. A JSON array must hold only
// numbers; a base64 string (encoding_format=base64) is decoded by openai-go
// into little-endian float32 values.
func parseVector(item openai.Embedding) ([]float32, error) {
	raw := bytes.TrimSpace([]byte(item.JSON.Embedding.Raw()))
	if len(raw) == 0 || string(raw) == "null" {
		return nil, fmt.Errorf("embedding is missing")
	}
	switch raw[0] {
	case '"':
		if len(item.Embedding) == 0 {
			return nil, fmt.Errorf("embedding string is not base64 float32 data")
		}
		vec := make([]float32, len(item.Embedding))
		for i, f := range item.Embedding {
			if math.IsNaN(f) || math.IsInf(f, 0) {
				return nil, fmt.Errorf("component %d is not finite", i)
			}
			vec[i] = float32(f)
		}
		return vec, nil
	case '[':
	default:
		return nil, fmt.Errorf("embedding is neither an array nor a base64 string")
	}
	body := bytes.TrimSpace(raw[1 : len(raw)-1])
	if len(body) == 0 {
		return nil, nil
	}
	vec := make([]float32, 0, bytes.Count(body, []byte{','})+1)
	for i := 0; len(body) > 0; i++ {
		var tok []byte
		if c := bytes.IndexByte(body, ','); c >= 0 {
			tok, body = bytes.TrimSpace(body[:c]), body[c+1:]
		} else {
			tok, body = bytes.TrimSpace(body), nil
		}
		if len(tok) == 0 || (tok[0] != '-' && (tok[0] < '0' || tok[0] > '9')) {
			return nil, fmt.Errorf("component %d is not a number", i)
		}
		f, err := strconv.ParseFloat(string(tok), 64)
		if err != nil || math.IsNaN(f) || math.IsInf(f, 0) || math.Abs(f) > math.MaxFloat32 {
			return nil, fmt.Errorf("component %d (%.40s) is not a finite float32", i, tok)
		}
		vec = append(vec, float32(f))
	}
	return vec, nil
}
