package providers

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/cespare/xxhash/v2"
	"github.com/google/go-cmp/cmp"
	"github.com/rlm-dev/rlm/internal/testfixture"
	"github.com/rlm-dev/rlm/retrieval"
)

func tokens(s string) []string {
	var out []string
	var scratch []byte
	forEachToken(s, &scratch, func(b []byte) { out = append(out, string(b)) })
	return out
}

func TestLocalTokenizer(t *testing.T) {
	cases := map[string][]string{
		"parseHTTPRequest":      {"parse", "http", "request"},
		"parse_http_request":    {"parse", "http", "request"},
		"ParseHttpRequest":      {"parse", "http", "request"},
		"utf8Decode":            {"utf", "8", "decode"},
		"XMLHttpRequest2Go":     {"xml", "http", "request", "2", "go"},
		"getID":                 {"get", "id"},
		"v2_API_KEY":            {"v", "2", "api", "key"},
		"  foo.bar(baz) -> qux": {"foo", "bar", "baz", "qux"},
		"ÉtéCafé":               {"été", "café"},
		"!!!":                   nil,
	}
	for in, want := range cases {
		if d := cmp.Diff(want, tokens(in)); d != "" {
			t.Errorf("tokens(%q) (-want +got):\n%s", in, d)
		}
	}
}

