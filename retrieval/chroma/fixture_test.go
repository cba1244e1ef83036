package chroma

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/rlm-dev/rlm/internal/testfixture"
	"github.com/rlm-dev/rlm/retrieval"
)

// fake is an httptest Chroma over testfixture.HTTPFake, which records every
// request: it answers the setup calls Open makes and lets each test
// override any route. Requests are named by op ("METHOD last-path-element",
// see opOf).
type fake struct {
	*testfixture.HTTPFake
	mu       sync.Mutex
	maxBatch int
	collMeta map[string]any
	space    string
	override func(w http.ResponseWriter, r *http.Request, op string) bool
}

func newFake(t *testing.T) *fake {
	f := &fake{maxBatch: 5461, space: "cosine"}
	f.HTTPFake = testfixture.NewHTTPFake(t, f.serve)
	return f
}

func opOf(method, p string) string {
	switch {
	case p == "/api/v2/heartbeat", p == "/api/v2/pre-flight-checks":
		return method + " " + p[len("/api/v2/"):]
	case p == "/api/v2/tenants":
		return method + " tenant"
	case strings.HasSuffix(p, "/databases"):
		return method + " database"
	case strings.HasSuffix(p, "/collections") && method == http.MethodPost:
		return "POST collections"
	case strings.Contains(p, "/collections/"):
		last := p[strings.LastIndex(p, "/")+1:]
		if strings.Count(p[strings.Index(p, "/collections/"):], "/") == 2 {
			return method + " collection"
		}
		return method + " " + last
	case strings.Contains(p, "/databases/"):
		return method + " database"
	case strings.HasPrefix(p, "/api/v2/tenants/"):
		return method + " tenant"
	}
	return method + " " + p
}

func (f *fake) serve(w http.ResponseWriter, r *http.Request, req testfixture.Request) {
	op := opOf(req.Method, req.Path)
	body := req.Body
	f.mu.Lock()
	override := f.override
	f.mu.Unlock()
	if override != nil && override(w, r, op) {
		return
	}
	w.Header().Set("Content-Type", "application/json")
	switch op {
	case "GET heartbeat":
		fmt.Fprint(w, `{"nanosecond heartbeat": 1}`)
	case "GET pre-flight-checks":
		fmt.Fprintf(w, `{"max_batch_size": %d, "supports_base64_encoding": true}`, f.maxBatch)
	case "GET tenant":
		fmt.Fprint(w, `{"name":"default_tenant"}`)
	case "GET database":
		fmt.Fprint(w, `{"id":"x","name":"default_database","tenant":"default_tenant"}`)
	case "POST collections":
		meta := f.collMeta
		if meta == nil {
			meta = body["metadata"].(map[string]any)
		}
		_ = json.NewEncoder(w).Encode(map[string]any{
			"id": "11111111-1111-4111-8111-111111111111", "name": body["name"],
			"configuration_json": map[string]any{"hnsw": map[string]any{"space": f.space, "ef_search": 100}},
			"metadata":           meta, "dimension": nil,
		})
	case "POST upsert", "POST delete", "PUT collection":
		fmt.Fprint(w, `{}`)
	case "POST get":
		fmt.Fprint(w, `{"ids":[],"documents":[],"metadatas":[],"include":["documents","metadatas"]}`)
	case "POST query":
		fmt.Fprint(w, `{"ids":[[]],"distances":[[]],"documents":[[]],"metadatas":[[]]}`)
	case "GET count":
		fmt.Fprint(w, `0`)
	default:
		w.WriteHeader(http.StatusNotFound)
		fmt.Fprintf(w, `{"error":"NotFoundError","message":"no route %s"}`, op)
	}
}

// count is the number of requests of op so far.
func (f *fake) count(op string) int { return len(f.bodies(op)) }

// bodies are the JSON bodies of the requests of op so far, in order.
func (f *fake) bodies(op string) []map[string]any {
	var out []map[string]any
	for _, r := range f.Requests() {
		if opOf(r.Method, r.Path) == op {
			out = append(out, r.Body)
		}
	}
	return out
}

// ops lists the ops of the requests so far, for failure messages.
func (f *fake) ops() []string {
	var out []string
	for _, r := range f.Requests() {
		out = append(out, opOf(r.Method, r.Path))
	}
	return out
}

