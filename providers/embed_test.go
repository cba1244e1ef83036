package providers

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/rlm-dev/rlm/retrieval"
)

func newTestEmbedder(t *testing.T, f *fake, mod func(*EmbeddingConfig)) *RemoteEmbedder {
	t.Helper()
	t.Setenv(testKeyEnv, testKey)
	cfg := EmbeddingConfig{Config: testConfig(f, "fake-embed")}
	if mod != nil {
		mod(&cfg)
	}
	e, err := NewRemoteEmbedder(cfg)
	if err != nil {
		t.Fatalf("NewRemoteEmbedder: %v", err)
	}
	return e
}

func TestEmbedBatchesInInputOrder(t *testing.T) {
	// The fake answers each batch in reverse order; the result must still be
	// in input order.
	f := newFake(t, func(w http.ResponseWriter, r *http.Request, call int, body map[string]any) {
		in := inputs(body)
		var order []int
		for i := len(in) - 1; i >= 0; i-- {
			order = append(order, i)
		}
		writeJSON(w, 200, embeddingsJSON(in, 4, order))
	})
	e := newTestEmbedder(t, f, func(c *EmbeddingConfig) { c.BatchSize = 3; c.Dimensions = 4 })
	texts := []string{"a", "bb", "ccc", "dddd", "eeeee", "ffffff", "g", "hh", "iii", "jjjj"}
	res, err := e.EmbedDetailed(context.Background(), texts)
	if err != nil {
		t.Fatal(err)
	}
	var want [][]float32
	for _, s := range texts {
		want = append(want, fakeVector(s, 4))
	}
	if d := cmp.Diff(want, res.Vectors); d != "" {
		t.Errorf("vectors (-want +got):\n%s", d)
	}
	got := struct {
		Provider, Model string
		Dims            int
		Usage           Usage
	}{res.Provider, res.Model, res.Dimensions, res.Usage}
	wantMeta := struct {
		Provider, Model string
		Dims            int
		Usage           Usage
	}{"fake", "fake-embed", 4, Usage{PromptTokens: 20, TotalTokens: 20}}
	if d := cmp.Diff(wantMeta, got); d != "" {
		t.Errorf("metadata (-want +got):\n%s", d)
	}
	var sizes []int
	for _, r := range f.requests() {
		sizes = append(sizes, len(inputs(r.Body)))
		if r.Method != "POST" || r.Path != "/v1/embeddings" {
			t.Errorf("request %s %s", r.Method, r.Path)
		}
		if r.Body["dimensions"] != float64(4) || r.Body["model"] != "fake-embed" || r.Body["encoding_format"] != "float" {
			t.Errorf("request body fields: %v", r.Body)
		}
		if got := r.Header.Get("Authorization"); got != "Bearer "+testKey {
			t.Errorf("Authorization = %q", got)
		}
	}
	if d := cmp.Diff([]int{3, 3, 3, 1}, sizes); d != "" {
		t.Errorf("batch sizes (-want +got):\n%s", d)
	}
	if e.Dimensions() != 4 {
		t.Errorf("Dimensions() = %d", e.Dimensions())
	}
}

func TestEmbedOneAndObservedDimensions(t *testing.T) {
	f := newFake(t, okEmbeddings(6))
	e := newTestEmbedder(t, f, nil)
	if e.Dimensions() != 0 {
		t.Fatalf("Dimensions before first call = %d, want 0", e.Dimensions())
	}
	v, err := EmbedOne(context.Background(), e, "hello")
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(fakeVector("hello", 6), v); d != "" {
		t.Error(d)
	}
	if e.Dimensions() != 6 {
		t.Errorf("Dimensions after call = %d, want 6", e.Dimensions())
	}
	if _, ok := f.requests()[0].Body["dimensions"]; ok {
		t.Error("dimensions sent although not configured")
	}
}

