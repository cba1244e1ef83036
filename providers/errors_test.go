package providers

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// errSummary is what the kind table compares.
type errSummary struct {
	Kind     Kind
	Status   int
	Code     string
	EnvVar   string
	Canceled bool // errors.Is(err, context.Canceled)
	Deadline bool // errors.Is(err, context.DeadlineExceeded)
	Requests int  // requests the fake saw
}

// TestEveryErrorKind produces each Kind from a fixture, through both the
// embedder and the chat client where the kind applies to both.
func TestEveryErrorKind(t *testing.T) {
	type env struct {
		f   *fake
		cfg Config
	}
	embed := func(ctx context.Context, e env) error {
		em, err := NewRemoteEmbedder(EmbeddingConfig{Config: e.cfg})
		if err != nil {
			return err
		}
		_, err = em.Embed(ctx, []string{"alpha", "beta"})
		return err
	}
	chat := func(ctx context.Context, e env) error {
		c, err := NewChatClient(ChatConfig{Config: e.cfg})
		if err != nil {
			return err
		}
		_, err = c.Complete(ctx, ChatRequest{Messages: []Message{{Role: RoleUser, Content: "q"}}})
		return err
	}
	stream := func(ctx context.Context, e env) error {
		c, err := NewChatClient(ChatConfig{Config: e.cfg})
		if err != nil {
			return err
		}
		_, err = c.Stream(ctx, ChatRequest{Messages: []Message{{Role: RoleUser, Content: "q"}}}, nil)
		return err
	}
	slow := func(w http.ResponseWriter, r *http.Request, call int, body map[string]any) {
		select {
		case <-r.Context().Done():
		case <-time.After(5 * time.Second):
		}
	}
	cases := []struct {
		name   string
		handle func(w http.ResponseWriter, r *http.Request, call int, body map[string]any)
		setup  func(t *testing.T, e *env) (context.Context, context.CancelFunc)
		run    func(context.Context, env) error
		want   errSummary
	}{
		{
			name: "configuration: no base URL",
			setup: func(t *testing.T, e *env) (context.Context, context.CancelFunc) {
				e.cfg.BaseURL = ""
				return context.WithCancel(context.Background())
			},
			run:  embed,
			want: errSummary{Kind: KindConfiguration},
		},
		{
			name: "configuration: no model",
			setup: func(t *testing.T, e *env) (context.Context, context.CancelFunc) {
				e.cfg.Model = ""
				return context.WithCancel(context.Background())
			},
			run:  chat,
			want: errSummary{Kind: KindConfiguration},
		},
		{
			name: "configuration: bad scheme",
			setup: func(t *testing.T, e *env) (context.Context, context.CancelFunc) {
				e.cfg.BaseURL = "ftp://example.invalid/v1"
				return context.WithCancel(context.Background())
			},
			run:  chat,
			want: errSummary{Kind: KindConfiguration},
		},
		{
			name: "missing_credential: variable unset",
			setup: func(t *testing.T, e *env) (context.Context, context.CancelFunc) {
				e.cfg.APIKeyEnv = "RLM_PROVIDERS_TEST_UNSET_KEY"
				return context.WithCancel(context.Background())
			},
			run:  embed,
			want: errSummary{Kind: KindMissingCredential, EnvVar: "RLM_PROVIDERS_TEST_UNSET_KEY"},
		},
		{
			name: "missing_credential: variable empty",
			setup: func(t *testing.T, e *env) (context.Context, context.CancelFunc) {
				t.Setenv("RLM_PROVIDERS_TEST_EMPTY_KEY", "")
				e.cfg.APIKeyEnv = "RLM_PROVIDERS_TEST_EMPTY_KEY"
				return context.WithCancel(context.Background())
			},
			run:  stream,
			want: errSummary{Kind: KindMissingCredential, EnvVar: "RLM_PROVIDERS_TEST_EMPTY_KEY"},
		},
		{
			name: "transport: nothing listening",
			setup: func(t *testing.T, e *env) (context.Context, context.CancelFunc) {
				dead := httptest.NewServer(http.NotFoundHandler())
				e.cfg.BaseURL = dead.URL + "/v1"
				dead.Close()
				return context.WithCancel(context.Background())
			},
			run:  embed,
			want: errSummary{Kind: KindTransport},
		},
		{
			name:   "timeout: slow server past Timeout",
			handle: slow,
			setup: func(t *testing.T, e *env) (context.Context, context.CancelFunc) {
				e.cfg.Timeout = 30 * time.Millisecond
				e.cfg.Retry.MaxAttempts = 1
				return context.WithCancel(context.Background())
			},
			run:  chat,
			want: errSummary{Kind: KindTimeout, Deadline: true, Requests: 1},
		},
		{
			name:   "timeout: caller deadline",
			handle: slow,
			setup: func(t *testing.T, e *env) (context.Context, context.CancelFunc) {
				return context.WithTimeout(context.Background(), 30*time.Millisecond)
			},
			run:  embed,
			want: errSummary{Kind: KindTimeout, Deadline: true, Requests: 1},
		},
		{
			name:   "canceled: caller cancels in flight",
			handle: slow,
			setup: func(t *testing.T, e *env) (context.Context, context.CancelFunc) {
				ctx, cancel := context.WithCancel(context.Background())
				time.AfterFunc(30*time.Millisecond, cancel)
				return ctx, cancel
			},
			run:  stream,
			want: errSummary{Kind: KindCanceled, Canceled: true, Requests: 1},
		},
		{
			name: "canceled: already canceled, no request",
			setup: func(t *testing.T, e *env) (context.Context, context.CancelFunc) {
				ctx, cancel := context.WithCancel(context.Background())
				cancel()
				return ctx, cancel
			},
			run:  chat,
			want: errSummary{Kind: KindCanceled, Canceled: true},
		},
		{
			name: "http: 400 with error body, not retried",
			handle: func(w http.ResponseWriter, r *http.Request, call int, body map[string]any) {
				writeJSON(w, 400, `{"error":{"message":"bad input","type":"invalid_request_error","code":"bad_input"}}`)
			},
			run:  embed,
			want: errSummary{Kind: KindHTTP, Status: 400, Code: "bad_input", Requests: 1},
		},
		{
			name: "http: 502 with HTML body, retried",
			handle: func(w http.ResponseWriter, r *http.Request, call int, body map[string]any) {
				w.Header().Set("Content-Type", "text/html")
				w.WriteHeader(502)
				_, _ = w.Write([]byte("<html>bad gateway</html>"))
			},
			run:  chat,
			want: errSummary{Kind: KindHTTP, Status: 502, Requests: 3},
		},
		{
			name: "provider: error event in stream",
			handle: func(w http.ResponseWriter, r *http.Request, call int, body map[string]any) {
				sse(w, `{"error":{"message":"boom","type":"server_error"}}`)
			},
			run:  stream,
			want: errSummary{Kind: KindProvider, Code: "server_error", Requests: 1},
		},
		{
			name: "invalid_response: duplicated embedding index",
			handle: func(w http.ResponseWriter, r *http.Request, call int, body map[string]any) {
				writeJSON(w, 200, `{"data":[{"index":0,"embedding":[1]},{"index":0,"embedding":[1]}],"model":"m","usage":{}}`)
			},
			run:  embed,
			want: errSummary{Kind: KindInvalidResponse, Requests: 1},
		},
		{
			name: "invalid_stream: truncated stream",
			handle: func(w http.ResponseWriter, r *http.Request, call int, body map[string]any) {
				sse(w, chunk(`{"content":"half"}`, ""))
			},
			run:  stream,
			want: errSummary{Kind: KindInvalidStream, Requests: 1},
		},
	}
	seen := map[Kind]bool{}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Setenv(testKeyEnv, testKey)
			handle := tc.handle
			if handle == nil {
				handle = func(w http.ResponseWriter, r *http.Request, call int, body map[string]any) {
					t.Errorf("unexpected request %s", r.URL.Path)
					writeJSON(w, 500, `{}`)
				}
			}
			f := newFake(t, handle)
			e := env{f: f, cfg: testConfig(f, "m")}
			setup := tc.setup
			if setup == nil {
				setup = func(*testing.T, *env) (context.Context, context.CancelFunc) {
					return context.WithCancel(context.Background())
				}
			}
			ctx, cancel := setup(t, &e)
			defer cancel()
			err := tc.run(ctx, e)
			var pe *Error
			if !errors.As(err, &pe) {
				t.Fatalf("err = %v (%T), want *Error", err, err)
			}
			got := errSummary{Kind: pe.Kind, Status: pe.Status, Code: pe.Code, EnvVar: pe.EnvVar,
				Canceled: errors.Is(err, context.Canceled), Deadline: errors.Is(err, context.DeadlineExceeded),
				Requests: len(f.requests())}
			if d := cmp.Diff(tc.want, got); d != "" {
				t.Errorf("(-want +got):\n%s\nerr: %v", d, err)
			}
			if !strings.HasPrefix(err.Error(), "providers: ") || !strings.Contains(err.Error(), string(tc.want.Kind)) {
				t.Errorf("Error() = %q", err.Error())
			}
			seen[pe.Kind] = true
		})
	}
	for _, k := range []Kind{KindConfiguration, KindMissingCredential, KindTransport, KindTimeout, KindCanceled,
		KindHTTP, KindProvider, KindInvalidResponse, KindInvalidStream} {
		if !seen[k] {
			t.Errorf("no fixture produced kind %s", k)
		}
	}
}