func (f *fake) setOverride(h func(w http.ResponseWriter, r *http.Request, op string) bool) {
	f.mu.Lock()
	f.override = h
	f.mu.Unlock()
}

func (f *fake) open(t *testing.T, mod func(*Config)) *Backend {
	t.Helper()
	cfg := Config{URL: f.Server.URL, Embedder: &testfixture.WordEmbedder{ModelID: "test-model", Dims: 8}, Timeout: 5 * time.Second}
	if mod != nil {
		mod(&cfg)
	}
	b, err := Open(context.Background(), cfg)
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	t.Cleanup(func() { b.Close() })
	return b
}

func asError(t *testing.T, err error) *Error {
	t.Helper()
	var e *Error
	if !errors.As(err, &e) {
		t.Fatalf("error %v (%T) is not a *chroma.Error", err, err)
	}
	return e
}

func reply(status int, body string) func(w http.ResponseWriter, r *http.Request, op string) bool {
	return func(w http.ResponseWriter, r *http.Request, op string) bool {
		if op != "POST query" {
			return false
		}
		w.WriteHeader(status)
		io.WriteString(w, body)
		return true
	}
}

func vecQuery(b *Backend) error {
	_, err := b.Search(context.Background(), retrieval.Request{Strategy: retrieval.Vector, Text: "parse config"})
	return err
}

func TestErrorShapes(t *testing.T) {
	cases := []struct {
		name     string
		status   int
		body     string
		kind     string
		msg      string
		sentinel error
	}{
		{"400 chroma json", 400, `{"error":"InvalidArgumentError","message":"Collection expecting embedding with dimension of 3, got 2"}`,
			"InvalidArgumentError", "Collection expecting embedding with dimension of 3, got 2", retrieval.ErrBadRequest},
		{"422 deserialize", 422, `{"error":"ChromaError","message":"Failed to deserialize the JSON body"}`,
			"ChromaError", "Failed to deserialize the JSON body", retrieval.ErrBadRequest},
		{"413", 413, `{"error":"PayloadTooLarge","message":"too big"}`, "PayloadTooLarge", "too big", retrieval.ErrTooLarge},
		{"500 chroma json", 500, `{"error":"InternalError","message":"boom"}`, "InternalError", "boom", ErrServer},
		{"503 non-json", 503, "<html><body>Service Unavailable</body></html>", "", "<html><body>Service Unavailable</body></html>", ErrServer},
		{"502 empty", 502, "", "", "Bad Gateway", ErrServer},
		{"401", 401, `{"error":"AuthError","message":"unauthorized"}`, "AuthError", "unauthorized", nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := newFake(t)
			b := f.open(t, nil)
			f.setOverride(reply(c.status, c.body))
			err := vecQuery(b)
			e := asError(t, err)
			if e.Status != c.status || e.Kind != c.kind || e.Message != c.msg || e.Op != "query" {
				t.Fatalf("got %+v", e)
			}
			if c.sentinel != nil && !errors.Is(err, c.sentinel) {
				t.Fatalf("%v does not match %v", err, c.sentinel)
			}
			if errors.Is(err, ErrTransport) {
				t.Fatalf("HTTP error matched ErrTransport")
			}
			t.Logf("%v", err)
		})
	}
}

func TestLongNonJSONBodyIsTruncated(t *testing.T) {
	f := newFake(t)
	b := f.open(t, nil)
	f.setOverride(reply(500, strings.Repeat("x", 10000)))
	e := asError(t, vecQuery(b))
	if len(e.Message) != 512 {
		t.Fatalf("message is %d bytes", len(e.Message))
	}
}

func TestMalformedSuccessBody(t *testing.T) {
	f := newFake(t)
	b := f.open(t, nil)
	for _, body := range []string{`not json`, `{"ids":[["a"]],"distances":[[]],"documents":[[null]],"metadatas":[[null]]}`,
		`{"ids":[["a"]],"distances":[[null]],"documents":[[null]],"metadatas":[[null]]}`,
		`{"ids":[["a"]],"distances":[[0.1]],"documents":[[null]],"metadatas":[[{"start_line":"x"}]]}`} {
		f.setOverride(reply(200, body))
		err := vecQuery(b)
		e := asError(t, err)
		if e.Kind != KindMalformed || !errors.Is(err, ErrMalformedResponse) {
			t.Fatalf("%s: got %v", body, err)
		}
	}
}