// TestEmbedInvalidResponses feeds malformed answers and checks each becomes
// a KindInvalidResponse (or KindProvider) error and is not retried.
func TestEmbedInvalidResponses(t *testing.T) {
	two := []string{"x", "yy"}
	item := func(idx int, emb string) string {
		return fmt.Sprintf(`{"object":"embedding","index":%d,"embedding":%s}`, idx, emb)
	}
	list := func(items ...string) string {
		return `{"object":"list","model":"m","data":[` + strings.Join(items, ",") + `],"usage":{"prompt_tokens":1,"total_tokens":1}}`
	}
	cases := []struct {
		name     string
		body     string
		dims     int
		ctype    string
		wantKind Kind
		wantMsg  string
	}{
		{"malformed JSON", `{"data": [`, 0, "", KindInvalidResponse, "malformed JSON"},
		// A bare NaN token is not JSON: it never reaches vector validation,
		// the decoder rejects the document.
		{"NaN token", list(item(0, "[NaN,1]"), item(1, "[1,1]")), 0, "", KindInvalidResponse, "malformed JSON"},
		// A huge exponent is valid JSON; openai-go would decode it as +Inf.
		// The strict re-read reports it as non-finite.
		{"huge exponent", list(item(0, "[1e999,1]"), item(1, "[1,1]")), 0, "", KindInvalidResponse, "not a finite float32"},
		{"float32 overflow", list(item(0, "[1e39,1]"), item(1, "[1,1]")), 0, "", KindInvalidResponse, "not a finite float32"},
		{"null component", list(item(0, "[null,1]"), item(1, "[1,1]")), 0, "", KindInvalidResponse, "not a number"},
		{"string component", list(item(0, `["0.5",1]`), item(1, "[1,1]")), 0, "", KindInvalidResponse, "not a number"},
		{"missing embedding", list(`{"index":0}`, item(1, "[1,1]")), 0, "", KindInvalidResponse, "missing"},
		{"empty embedding", list(item(0, "[]"), item(1, "[]")), 0, "", KindInvalidResponse, "empty embedding"},
		{"index out of range", list(item(0, "[1,1]"), item(2, "[1,1]")), 0, "", KindInvalidResponse, "out of range"},
		{"negative index", list(item(-1, "[1,1]"), item(1, "[1,1]")), 0, "", KindInvalidResponse, "out of range"},
		{"duplicated index", list(item(1, "[1,1]"), item(1, "[1,1]")), 0, "", KindInvalidResponse, "more than once"},
		{"missing index", list(`{"embedding":[1,1]}`, item(1, "[1,1]")), 0, "", KindInvalidResponse, "index is missing"},
		{"too few", list(item(0, "[1,1]")), 0, "", KindInvalidResponse, "got 1 embeddings for 2 inputs"},
		{"too many", list(item(0, "[1,1]"), item(1, "[1,1]"), item(1, "[1,1]")), 0, "", KindInvalidResponse, "got 3 embeddings"},
		{"dimension mismatch", list(item(0, "[1,1]"), item(1, "[1,1,1]")), 0, "", KindInvalidResponse, "dimension 3, expected 2"},
		{"not requested dimension", list(item(0, "[1,1]"), item(1, "[1,1]")), 3, "", KindInvalidResponse, "dimension 2, expected 3"},
		{"html body", `<html>oops</html>`, 0, "text/html", KindInvalidResponse, "malformed JSON"},
		{"error object in 200", `{"error":{"message":"model overloaded","type":"server_error","code":"overloaded"}}`, 0, "", KindProvider, "model overloaded"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			f := newFake(t, func(w http.ResponseWriter, r *http.Request, call int, body map[string]any) {
				ct := tc.ctype
				if ct == "" {
					ct = "application/json"
				}
				w.Header().Set("Content-Type", ct)
				_, _ = w.Write([]byte(tc.body))
			})
			e := newTestEmbedder(t, f, func(c *EmbeddingConfig) { c.Dimensions = tc.dims })
			_, err := e.Embed(context.Background(), two)
			var pe *Error
			if !errors.As(err, &pe) {
				t.Fatalf("err = %v, want *Error", err)
			}
			got := struct {
				Kind     Kind
				Attempts int
				Requests int
			}{pe.Kind, pe.Attempts, len(f.requests())}
			want := struct {
				Kind     Kind
				Attempts int
				Requests int
			}{tc.wantKind, 1, 1}
			if d := cmp.Diff(want, got); d != "" {
				t.Errorf("(-want +got):\n%s\nerr: %v", d, err)
			}
			if !strings.Contains(pe.Message, tc.wantMsg) {
				t.Errorf("message %q does not contain %q", pe.Message, tc.wantMsg)
			}
		})
	}
}