// TestNoAmbientOpenAIEnv sets every OPENAI_* variable openai-go's NewClient
// would read and proves none of it reaches the server.
func TestNoAmbientOpenAIEnv(t *testing.T) {
	decoy := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		t.Errorf("request reached the OPENAI_BASE_URL decoy: %s", r.URL.Path)
	}))
	defer decoy.Close()
	t.Setenv("OPENAI_BASE_URL", decoy.URL+"/v1")
	t.Setenv("OPENAI_API_KEY", "sk-env-key-must-not-be-sent")
	t.Setenv("OPENAI_ADMIN_KEY", "sk-admin-env-key")
	t.Setenv("OPENAI_ORG_ID", "org-from-env")
	t.Setenv("OPENAI_PROJECT_ID", "proj-from-env")
	t.Setenv("OPENAI_CUSTOM_HEADERS", "X-From-Env: yes")
	t.Setenv(testKeyEnv, testKey)

	f := newFake(t, func(w http.ResponseWriter, r *http.Request, call int, body map[string]any) {
		switch {
		case strings.HasSuffix(r.URL.Path, "/embeddings"):
			writeJSON(w, 200, embeddingsJSON(inputs(body), 2, nil))
		case body["stream"] == true:
			sse(w, chunk(`{"content":"x"}`, "stop"), "[DONE]")
		default:
			writeJSON(w, 200, completionJSON(`{"role":"assistant","content":"x"}`, "stop"))
		}
	})
	run := func(t *testing.T, keyEnv string) {
		cfg := testConfig(f, "m")
		cfg.APIKeyEnv = keyEnv
		em, err := NewRemoteEmbedder(EmbeddingConfig{Config: cfg})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := em.Embed(context.Background(), []string{"a"}); err != nil {
			t.Fatal(err)
		}
		c, err := NewChatClient(ChatConfig{Config: cfg})
		if err != nil {
			t.Fatal(err)
		}
		req := ChatRequest{Messages: []Message{{Role: RoleUser, Content: "q"}}}
		if _, err := c.Complete(context.Background(), req); err != nil {
			t.Fatal(err)
		}
		if _, err := c.Stream(context.Background(), req, nil); err != nil {
			t.Fatal(err)
		}
	}
	run(t, testKeyEnv)
	run(t, "") // keyless endpoint: no Authorization at all, not the env key
	reqs := f.requests()
	if len(reqs) != 6 {
		t.Fatalf("fake saw %d requests, want 6", len(reqs))
	}
	for i, r := range reqs {
		for _, h := range []string{"OpenAI-Organization", "OpenAI-Project", "X-From-Env"} {
			if v := r.Header.Get(h); v != "" {
				t.Errorf("request %d carried %s: %q", i, h, v)
			}
		}
		wantAuth := "Bearer " + testKey
		if i >= 3 {
			wantAuth = ""
		}
		if got := r.Header.Get("Authorization"); got != wantAuth {
			t.Errorf("request %d Authorization = %q, want %q", i, got, wantAuth)
		}
	}
}

