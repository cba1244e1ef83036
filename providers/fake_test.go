package providers

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rlm-dev/rlm/internal/testfixture"
)

// testKey is the API key used by fixture tests; tests grep for it in every
// error string and log record.
const testKey = "sk-test-7f3a9c1e-DO-NOT-LEAK-42"

const testKeyEnv = "RLM_PROVIDERS_TEST_KEY"

// fake is an httptest stand-in for the OpenAI wire protocol over
// testfixture.HTTPFake, which records every request. handle gets the
// 0-based call number and the decoded JSON body.
type fake struct {
	*testfixture.HTTPFake
}

func newFake(t *testing.T, handle func(w http.ResponseWriter, r *http.Request, call int, body map[string]any)) *fake {
	t.Helper()
	return &fake{testfixture.NewHTTPFake(t, func(w http.ResponseWriter, r *http.Request, req testfixture.Request) {
		if req.BodyErr != nil {
			t.Errorf("fake: request body is not JSON: %v", req.BodyErr)
		}
		handle(w, r, req.Call, req.Body)
	})}
}

func (f *fake) URL() string { return f.Server.URL + "/v1" }

func (f *fake) requests() []testfixture.Request { return f.Requests() }

// inputs returns the "input" array of an embeddings request body.
func inputs(body map[string]any) []string {
	raw, _ := body["input"].([]any)
	out := make([]string, len(raw))
	for i, v := range raw {
		out[i], _ = v.(string)
	}
	return out
}

// fakeVector is the deterministic vector the fake returns for a text.
func fakeVector(text string, dims int) []float32 {
	v := make([]float32, dims)
	for i := range v {
		v[i] = float32(len(text)*(i+1)%97) / 97
	}
	v[0] = float32(len(text))
	return v
}

// embeddingsJSON writes a well-formed answer, items in the given order
// (nil = input order).
func embeddingsJSON(in []string, dims int, order []int) string {
	if order == nil {
		for i := range in {
			order = append(order, i)
		}
	}
	var items []string
	for _, i := range order {
		vec, _ := json.Marshal(fakeVector(in[i], dims))
		items = append(items, fmt.Sprintf(`{"object":"embedding","index":%d,"embedding":%s}`, i, vec))
	}
	return fmt.Sprintf(`{"object":"list","model":"fake-embed","data":[%s],"usage":{"prompt_tokens":%d,"total_tokens":%d}}`,
		strings.Join(items, ","), len(in)*2, len(in)*2)
}

func writeJSON(w http.ResponseWriter, status int, body string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = io.WriteString(w, body)
}

// okEmbeddings answers every embeddings request correctly.
func okEmbeddings(dims int) func(w http.ResponseWriter, r *http.Request, call int, body map[string]any) {
	return func(w http.ResponseWriter, r *http.Request, call int, body map[string]any) {
		writeJSON(w, 200, embeddingsJSON(inputs(body), dims, nil))
	}
}

// sse writes a server-sent event stream; each element is one data payload
// (without "data: "). flush after each.
func sse(w http.ResponseWriter, events ...string) {
	w.Header().Set("Content-Type", "text/event-stream")
	w.WriteHeader(200)
	fl, _ := w.(http.Flusher)
	for _, e := range events {
		_, _ = io.WriteString(w, "data: "+e+"\n\n")
		if fl != nil {
			fl.Flush()
		}
	}
}

func chunk(delta string, finish string) string {
	fr := "null"
	if finish != "" {
		fr = `"` + finish + `"`
	}
	return fmt.Sprintf(`{"id":"chatcmpl-1","object":"chat.completion.chunk","created":1,"model":"fake-chat","choices":[{"index":0,"delta":%s,"finish_reason":%s}]}`, delta, fr)
}

const usageChunk = `{"id":"chatcmpl-1","object":"chat.completion.chunk","created":1,"model":"fake-chat","choices":[],"usage":{"prompt_tokens":11,"completion_tokens":7,"total_tokens":18}}`

func completionJSON(message string, finish string) string {
	return fmt.Sprintf(`{"id":"chatcmpl-9","object":"chat.completion","created":1,"model":"fake-chat","choices":[{"index":0,"message":%s,"finish_reason":"%s","logprobs":null}],"usage":{"prompt_tokens":5,"completion_tokens":3,"total_tokens":8}}`, message, finish)
}

// logBuffer is a concurrency-safe sink for slog records.
type logBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *logBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *logBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

func newTestLogger() (*slog.Logger, *logBuffer) {
	lb := &logBuffer{}
	return slog.New(slog.NewTextHandler(lb, &slog.HandlerOptions{Level: slog.LevelDebug})), lb
}

// fastRetry keeps fixture tests quick.
var fastRetry = RetryPolicy{MaxAttempts: 3, BaseDelay: time.Millisecond, MaxDelay: 5 * time.Millisecond, MaxRetryAfter: 3 * time.Second}

func testConfig(f *fake, model string) Config {
	return Config{Provider: "fake", BaseURL: f.URL(), Model: model, APIKeyEnv: testKeyEnv, Timeout: 5 * time.Second, Retry: fastRetry}
}