func TestResponseTooLarge(t *testing.T) {
	f := newFake(t)
	b := f.open(t, func(c *Config) { c.MaxResponseBytes = 1024 })
	f.setOverride(reply(200, `{"ids":[["`+strings.Repeat("a", 4096)+`"]]}`))
	err := vecQuery(b)
	if e := asError(t, err); e.Kind != KindTooLarge || !errors.Is(err, retrieval.ErrTooLarge) {
		t.Fatalf("got %v", err)
	}
}

func TestDeadServer(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close() // nothing listens there now
	_, err = Open(context.Background(), Config{URL: "http://" + addr, Model: "m", Dimensions: 3})
	e := asError(t, err)
	if e.Status != 0 || e.Kind != KindTransport || e.Op != "heartbeat" || !errors.Is(err, ErrTransport) {
		t.Fatalf("got %+v", e)
	}
	var opErr *net.OpError
	if !errors.As(err, &opErr) {
		t.Fatalf("cause is not a *net.OpError: %v", err)
	}
	t.Logf("%v", err)

	// A backend whose server dies later.
	f := newFake(t)
	b := f.open(t, nil)
	f.Server.CloseClientConnections()
	f.Server.Close()
	err = vecQuery(b)
	if e := asError(t, err); e.Status != 0 || !errors.Is(err, ErrTransport) {
		t.Fatalf("got %v", err)
	}
}

func slow(w http.ResponseWriter, r *http.Request, op string) bool {
	if op != "POST query" {
		return false
	}
	select {
	case <-r.Context().Done():
	case <-time.After(10 * time.Second):
	}
	return true
}

func TestSlowServerTimeout(t *testing.T) {
	f := newFake(t)
	b := f.open(t, func(c *Config) { c.Timeout = 100 * time.Millisecond })
	f.setOverride(slow)
	start := time.Now()
	err := vecQuery(b)
	if d := time.Since(start); d > 3*time.Second {
		t.Fatalf("took %v", d)
	}
	e := asError(t, err)
	if e.Status != 0 || e.Kind != KindTimeout || !errors.Is(err, ErrTransport) || !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("got %+v / %v", e, err)
	}

	// The caller's deadline is honoured too (no per-request timeout).
	b2 := f.open(t, func(c *Config) { c.Timeout = -1 })
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	_, err = b2.Search(ctx, retrieval.Request{Strategy: retrieval.Vector, Text: "x"})
	if !errors.Is(err, context.DeadlineExceeded) || asError(t, err).Kind != KindTimeout {
		t.Fatalf("got %v", err)
	}
}

func TestCancellation(t *testing.T) {
	f := newFake(t)
	b := f.open(t, nil)
	f.setOverride(slow)
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(50*time.Millisecond, cancel)
	_, err := b.Search(ctx, retrieval.Request{Strategy: retrieval.Vector, Text: "x"})
	if e := asError(t, err); e.Kind != KindCanceled || !errors.Is(err, context.Canceled) {
		t.Fatalf("got %v", err)
	}
	// Already canceled: the embedder refuses first; QueryVector reaches HTTP.
	_, err = b.QueryVector(ctx, testfixture.WordVector("x", 8), 5, retrieval.Filter{})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("got %v", err)
	}
}

func TestCollectionReResolvedAfter404(t *testing.T) {
	f := newFake(t)
	b := f.open(t, nil)
	gone := true
	f.setOverride(func(w http.ResponseWriter, r *http.Request, op string) bool {
		if op == "GET count" && gone {
			gone = false
			w.WriteHeader(404)
			io.WriteString(w, `{"error":"NotFoundError","message":"Collection [x] does not exists"}`)
			return true
		}
		return false
	})
	if _, err := b.Count(context.Background()); err != nil {
		t.Fatal(err)
	}
	if n := f.count("POST collections"); n != 2 {
		t.Fatalf("collection resolved %d times, want 2", n)
	}
}