// TestKeyNeverLeaks makes the server echo the key in error bodies (as real
// providers do) and checks every log record and every link of every error's
// cause chain: its Error(), %v, %+v and %#v, and every string, byte slice
// and header reachable from it (secretInChain), so an SDK error kept as a
// cause (its request carries the Authorization header, its body the echo)
// is caught even though *Error's own text leaves causes out.
func TestKeyNeverLeaks(t *testing.T) {
	t.Setenv(testKeyEnv, testKey)
	echo := fmt.Sprintf(`{"error":{"message":"Incorrect API key provided: %s","type":"invalid_request_error","code":"%s"}}`, testKey, testKey)
	f := newFake(t, func(w http.ResponseWriter, r *http.Request, call int, body map[string]any) {
		switch call % 4 {
		case 0:
			writeJSON(w, 401, echo)
		case 1:
			w.Header().Set("Retry-After-Ms", "1")
			writeJSON(w, 429, echo)
		case 2:
			sse(w, `{"error":{"message":"stream failed for key `+testKey+`"}}`)
		default:
			writeJSON(w, 200, `{"error":{"message":"key `+testKey+` is over quota"}}`)
		}
	})
	logger, logs := newTestLogger()
	cfg := testConfig(f, "m")
	cfg.Logger = logger
	cfg.Retry.MaxAttempts = 1
	em, err := NewRemoteEmbedder(EmbeddingConfig{Config: cfg})
	if err != nil {
		t.Fatal(err)
	}
	c, err := NewChatClient(ChatConfig{Config: cfg})
	if err != nil {
		t.Fatal(err)
	}
	req := ChatRequest{Messages: []Message{{Role: RoleUser, Content: "q"}}}
	var errs []error
	for i := 0; i < 2; i++ {
		_, err := em.Embed(context.Background(), []string{"a"})
		errs = append(errs, err)
		_, err = c.Complete(context.Background(), req)
		errs = append(errs, err)
		_, err = c.Stream(context.Background(), req, nil)
		errs = append(errs, err)
		_, err = c.Complete(context.Background(), req)
		errs = append(errs, err)
	}
	redactedSeen := false
	for i, err := range errs {
		if err == nil {
			t.Fatalf("call %d: no error", i)
		}
		var pe *Error
		if !errors.As(err, &pe) {
			t.Fatalf("call %d: %v (%T), want *Error", i, err, err)
		}
		for _, s := range []string{pe.Message, pe.Code} {
			if strings.Contains(s, testKey) {
				t.Errorf("call %d leaks the key: %s", i, s)
			}
		}
		for _, where := range secretInChain(err, testKey) {
			t.Errorf("call %d leaks the key in its cause chain: %s", i, where)
		}
		redactedSeen = redactedSeen || strings.Contains(err.Error(), "[REDACTED]")
	}
	if !redactedSeen {
		t.Error("no error showed [REDACTED]; did the fixture echo the key?")
	}
	out := logs.String()
	if out == "" {
		t.Fatal("no log output captured")
	}
	if strings.Contains(out, testKey) {
		t.Errorf("logs leak the key:\n%s", out)
	}
}

