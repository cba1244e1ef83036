package providers

import (
	"context"
	"errors"
	"log/slog"
	"math/rand/v2"
	"net"
	"net/http"
	"net/url"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
)

// Defaults applied when the corresponding Config field is zero.
const (
	DefaultProvider        = "openai"
	DefaultChatTimeout     = 120 * time.Second // per attempt, whole answer incl. stream
	DefaultEmbedTimeout    = 60 * time.Second  // per attempt (one batch)
	DefaultMaxAttempts     = 3                 // first try + 2 retries
	DefaultBaseDelay       = 500 * time.Millisecond
	DefaultMaxDelay        = 8 * time.Second
	DefaultMaxRetryAfter   = 30 * time.Second
	DefaultBatchSize       = 64        // texts per embeddings request
	DefaultMaxTexts        = 4096      // texts per Embed call
	DefaultMaxTextBytes    = 32 * 1024 // UTF-8 bytes per text
	DefaultLocalDimensions = 384
)

// Config describes one OpenAI-compatible endpoint. Chat and embeddings are
// configured independently (see [ChatConfig] and [EmbeddingConfig]), so they
// may point at different servers, models and keys.
//
// The client sends exactly what the Config says: it does not read any
// OPENAI_* environment variable (OPENAI_API_KEY, OPENAI_BASE_URL,
// OPENAI_ORG_ID, OPENAI_PROJECT_ID, OPENAI_CUSTOM_HEADERS ...), which
// openai-go's NewClient would otherwise pick up.
type Config struct {
	// Provider is a label carried into results, errors and logs
	// (default "openai"). It does not change the wire protocol.
	Provider string
	// BaseURL is the API root, e.g. "https://api.openai.com/v1"; requests go
	// to BaseURL + "/embeddings" and BaseURL + "/chat/completions".
	// Required; http or https.
	BaseURL string
	// Model is the model id sent with every request. Required.
	Model string
	// APIKeyEnv is the *name* of the environment variable holding the API
	// key, e.g. "OPENAI_API_KEY". It is read at call time, on every call; an
	// unset or empty variable fails the call with KindMissingCredential
	// before any network traffic. Empty APIKeyEnv means the endpoint needs no
	// key and no Authorization header is sent.
	APIKeyEnv string
	// Timeout bounds one HTTP attempt, including reading the whole body (or
	// the whole stream). Zero means the per-client default.
	Timeout time.Duration
	// Retry controls retries of transient failures.
	Retry RetryPolicy
	// HTTPClient is used for requests; nil means a private client built on a
	// clone of http.DefaultTransport. Do not set http.Client.Timeout on it
	// for streaming use; use Timeout instead.
	HTTPClient *http.Client
	// Logger receives debug/warn records (attempts, retries, failures). It
	// never receives the API key. nil means discard.
	Logger *slog.Logger
}

// RetryPolicy controls retries. Retried are transport failures, per-attempt
// timeouts and HTTP 408, 409, 429 and 5xx. A streamed chat is retried only
// while no delta has been delivered to the caller. openai-go's own retry loop
// is disabled (option.WithMaxRetries(0)); this policy is the only one.
type RetryPolicy struct {
	// MaxAttempts counts the first try: 1 disables retries. Zero means
	// DefaultMaxAttempts.
	MaxAttempts int
	// BaseDelay is the first backoff; it doubles per retry (with up to 25%
	// jitter subtracted), capped by MaxDelay. Zero means the default.
	BaseDelay time.Duration
	// MaxDelay caps the exponential backoff. Zero means the default.
	MaxDelay time.Duration
	// MaxRetryAfter bounds a server-requested delay (Retry-After-Ms or
	// Retry-After, seconds or HTTP date). A request asking for longer is not
	// retried: the KindHTTP error is returned with RetryAfter set, so the
	// host can reschedule. Zero means DefaultMaxRetryAfter.
	MaxRetryAfter time.Duration
}

func (p RetryPolicy) withDefaults() RetryPolicy {
	if p.MaxAttempts <= 0 {
		p.MaxAttempts = DefaultMaxAttempts
	}
	if p.BaseDelay <= 0 {
		p.BaseDelay = DefaultBaseDelay
	}
	if p.MaxDelay <= 0 {
		p.MaxDelay = DefaultMaxDelay
	}
	if p.MaxRetryAfter <= 0 {
		p.MaxRetryAfter = DefaultMaxRetryAfter
	}
	return p
}

func (p RetryPolicy) backoff(retry int) time.Duration {
	d := p.BaseDelay
	for i := 0; i < retry && d < p.MaxDelay; i++ {
		d *= 2
	}
	if d > p.MaxDelay {
		d = p.MaxDelay
	}
	if j := int64(d / 4); j > 0 {
		d -= time.Duration(rand.Int64N(j))
	}
	return d
}

// endpoint is the validated, defaulted form of a Config shared by the chat
// client and the remote embedder.
type endpoint struct {
	provider  string
	baseURL   string
	model     string
	apiKeyEnv string
	timeout   time.Duration
	retry     RetryPolicy
	http      *http.Client
	log       *slog.Logger
}