func TestOpenCreatesTenantAndDatabase(t *testing.T) {
	f := newFake(t)
	f.setOverride(func(w http.ResponseWriter, r *http.Request, op string) bool {
		if (op == "GET tenant" || op == "GET database") && f.count(strings.Replace(op, "GET", "POST", 1)) == 0 {
			w.WriteHeader(404)
			io.WriteString(w, `{"error":"NotFoundError","message":"missing"}`)
			return true
		}
		if op == "POST tenant" || op == "POST database" {
			io.WriteString(w, `{}`)
			return true
		}
		return false
	})
	f.open(t, func(c *Config) { c.Tenant, c.Database = "team-a", "proj-b" })
	if f.count("POST tenant") != 1 || f.count("POST database") != 1 {
		t.Fatalf("calls: %v", f.ops())
	}
}

func TestEfSearchAppliedToExistingCollection(t *testing.T) {
	f := newFake(t)
	f.open(t, nil)
	if f.count("PUT collection") != 1 {
		t.Fatalf("calls %v", f.ops())
	}
	body := f.bodies("PUT collection")[0]
	if mustJSON(body) != `{"new_configuration":{"hnsw":{"ef_search":`+fmt.Sprint(DefaultEfSearch)+`}}}` {
		t.Fatalf("body %s", mustJSON(body))
	}
	if mustJSON(f.bodies("POST collections")[0]["configuration"]) != `{"hnsw":{"ef_search":`+fmt.Sprint(DefaultEfSearch)+`,"space":"cosine"}}` {
		t.Fatalf("create body %s", mustJSON(f.bodies("POST collections")[0]))
	}
}

func TestCollectionMismatch(t *testing.T) {
	f := newFake(t)
	f.collMeta = map[string]any{collMetaModel: "other-model", collMetaDims: 8}
	_, err := Open(context.Background(), Config{URL: f.Server.URL, Model: "test-model", Dimensions: 8})
	if !errors.Is(err, ErrMismatch) {
		t.Fatalf("got %v", err)
	}
	f.collMeta = nil
	f.space = "l2"
	_, err = Open(context.Background(), Config{URL: f.Server.URL, Model: "test-model", Dimensions: 8})
	if !errors.Is(err, ErrMismatch) || !strings.Contains(err.Error(), "space") {
		t.Fatalf("got %v", err)
	}
}

func TestConfigValidation(t *testing.T) {
	for _, cfg := range []Config{
		{URL: "http://x", Model: "", Dimensions: 3},
		{URL: "http://x", Model: "m"},
		{URL: "ftp://x", Model: "m", Dimensions: 3},
		{URL: "http://user:secret@x", Model: "m", Dimensions: 3},
		{URL: "https://x/?api_key=secret", Model: "m", Dimensions: 3},
		{URL: "https://x/#secret", Model: "m", Dimensions: 3},
		{URL: "https://x:notaport?token=secret", Model: "m", Dimensions: 3},
		{URL: "http://x", Model: "m", Dimensions: 3, Space: "manhattan"},
		{URL: "http://x", Model: "m", Dimensions: 3, CollectionPrefix: "-bad"},
		{URL: "http://x", Embedder: &testfixture.WordEmbedder{ModelID: "a", Dims: 4}, Dimensions: 5},
	} {
		_, err := Open(context.Background(), cfg)
		if !errors.Is(err, retrieval.ErrBadRequest) {
			t.Errorf("%+v: got %v", cfg, err)
		}
		if err != nil && strings.Contains(err.Error(), "secret") {
			t.Errorf("error leaks a credential: %v", err)
		}
	}
}

func TestTokenFromEnvNotInErrors(t *testing.T) {
	t.Setenv("RLM_TEST_CHROMA_TOKEN", "s3cr3t-token")
	f := newFake(t)
	b := f.open(t, func(c *Config) { c.TokenEnv = "RLM_TEST_CHROMA_TOKEN" })
	f.setOverride(reply(401, `{"error":"AuthError","message":"bad token"}`))
	err := vecQuery(b)
	if strings.Contains(err.Error(), "s3cr3t") {
		t.Fatalf("token in error: %v", err)
	}
	for _, r := range f.Requests() {
		h := r.Header
		if h.Get("X-Chroma-Token") != "s3cr3t-token" {
			t.Fatalf("request without token header: %v", h)
		}
	}
}