func TestIsKind(t *testing.T) {
	err := fmt.Errorf("wrapped: %w", &Error{Kind: KindHTTP, Status: 418})
	if !IsKind(err, KindHTTP) || IsKind(err, KindTimeout) || IsKind(errors.New("x"), KindHTTP) {
		t.Error("IsKind")
	}
}

// secretInChain walks err's cause chain (Unwrap, and Unwrap() []error for
// joined errors) and reports, for every link, where secret appears: in
// its Error(), %v, %+v or %#v text, or in any string or byte slice
// reachable from the link's value through pointers, interfaces, structs
// (unexported fields too), maps, slices and arrays — an *http.Request's
// Authorization header, an SDK error's raw body.
func secretInChain(err error, secret string) []string {
	var found []string
	seenErr := map[error]bool{}
	var walkErr func(e error, path string)
	walkErr = func(e error, path string) {
		if e == nil || isComparableAndSeen(seenErr, e) {
			return
		}
		where := fmt.Sprintf("%s (%T)", path, e)
		for _, s := range []string{e.Error(), fmt.Sprintf("%v", e), fmt.Sprintf("%+v", e), fmt.Sprintf("%#v", e)} {
			if strings.Contains(s, secret) {
				found = append(found, where+" text: "+s)
				break
			}
		}
		w := &valueWalker{secret: secret, seen: map[uintptr]bool{}}
		w.walk(reflect.ValueOf(e), where, 0)
		found = append(found, w.found...)
		switch u := e.(type) {
		case interface{ Unwrap() error }:
			walkErr(u.Unwrap(), path+".Unwrap()")
		case interface{ Unwrap() []error }:
			for i, c := range u.Unwrap() {
				walkErr(c, fmt.Sprintf("%s.Unwrap()[%d]", path, i))
			}
		}
	}
	walkErr(err, "err")
	return found
}