func newEndpoint(c Config, op string, defTimeout time.Duration) (*endpoint, error) {
	e := &endpoint{
		provider:  c.Provider,
		baseURL:   strings.TrimSpace(c.BaseURL),
		model:     strings.TrimSpace(c.Model),
		apiKeyEnv: strings.TrimSpace(c.APIKeyEnv),
		timeout:   c.Timeout,
		retry:     c.Retry.withDefaults(),
		http:      c.HTTPClient,
		log:       c.Logger,
	}
	if e.provider == "" {
		e.provider = DefaultProvider
	}
	cfgErr := func(msg string) error {
		return &Error{Kind: KindConfiguration, Op: op, Provider: e.provider, Model: e.model, Message: msg}
	}
	if e.baseURL == "" {
		return nil, cfgErr("BaseURL is required")
	}
	u, err := url.Parse(e.baseURL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, cfgErr("BaseURL must be an absolute http(s) URL")
	}
	if u.User != nil {
		return nil, cfgErr("BaseURL must not carry credentials")
	}
	if e.model == "" {
		return nil, cfgErr("Model is required")
	}
	if e.timeout < 0 {
		return nil, cfgErr("Timeout must not be negative")
	}
	if e.timeout == 0 {
		e.timeout = defTimeout
	}
	if e.http == nil {
		var rt http.RoundTripper = http.DefaultTransport
		if t, ok := rt.(*http.Transport); ok {
			rt = t.Clone()
		}
		e.http = &http.Client{Transport: rt}
	}
	if e.log == nil {
		e.log = slog.New(slog.DiscardHandler)
	}
	return e, nil
}

// resolveKey reads the key variable at call time.
func (e *endpoint) resolveKey(op string) (string, error) {
	if e.apiKeyEnv == "" {
		return "", nil
	}
	v, ok := os.LookupEnv(e.apiKeyEnv)
	if !ok || strings.TrimSpace(v) == "" {
		return "", &Error{Kind: KindMissingCredential, Op: op, Provider: e.provider, Model: e.model,
			EnvVar: e.apiKeyEnv, Message: "API key variable is unset or empty"}
	}
	return strings.TrimSpace(v), nil
}

// serviceOptions are the only options the openai-go services are built
// with: no DefaultClientOptions, hence no environment defaults.
func (e *endpoint) serviceOptions() []option.RequestOption {
	return []option.RequestOption{
		option.WithBaseURL(e.baseURL),
		option.WithHTTPClient(e.http),
		option.WithMaxRetries(0),
	}
}

// requestOptions are added per attempt.
func (e *endpoint) requestOptions(key string, resp **http.Response) []option.RequestOption {
	opts := []option.RequestOption{option.WithResponseInto(resp)}
	if key != "" {
		opts = append(opts, option.WithAPIKey(key))
	}
	return opts
}

// attemptFunc runs one HTTP attempt under actx. resp receives the final
// *http.Response (if any) for error classification.
type attemptFunc[T any] func(actx context.Context, opts []option.RequestOption) (T, error)

// call runs fn with the endpoint's timeout and retry policy and returns a
// classified, redacted *Error on failure.
func call[T any](ctx context.Context, e *endpoint, op string, key string, attrs []slog.Attr, fn attemptFunc[T]) (T, error) {
	var zero T
	base := []slog.Attr{slog.String("op", op), slog.String("provider", e.provider), slog.String("model", e.model)}
	base = append(base, attrs...)
	for attempt := 1; ; attempt++ {
		if err := ctx.Err(); err != nil {
			pe := e.stamp(contextError(err, op), attempt-1)
			return zero, pe
		}
		var resp *http.Response
		actx, cancel := context.WithTimeout(ctx, e.timeout)
		start := time.Now()
		v, err := fn(actx, e.requestOptions(key, &resp))
		attemptTimedOut := actx.Err() != nil && ctx.Err() == nil
		cancel()
		if err == nil {
			e.log.LogAttrs(ctx, slog.LevelDebug, "provider call ok", append(base,
				slog.Int("attempt", attempt), slog.Duration("elapsed", time.Since(start)))...)
			return v, nil
		}
		pe := e.classify(ctx, attemptTimedOut, err, resp, op, key)
		pe = e.stamp(pe, attempt)
		if !pe.retryable || attempt >= e.retry.MaxAttempts {
			e.log.LogAttrs(ctx, slog.LevelWarn, "provider call failed", append(base,
				slog.Int("attempt", attempt), slog.String("kind", string(pe.Kind)),
				slog.Int("status", pe.Status), slog.String("error", pe.Error()))...)
			return zero, pe
		}
		delay := e.retry.backoff(attempt - 1)
		if pe.RetryAfter > 0 {
			if pe.RetryAfter > e.retry.MaxRetryAfter {
				pe.Message += "; Retry-After exceeds the configured bound, not retried"
				e.log.LogAttrs(ctx, slog.LevelWarn, "provider retry-after too long", append(base,
					slog.Int("attempt", attempt), slog.Int("status", pe.Status),
					slog.Duration("retry_after", pe.RetryAfter))...)
				return zero, pe
			}
			delay = pe.RetryAfter
		}
		e.log.LogAttrs(ctx, slog.LevelWarn, "provider call retry", append(base,
			slog.Int("attempt", attempt), slog.String("kind", string(pe.Kind)),
			slog.Int("status", pe.Status), slog.Duration("delay", delay))...)
		t := time.NewTimer(delay)
		select {
		case <-ctx.Done():
			t.Stop()
			return zero, e.stamp(contextError(ctx.Err(), op), attempt)
		case <-t.C:
		}
	}
}