func TestUnsupportedStrategies(t *testing.T) {
	f := newFake(t)
	b := f.open(t, nil)
	for _, s := range []retrieval.Strategy{retrieval.Lexical, retrieval.Hybrid} {
		_, err := b.Search(context.Background(), retrieval.Request{Strategy: s, Text: "x"})
		if !errors.Is(err, retrieval.ErrUnsupported) {
			t.Errorf("%s: got %v", s, err)
		}
	}
	_, err := b.Search(context.Background(), retrieval.Request{Strategy: retrieval.Graph, Name: "F", Relation: retrieval.Callers})
	if !errors.Is(err, retrieval.ErrUnsupported) {
		t.Errorf("graph: got %v", err)
	}
	caps := b.Capabilities()
	if caps.Supports(retrieval.Lexical) || !caps.Supports(retrieval.Vector) || !caps.Supports(retrieval.Exact) || !caps.Filters {
		t.Errorf("caps %+v", caps)
	}
	// Without an embedder: no Vector capability, text ops refused.
	nb := f.open(t, func(c *Config) { c.Embedder, c.Model, c.Dimensions = nil, "test-model", 8 })
	if nb.Capabilities().Supports(retrieval.Vector) {
		t.Error("vector without embedder")
	}
	if err := nb.Upsert(context.Background(), []retrieval.Document{{ID: "a"}}); !errors.Is(err, ErrNoEmbedder) || !errors.Is(err, retrieval.ErrUnsupported) {
		t.Errorf("upsert: %v", err)
	}
}

func TestInputValidationWritesNothing(t *testing.T) {
	f := newFake(t)
	b := f.open(t, nil)
	ctx := context.Background()
	good := testfixture.WordVector("a", 8)
	nan := append([]float32(nil), good...)
	nan[3] = float32(math.NaN())
	inf := append([]float32(nil), good...)
	inf[0] = float32(math.Inf(1))
	docs := []retrieval.Document{{ID: "a"}, {ID: "b"}}
	cases := map[string]struct {
		docs []retrieval.Document
		vecs [][]float32
	}{
		"nan":         {docs, [][]float32{good, nan}},
		"inf":         {docs, [][]float32{good, inf}},
		"short":       {docs, [][]float32{good, good[:7]}},
		"zero cosine": {docs, [][]float32{good, make([]float32, 8)}},
		"count":       {docs, [][]float32{good}},
		"dup ids":     {[]retrieval.Document{{ID: "a"}, {ID: "a"}}, [][]float32{good, good}},
		"empty id":    {[]retrieval.Document{{ID: "a"}, {ID: ""}}, [][]float32{good, good}},
		"bad utf8":    {[]retrieval.Document{{ID: "a"}, {ID: "b", Text: "\xff"}}, [][]float32{good, good}},
	}
	for name, c := range cases {
		err := b.UpsertVectors(ctx, c.docs, c.vecs)
		if !errors.Is(err, retrieval.ErrBadRequest) {
			t.Errorf("%s: got %v", name, err)
		}
	}
	big := []retrieval.Document{{ID: "a", Text: strings.Repeat("x", MaxTextBytes+1)}}
	if err := b.UpsertVectors(ctx, big, [][]float32{good}); !errors.Is(err, retrieval.ErrTooLarge) {
		t.Errorf("big text: got %v", err)
	}
	if n := f.count("POST upsert"); n != 0 {
		t.Fatalf("%d upsert requests sent for invalid input", n)
	}
	// Empty batches are no-ops and send nothing.
	if err := b.UpsertVectors(ctx, nil, nil); err != nil {
		t.Fatal(err)
	}
	if err := b.Upsert(ctx, nil); err != nil {
		t.Fatal(err)
	}
	if err := b.Delete(ctx, nil); err != nil {
		t.Fatal(err)
	}
	if docs, err := b.Fetch(ctx, nil); err != nil || docs != nil {
		t.Fatal(docs, err)
	}
	if f.count("POST upsert")+f.count("POST delete")+f.count("POST get") != 0 {
		t.Fatalf("empty calls reached the server: %v", f.ops())
	}
	// An embedder failure writes nothing either.
	b.embedder.(*testfixture.WordEmbedder).Before = func(context.Context, int64) error { return errors.New("embedder down") }
	if err := b.Upsert(ctx, []retrieval.Document{{ID: "a", Text: "x"}}); err == nil || f.count("POST upsert") != 0 {
		t.Fatalf("got %v", err)
	}
	// Bad query vectors are refused before the request.
	if _, err := b.QueryVector(ctx, nan, 5, retrieval.Filter{}); !errors.Is(err, retrieval.ErrBadRequest) {
		t.Errorf("nan query: %v", err)
	}
	if _, err := b.QueryVector(ctx, good, retrieval.MaxLimit+1, retrieval.Filter{}); !errors.Is(err, retrieval.ErrBadRequest) {
		t.Errorf("big n: %v", err)
	}
	if f.count("POST query") != 0 {
		t.Fatal("bad query reached the server")
	}
}