func TestEmbedBase64Answer(t *testing.T) {
	// Servers may answer base64 even when float was asked; openai-go decodes
	// little-endian float32 and the vector is accepted when finite.
	f := newFake(t, func(w http.ResponseWriter, r *http.Request, call int, body map[string]any) {
		// [1, -2] as little-endian float32: 0000803f 000000c0
		writeJSON(w, 200, `{"data":[{"index":0,"embedding":"AACAPwAAAMA="}],"model":"m","usage":{"prompt_tokens":1,"total_tokens":1}}`)
	})
	e := newTestEmbedder(t, f, nil)
	v, err := EmbedOne(context.Background(), e, "x")
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff([]float32{1, -2}, v); d != "" {
		t.Error(d)
	}
}

func TestEmbedBadInputBeforeNetwork(t *testing.T) {
	f := newFake(t, okEmbeddings(2))
	e := newTestEmbedder(t, f, func(c *EmbeddingConfig) { c.MaxTexts = 3; c.MaxTextBytes = 5 })
	cases := []struct {
		name  string
		texts []string
		msg   string
	}{
		{"nil list", nil, "no texts"},
		{"empty list", []string{}, "no texts"},
		{"empty string", []string{"a", ""}, "text 1 is empty"},
		{"too long", []string{"abcdef"}, "text 0 is 6 bytes, over the cap of 5"},
		{"too many", []string{"a", "b", "c", "d"}, "4 texts exceed the cap of 3"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := e.Embed(context.Background(), tc.texts)
			var pe *Error
			if !errors.As(err, &pe) || pe.Kind != KindConfiguration || !strings.Contains(pe.Message, tc.msg) {
				t.Fatalf("err = %v, want configuration error containing %q", err, tc.msg)
			}
		})
	}
	if n := len(f.requests()); n != 0 {
		t.Errorf("%d requests reached the server", n)
	}
}

func TestEmbedCancelMidBatch(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	second := make(chan struct{})
	f := newFake(t, func(w http.ResponseWriter, r *http.Request, call int, body map[string]any) {
		if call == 1 {
			close(second)
			<-r.Context().Done() // hold the second batch until the client gives up
			return
		}
		writeJSON(w, 200, embeddingsJSON(inputs(body), 2, nil))
	})
	e := newTestEmbedder(t, f, func(c *EmbeddingConfig) { c.BatchSize = 1 })
	go func() {
		<-second
		cancel()
	}()
	_, err := e.Embed(ctx, []string{"a", "b", "c", "d"})
	if !IsKind(err, KindCanceled) || !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want canceled wrapping context.Canceled", err)
	}
	if n := len(f.requests()); n != 2 {
		t.Errorf("server saw %d requests, want 2 (no batch after cancel, no retry)", n)
	}
}

func TestEmbedConcurrentUse(t *testing.T) {
	f := newFake(t, okEmbeddings(3))
	e := newTestEmbedder(t, f, func(c *EmbeddingConfig) { c.BatchSize = 2 })
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for i := 0; i < 8; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			text := strings.Repeat("z", i+1)
			vecs, err := e.Embed(context.Background(), []string{text, "q", text})
			if err != nil {
				errs <- err
				return
			}
			if d := cmp.Diff(fakeVector(text, 3), vecs[2]); d != "" {
				errs <- errors.New(d)
			}
		}(i)
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