func isComparableAndSeen(seen map[error]bool, e error) bool {
	if !reflect.TypeOf(e).Comparable() {
		return false
	}
	if seen[e] {
		return true
	}
	seen[e] = true
	return false
}

// valueWalker finds secret in the strings and byte slices reachable from a
// value, at most maxWalkDepth levels down, each pointer once.
type valueWalker struct {
	secret string
	seen   map[uintptr]bool
	found  []string
}

const maxWalkDepth = 12

func (w *valueWalker) walk(v reflect.Value, path string, depth int) {
	if !v.IsValid() || depth > maxWalkDepth {
		return
	}
	switch v.Kind() {
	case reflect.String:
		if strings.Contains(v.String(), w.secret) {
			w.found = append(w.found, path)
		}
	case reflect.Pointer:
		if v.IsNil() || w.seen[v.Pointer()] {
			return
		}
		w.seen[v.Pointer()] = true
		w.walk(v.Elem(), path, depth+1)
	case reflect.Interface:
		w.walk(v.Elem(), path, depth+1)
	case reflect.Struct:
		for i := range v.NumField() {
			w.walk(v.Field(i), path+"."+v.Type().Field(i).Name, depth+1)
		}
	case reflect.Slice, reflect.Array:
		if v.Kind() == reflect.Slice && v.Type().Elem().Kind() == reflect.Uint8 {
			b := make([]byte, v.Len())
			for i := range b {
				b[i] = byte(v.Index(i).Uint())
			}
			if strings.Contains(string(b), w.secret) {
				w.found = append(w.found, path)
			}
			return
		}
		for i := range v.Len() {
			w.walk(v.Index(i), fmt.Sprintf("%s[%d]", path, i), depth+1)
		}
	case reflect.Map:
		it := v.MapRange()
		for it.Next() {
			k := fmt.Sprint(it.Key())
			w.walk(it.Key(), path+"{key}", depth+1)
			w.walk(it.Value(), path+"["+k+"]", depth+1)
		}
	}
}