func TestBatchSplitting(t *testing.T) {
	f := newFake(t)
	f.maxBatch = 7 // server max below Config.BatchSize
	b := f.open(t, func(c *Config) { c.BatchSize = 100 })
	if b.BatchSize() != 7 {
		t.Fatalf("batch size %d", b.BatchSize())
	}
	docs := make([]retrieval.Document, 50)
	vecs := make([][]float32, 50)
	for i := range docs {
		docs[i] = retrieval.Document{ID: fmt.Sprintf("d%02d", i), Path: "a/b.go"}
		vecs[i] = testfixture.WordVector(docs[i].ID, 8)
	}
	if err := b.UpsertVectors(context.Background(), docs, vecs); err != nil {
		t.Fatal(err)
	}
	bodies := f.bodies("POST upsert")
	if len(bodies) != 8 {
		t.Fatalf("%d requests, want 8", len(bodies))
	}
	var ids []string
	for _, body := range bodies {
		n := len(body["ids"].([]any))
		if n > 7 || len(body["embeddings"].([]any)) != n || len(body["metadatas"].([]any)) != n {
			t.Fatalf("bad batch: %d ids", n)
		}
		for _, id := range body["ids"].([]any) {
			ids = append(ids, id.(string))
		}
	}
	for i, id := range ids {
		if id != docs[i].ID {
			t.Fatalf("order broken at %d: %s", i, id)
		}
	}

	// A failure in batch 3 reports how much was written before it.
	calls := 0
	f.setOverride(func(w http.ResponseWriter, r *http.Request, op string) bool {
		if op != "POST upsert" {
			return false
		}
		if calls++; calls == 3 {
			w.WriteHeader(500)
			io.WriteString(w, `{"error":"InternalError","message":"disk full"}`)
			return true
		}
		return false
	})
	err := b.UpsertVectors(context.Background(), docs, vecs)
	if e := asError(t, err); e.Kind != "InternalError" || !strings.Contains(err.Error(), "14 of 50 records written") {
		t.Fatalf("got %v", err)
	}
}

func TestBatchSplitByBytes(t *testing.T) {
	f := newFake(t)
	b := f.open(t, func(c *Config) { c.MaxRequestBytes = 64 << 10 })
	docs := make([]retrieval.Document, 10)
	vecs := make([][]float32, 10)
	for i := range docs {
		docs[i] = retrieval.Document{ID: fmt.Sprint(i), Text: strings.Repeat("y", 20<<10)}
		vecs[i] = testfixture.WordVector(docs[i].ID, 8)
	}
	if err := b.UpsertVectors(context.Background(), docs, vecs); err != nil {
		t.Fatal(err)
	}
	if n := f.count("POST upsert"); n < 4 {
		t.Fatalf("%d requests for 200 KiB under a 64 KiB bound", n)
	}
}

func TestBase64Encoding(t *testing.T) {
	f := newFake(t)
	b := f.open(t, nil)
	v := []float32{1, -2.5, 0, 3}
	if got := encodeVector(v); got != "AACAPwAAIMAAAAAAAABAQA==" {
		t.Fatalf("got %s", got)
	}
	if err := b.UpsertVectors(context.Background(), []retrieval.Document{{ID: "a"}}, [][]float32{testfixture.WordVector("a", 8)}); err != nil {
		t.Fatal(err)
	}
	emb := f.bodies("POST upsert")[0]["embeddings"].([]any)
	if _, ok := emb[0].(string); !ok {
		t.Fatalf("embeddings not base64: %T", emb[0])
	}
}