func TestEmbedSlowServerTimesOut(t *testing.T) {
	f := newFake(t, func(w http.ResponseWriter, r *http.Request, call int, body map[string]any) {
		select {
		case <-r.Context().Done():
		case <-time.After(5 * time.Second):
		}
	})
	e := newTestEmbedder(t, f, func(c *EmbeddingConfig) {
		c.Timeout = 50 * time.Millisecond
		c.Retry.MaxAttempts = 2
	})
	start := time.Now()
	_, err := e.Embed(context.Background(), []string{"a"})
	var pe *Error
	if !errors.As(err, &pe) || pe.Kind != KindTimeout || !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("err = %v, want timeout wrapping DeadlineExceeded", err)
	}
	if pe.Attempts != 2 || len(f.requests()) != 2 {
		t.Errorf("attempts %d, requests %d; want 2 and 2 (timeouts are retried)", pe.Attempts, len(f.requests()))
	}
	if el := time.Since(start); el > 2*time.Second {
		t.Errorf("took %v; per-attempt timeout not honoured", el)
	}
}

// TestEmbedReturnsTheVectorsOfEmbedDetailed: Embed, the retrieval.Embedder
// method, gives exactly the vectors EmbedDetailed validated, in input order,
// for the remote and the local embedder.
func TestEmbedReturnsTheVectorsOfEmbedDetailed(t *testing.T) {
	f := newFake(t, okEmbeddings(5))
	remote := newTestEmbedder(t, f, func(c *EmbeddingConfig) { c.BatchSize = 2 })
	local := mustLocal(t, LocalConfig{Dimensions: 16})
	texts := []string{"parseHTTPRequest", "b", "ccc", "serve_http"}
	for _, tc := range []struct {
		name     string
		embed    func(context.Context, []string) ([][]float32, error)
		detailed func(context.Context, []string) (*Embeddings, error)
	}{
		{"remote", remote.Embed, remote.EmbedDetailed},
		{"local", local.Embed, local.EmbedDetailed},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := tc.embed(context.Background(), texts)
			if err != nil {
				t.Fatal(err)
			}
			want, err := tc.detailed(context.Background(), texts)
			if err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(want.Vectors, got); d != "" {
				t.Errorf("Embed differs from EmbedDetailed (-want +got):\n%s", d)
			}
			if _, err := tc.embed(context.Background(), []string{"a", ""}); !IsKind(err, KindConfiguration) {
				t.Errorf("Embed with an empty text: err = %v, want KindConfiguration", err)
			}
		})
	}
}

// TestEmbedOneRefusesAWrongVectorCount: EmbedOne over any
// retrieval.Embedder fails with KindInvalidResponse instead of indexing a
// vector that is not there.
func TestEmbedOneRefusesAWrongVectorCount(t *testing.T) {
	for _, n := range []int{0, 2} {
		e := retrieval.FuncEmbedder{ModelID: "m", Dims: 1, Func: func(context.Context, []string) ([][]float32, error) {
			return make([][]float32, n), nil
		}}
		if v, err := EmbedOne(context.Background(), e, "x"); !IsKind(err, KindInvalidResponse) || v != nil {
			t.Errorf("%d vectors: EmbedOne = %v, %v; want KindInvalidResponse", n, v, err)
		}
	}
}

// TestTheLocalEmbedderIsLexicalAndARemoteOneLearned: the nature the
// retrieval rules judge vector evidence by (retrieval.EmbedderNature).
func TestTheLocalEmbedderIsLexicalAndARemoteOneLearned(t *testing.T) {
	local, err := NewLocalEmbedder(LocalConfig{})
	if err != nil {
		t.Fatal(err)
	}
	remote := newTestEmbedder(t, newFake(t, nil), nil)
	if got := retrieval.EmbedderNature(local); got != retrieval.EmbedderLexical {
		t.Errorf("local embedder: %q, want %q", got, retrieval.EmbedderLexical)
	}
	if got := retrieval.EmbedderNature(remote); got != retrieval.EmbedderLearned {
		t.Errorf("remote embedder: %q, want %q", got, retrieval.EmbedderLearned)
	}
}