func (e *endpoint) stamp(pe *Error, attempts int) *Error {
	if pe.Provider == "" {
		pe.Provider = e.provider
	}
	if pe.Model == "" {
		pe.Model = e.model
	}
	if pe.Attempts == 0 {
		pe.Attempts = attempts
	}
	return pe
}

// classify maps an attempt's failure to an *Error. Contexts are checked
// first: whatever the SDK wrapped, a done context decides the kind.
func (e *endpoint) classify(ctx context.Context, attemptTimedOut bool, err error, resp *http.Response, op, key string) *Error {
	pe := e.classify1(ctx, attemptTimedOut, err, resp, op, key)
	var nr *noRetryError
	if errors.As(err, &nr) {
		pe.retryable = false
	}
	return pe
}

// noRetryError marks a failure that must not be retried (a stream that has
// already delivered deltas to the caller).
type noRetryError struct{ err error }

func (n *noRetryError) Error() string { return n.err.Error() }
func (n *noRetryError) Unwrap() error { return n.err }

func (e *endpoint) classify1(ctx context.Context, attemptTimedOut bool, err error, resp *http.Response, op, key string) *Error {
	if cerr := ctx.Err(); cerr != nil {
		return contextError(cerr, op)
	}
	if attemptTimedOut {
		return &Error{Kind: KindTimeout, Op: op, Message: "attempt exceeded timeout " + e.timeout.String(),
			Err: context.DeadlineExceeded, retryable: true}
	}
	var big *answerTooLarge
	if errors.As(err, &big) {
		return &Error{Kind: KindTooLarge, Op: op, Message: big.Error(), Err: err}
	}
	var pe *Error
	if errors.As(err, &pe) {
		pe.Message = redact(pe.Message, key)
		pe.Code = redact(pe.Code, key)
		return pe
	}
	var apiErr *openai.Error
	if errors.As(err, &apiErr) || (resp != nil && resp.StatusCode >= 400) {
		status := 0
		var h http.Header
		if apiErr != nil {
			status = apiErr.StatusCode
			if apiErr.Response != nil {
				h = apiErr.Response.Header
			}
		}
		if status == 0 && resp != nil {
			status = resp.StatusCode
			h = resp.Header
		}
		// The SDK error is not kept as the cause: it holds the *http.Request,
		// whose Authorization header carries the key.
		pe := &Error{Kind: KindHTTP, Op: op, Status: status, retryable: retryableStatus(status)}
		if apiErr != nil {
			pe.Message = redact(apiErr.Message, key)
			pe.Code = redact(firstNonEmpty(apiErr.Code, apiErr.Type), key)
		}
		if pe.Message == "" {
			pe.Message = http.StatusText(status)
		}
		pe.RetryAfter = parseRetryAfter(h, time.Now())
		return pe
	}
	var netErr net.Error
	if errors.As(err, &netErr) && netErr.Timeout() {
		return &Error{Kind: KindTimeout, Op: op, Message: redact(err.Error(), key),
			Err: errors.Join(context.DeadlineExceeded, err), retryable: true}
	}
	return &Error{Kind: KindTransport, Op: op, Message: redact(err.Error(), key), Err: err, retryable: true}
}

func retryableStatus(s int) bool {
	return s == http.StatusRequestTimeout || s == http.StatusConflict || s == http.StatusTooManyRequests || s >= 500
}

// parseRetryAfter reads Retry-After-Ms (milliseconds) or Retry-After
// (seconds, possibly fractional, or an HTTP date). Zero when absent/invalid.
func parseRetryAfter(h http.Header, now time.Time) time.Duration {
	if h == nil {
		return 0
	}
	if v := strings.TrimSpace(h.Get("Retry-After-Ms")); v != "" {
		if f, err := strconv.ParseFloat(v, 64); err == nil && f > 0 && f < 1e12 {
			return time.Duration(f * float64(time.Millisecond))
		}
	}
	v := strings.TrimSpace(h.Get("Retry-After"))
	if v == "" {
		return 0
	}
	if f, err := strconv.ParseFloat(v, 64); err == nil {
		if f > 0 && f < 1e9 {
			return time.Duration(f * float64(time.Second))
		}
		if f >= 1e9 {
			return time.Duration(1<<63 - 1)
		}
		return 0
	}
	if t, err := http.ParseTime(v); err == nil {
		if d := t.Sub(now); d > 0 {
			return d
		}
	}
	return 0
}

func firstNonEmpty(s ...string) string {
	for _, v := range s {
		if v != "" {
			return v
		}
	}
	return ""
}