func TestCollectionName(t *testing.T) {
	a := CollectionName("rlm", "openai/text-embedding-3-small", 1536, Cosine)
	if !strings.HasPrefix(a, "rlm-openai-text-embedding-3-small-1536d-cosine-") || len(a) != len("rlm-openai-text-embedding-3-small-1536d-cosine-")+8 {
		t.Fatalf("got %s", a)
	}
	names := map[string]bool{a: true}
	for _, n := range []string{
		CollectionName("rlm", "openai:text-embedding-3-small", 1536, Cosine), // same sanitised text
		CollectionName("rlm", "openai/text-embedding-3-small", 512, Cosine),
		CollectionName("rlm", "openai/text-embedding-3-small", 1536, L2),
		CollectionName("proj", "openai/text-embedding-3-small", 1536, Cosine),
		CollectionName("rlm", "!!!", 3, Cosine),
		CollectionName("rlm", strings.Repeat("ü", 300), 3, Cosine),
	} {
		if names[n] {
			t.Fatalf("collision: %s", n)
		}
		names[n] = true
		if len(n) < 3 || len(n) > 512 || !validChromaName(n) {
			t.Fatalf("invalid chroma name %q", n)
		}
	}
}

func validChromaName(s string) bool {
	isAlnum := func(c byte) bool { return c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }
	for i := 0; i < len(s); i++ {
		if c := s[i]; !isAlnum(c) && c != '.' && c != '_' && c != '-' {
			return false
		}
	}
	return isAlnum(s[0]) && isAlnum(s[len(s)-1])
}

func TestCompileFilter(t *testing.T) {
	js := func(v any) string { b, _ := json.Marshal(v); return string(b) }
	cases := []struct {
		f       retrieval.Filter
		where   string
		client  bool
		keep    []string
		discard []string
	}{
		{retrieval.Filter{}, "null", false, []string{"x.go"}, nil},
		{retrieval.Filter{Kinds: []string{"method"}}, `{"kind":"method"}`, false, nil, nil},
		{retrieval.Filter{Kinds: []string{"type", "func", "type"}, ExcludeTests: true},
			`{"$and":[{"kind":{"$in":["func","type"]}},{"test":{"$ne":true}}]}`, false, nil, nil},
		{retrieval.Filter{PathPrefixes: []string{"internal/server/"}}, `{"dir_2":"internal/server"}`, false,
			[]string{"internal/server/a.go"}, nil},
		{retrieval.Filter{PathPrefixes: []string{"internal/ser"}}, `{"dir_1":"internal"}`, true,
			[]string{"internal/server/a.go", "internal/ser.go"}, []string{"internal/client/a.go"}},
		{retrieval.Filter{PathPrefixes: []string{"cmd", "pkg/a/"}}, "null", true,
			[]string{"cmd/x.go", "cmdline.go", "pkg/a/b.go"}, []string{"pkg/b/a.go"}},
		{retrieval.Filter{PathPrefixes: []string{"a/", "b/c/"}, Languages: []string{"go"}},
			`{"$and":[{"language":"go"},{"$or":[{"dir_1":"a"},{"dir_2":"b/c"}]}]}`, false, nil, nil},
		{retrieval.Filter{PathPrefixes: []string{"", "a/"}}, "null", false, []string{"z.go"}, nil},
	}
	for i, c := range cases {
		cf := compileFilter(c.f)
		if got := js(cf.where); got != c.where {
			t.Errorf("%d: where %s, want %s", i, got, c.where)
		}
		if cf.clientSide() != c.client {
			t.Errorf("%d: clientSide %v", i, cf.clientSide())
		}
		for _, p := range c.keep {
			if !cf.keep(p) {
				t.Errorf("%d: dropped %s", i, p)
			}
		}
		for _, p := range c.discard {
			if cf.keep(p) {
				t.Errorf("%d: kept %s", i, p)
			}
		}
	}
	// Deeper than MaxDirDepth: narrowed at MaxDirDepth, finished on the client.
	deep := strings.Repeat("d/", MaxDirDepth+3)
	cf := compileFilter(retrieval.Filter{PathPrefixes: []string{deep}})
	if !cf.clientSide() || js(cf.where) != js(map[string]any{dirKey(MaxDirDepth): strings.TrimSuffix(strings.Repeat("d/", MaxDirDepth), "/")}) {
		t.Errorf("deep: %s %v", js(cf.where), cf.clientSide())
	}
}