func mustLocal(t testing.TB, cfg LocalConfig) *LocalEmbedder {
	t.Helper()
	l, err := NewLocalEmbedder(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return l
}

func TestLocalDeterministicAndNormalised(t *testing.T) {
	texts := []string{"parseHTTPRequest", "func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request)", "!!!", "x"}
	a, err := mustLocal(t, LocalConfig{}).EmbedDetailed(context.Background(), texts)
	if err != nil {
		t.Fatal(err)
	}
	b, err := mustLocal(t, LocalConfig{}).EmbedDetailed(context.Background(), texts)
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(a.Vectors, b.Vectors); d != "" {
		t.Fatalf("not deterministic:\n%s", d)
	}
	if a.Model != "rlm-local-hash-v1" || a.Dimensions != 384 || a.Provider != "local" {
		t.Errorf("metadata %q %d %q", a.Model, a.Dimensions, a.Provider)
	}
	for i, v := range a.Vectors {
		if len(v) != 384 {
			t.Fatalf("len %d", len(v))
		}
		var n float64
		for _, x := range v {
			n += float64(x) * float64(x)
		}
		if math.Abs(n-1) > 1e-5 {
			t.Errorf("text %d: |v|^2 = %v", i, n)
		}
	}
	if a.Usage.PromptTokens != 3+12+0+1 || a.Usage.TotalTokens != a.Usage.PromptTokens {
		t.Errorf("usage %+v", a.Usage)
	}
}

// TestLocalGolden pins the feature set of rlm-local-hash-v1: if this fails,
// vectors changed and LocalModelID must be bumped.
func TestLocalGolden(t *testing.T) {
	vecs, err := mustLocal(t, LocalConfig{}).Embed(context.Background(), []string{"parseHTTPRequest", "snake_case_name 42"})
	if err != nil {
		t.Fatal(err)
	}
	d := xxhash.New()
	for _, v := range vecs {
		for _, x := range v {
			_ = binary.Write(d, binary.LittleEndian, math.Float32bits(x))
		}
	}
	if got := d.Sum64(); got != goldenLocalHash {
		t.Errorf("vector hash %#x, want %#x: the %s feature set changed", got, goldenLocalHash, LocalModelID)
	}
}

const goldenLocalHash = uint64(0x266bb44bfdbf0e8c)

func TestLocalSimilarity(t *testing.T) {
	l := mustLocal(t, LocalConfig{})
	texts := []string{
		"parseHTTPRequest", "parse_http_request", // 0,1 same identifier, two styles
		"getUserName", "get_user_id", "renderTriangleMesh", // 2,3,4
		"userRepository", "UserRepo", "socketTimeout", // 5,6,7
	}
	v, err := l.Embed(context.Background(), texts)
	if err != nil {
		t.Fatal(err)
	}
	if c := testfixture.Cosine(v[0], v[1]); c < 0.999 {
		t.Errorf("cos(parseHTTPRequest, parse_http_request) = %.3f, want ~1", c)
	}
	pairs := []struct {
		name          string
		similar, away float64
	}{
		{"getUserName", testfixture.Cosine(v[2], v[3]), testfixture.Cosine(v[2], v[4])},
		{"userRepository", testfixture.Cosine(v[5], v[6]), testfixture.Cosine(v[5], v[7])},
	}
	for _, p := range pairs {
		if p.similar < p.away+0.2 {
			t.Errorf("%s: similar %.3f not clearly above unrelated %.3f", p.name, p.similar, p.away)
		}
		t.Logf("%s: similar %.3f, unrelated %.3f", p.name, p.similar, p.away)
	}
}

func TestLocalConfigAndInput(t *testing.T) {
	for _, cfg := range []LocalConfig{{Dimensions: 4}, {Dimensions: -1}, {Dimensions: 1 << 20}, {MaxTexts: -1}} {
		if _, err := NewLocalEmbedder(cfg); !IsKind(err, KindConfiguration) {
			t.Errorf("NewLocalEmbedder(%+v) err = %v", cfg, err)
		}
	}
	l := mustLocal(t, LocalConfig{Dimensions: 16, MaxTexts: 2, MaxTextBytes: 4})
	if l.Dimensions() != 16 || l.Model() != LocalModelID {
		t.Error("accessors")
	}
	for _, in := range [][]string{nil, {}, {""}, {"a", "b", "c"}, {"abcde"}} {
		if _, err := l.Embed(context.Background(), in); !IsKind(err, KindConfiguration) {
			t.Errorf("Embed(%q) err = %v", in, err)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := l.Embed(ctx, []string{"a"}); !IsKind(err, KindCanceled) || !errors.Is(err, context.Canceled) {
		t.Errorf("canceled ctx: err = %v", err)
	}
	v, err := EmbedOne(context.Background(), l, "ab")
	if err != nil || len(v) != 16 {
		t.Errorf("EmbedOne = %v, %v", v, err)
	}
}

// benchTexts is a mix resembling source chunks: identifiers and code lines.
func benchTexts() []string {
	base := []string{
		"parseHTTPRequest",
		"func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {",
		"snake_case_identifier_with_digits_42",
		"// Package retrieval defines the backend-neutral search contract.",
		"if err := validateEmbeddingResponse(res, len(batch)); err != nil { return nil, err }",
		"XMLHttpRequest2Go",
		"SELECT id, path, sha256 FROM files WHERE project_id = ? ORDER BY path",
		"const DefaultLocalDimensions = 384",
	}
	var out []string
	for i := 0; i < 256; i++ {
		out = append(out, fmt.Sprintf("%s %d", base[i%len(base)], i))
	}
	return out
}

// BenchmarkLocalEmbed reports throughput as texts/s and MB/s (b.SetBytes).
func BenchmarkLocalEmbed(b *testing.B) {
	l := mustLocal(b, LocalConfig{})
	texts := benchTexts()
	var bytes int64
	for _, s := range texts {
		bytes += int64(len(s))
	}
	b.SetBytes(bytes)
	b.ReportAllocs()
	ctx := context.Background()
	for b.Loop() {
		if _, err := l.Embed(ctx, texts); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(len(texts))*float64(b.N)/b.Elapsed().Seconds(), "texts/s")
}

func BenchmarkLocalEmbedLongText(b *testing.B) {
	l := mustLocal(b, LocalConfig{})
	text := strings.Repeat("func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {\n", 400)
	b.SetBytes(int64(len(text)))
	ctx := context.Background()
	for b.Loop() {
		if _, err := l.Embed(ctx, []string{text}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "texts/s")
}

// TestTheDefaultEmbedderAcceptsEveryEmbeddingText: with the default
// per-text cap, the local embedder embeds a text of
// retrieval.MaxEmbeddingTextBytes (what a backend gives it at most), so a
// long definition never leaves a search index without vectors.
func TestTheDefaultEmbedderAcceptsEveryEmbeddingText(t *testing.T) {
	l, err := NewLocalEmbedder(LocalConfig{})
	if err != nil {
		t.Fatal(err)
	}
	text := strings.Repeat("x", retrieval.MaxEmbeddingTextBytes)
	if _, err := l.Embed(context.Background(), []string{text}); err != nil {
		t.Errorf("a %d-byte text: %v", len(text), err)
	}
}