func TestMetadataRoundTrip(t *testing.T) {
	d := retrieval.Document{
		ID: "pkg/a/b.go#Server.Serve@10", Path: "pkg/a/b.go", StartLine: 10, EndLine: 42,
		Symbol: "Serve", Qualified: "Server.Serve", Kind: "method", Language: "go",
		Signature: "func (s *Server) Serve() error", Doc: "Serve serves.", Text: "serve server",
		ContentHash: "xxh64:abcd:123", Test: true,
		Refs:     []retrieval.Ref{{Name: "Listen", Kind: "call", Line: 12}},
		Metadata: map[string]string{"owner": "net"},
	}
	m, err := toMetadata(d)
	if err != nil {
		t.Fatal(err)
	}
	if m["dir_1"] != "pkg" || m["dir_2"] != "pkg/a" || m["dir_3"] != nil || m["symbol_lc"] != "serve" {
		t.Fatalf("metadata %v", m)
	}
	// Through JSON as the server would return it.
	data, _ := json.Marshal(m)
	var back map[string]any
	dec := json.NewDecoder(strings.NewReader(string(data)))
	dec.UseNumber()
	if err := dec.Decode(&back); err != nil {
		t.Fatal(err)
	}
	text := d.Text
	got, err := fromRecord(d.ID, &text, back)
	if err != nil {
		t.Fatal(err)
	}
	if js1, js2 := mustJSON(got), mustJSON(d); js1 != js2 {
		t.Fatalf("round trip:\n got %s\nwant %s", js1, js2)
	}
}

func mustJSON(v any) string { b, _ := json.Marshal(v); return string(b) }

// TestReplacingARecordDropsMetadataKeysOfTheOldVersion: Chroma's upsert
// merges metadata, so Upsert reads the stored metadata of the ids it writes
// and sends every key the new version lacks as null (which drops it).
func TestReplacingARecordDropsMetadataKeysOfTheOldVersion(t *testing.T) {
	f := newFake(t)
	b := f.open(t, nil)
	f.setOverride(func(w http.ResponseWriter, r *http.Request, op string) bool {
		if op != "POST get" {
			return false
		}
		io.WriteString(w, `{"ids":["a","zz"],"metadatas":[{"path":"x/y/z/old.go","dir_3":"x/y/z","meta:owner":"net","test":false},{"stale":"other id"}]}`)
		return true
	})
	doc := retrieval.Document{ID: "a", Path: "x/new.go", Symbol: "New"}
	if err := b.UpsertVectors(context.Background(), []retrieval.Document{doc}, [][]float32{testfixture.WordVector("a", 8)}); err != nil {
		t.Fatal(err)
	}
	gets := f.bodies("POST get")
	if len(gets) != 1 || mustJSON(gets[0]) != `{"ids":["a"],"include":["metadatas"]}` {
		t.Fatalf("get before upsert: %v", gets)
	}
	got := f.bodies("POST upsert")[0]["metadatas"].([]any)[0].(map[string]any)
	want := map[string]any{"path": "x/new.go", "dir_1": "x", "symbol": "New", "symbol_lc": "new", "test": false,
		"role": "source", "role_derived": true, "dir_3": nil, "meta:owner": nil}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("upserted metadata (-want +got):\n%s", diff)
	}
}

// TestOpenRefusesAnEmbedderOfUnknownDimensions: a remote embedder without
// configured dimensions reports 0; Open refuses it before any request, with
// an error wrapping retrieval.ErrBadRequest that says so.
func TestOpenRefusesAnEmbedderOfUnknownDimensions(t *testing.T) {
	f := newFake(t)
	b, err := Open(context.Background(), Config{URL: f.Server.URL, Embedder: &testfixture.WordEmbedder{ModelID: "text-embedding-3-small"}})
	if !errors.Is(err, retrieval.ErrBadRequest) || !strings.Contains(err.Error(), "dimensions unknown") || b != nil {
		t.Fatalf("Open = %v, %v; want ErrBadRequest saying dimensions unknown", b, err)
	}
	if n := len(f.Requests()); n != 0 {
		t.Errorf("%d requests reached the server", n)
	}
}
