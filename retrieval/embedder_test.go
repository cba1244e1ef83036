package retrieval_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/rlm-dev/rlm/retrieval"
)

// TestCheckEmbedderRefusesUnknownDimensions: an embedder that cannot key
// its vectors (no model id, 0 or negative dimensions as a remote embedder
// without configured dimensions reports, or too many) is refused with an
// error wrapping ErrBadRequest that says what is wrong.
func TestCheckEmbedderRefusesUnknownDimensions(t *testing.T) {
	embed := func(context.Context, []string) ([][]float32, error) { return nil, nil }
	tests := []struct {
		name  string
		model string
		dims  int
		want  string // "" = accepted
	}{
		{"known", "m", 384, ""},
		{"largest", "m", retrieval.MaxDimensions, ""},
		{"unknown dimensions", "text-embedding-3-small", 0, `embedder "text-embedding-3-small": dimensions unknown`},
		{"negative dimensions", "m", -1, "dimensions unknown"},
		{"too many dimensions", "m", retrieval.MaxDimensions + 1, "over 65536"},
		{"no model id", "", 8, "empty model id"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := retrieval.CheckEmbedder(retrieval.FuncEmbedder{ModelID: tc.model, Dims: tc.dims, Func: embed})
			if tc.want == "" {
				if err != nil {
					t.Fatalf("CheckEmbedder = %v, want nil", err)
				}
				return
			}
			if !errors.Is(err, retrieval.ErrBadRequest) || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("CheckEmbedder = %v, want ErrBadRequest saying %q", err, tc.want)
			}
		})
	}
}

// natured is an embedder that says what its vectors are made of.
type natured struct {
	retrieval.FuncEmbedder
	nature string
}

func (n natured) Nature() string { return n.nature }

// TestEmbedderNatureIsWhatTheEmbedderSays: no embedder has no nature; an
// embedder that says it is lexical is; one that says nothing, or a word
// outside the vocabulary, is taken for a learned model.
func TestEmbedderNatureIsWhatTheEmbedderSays(t *testing.T) {
	plain := retrieval.FuncEmbedder{ModelID: "m", Dims: 8}
	for _, c := range []struct {
		name string
		e    retrieval.Embedder
		want string
	}{
		{"none", nil, ""},
		{"silent", plain, retrieval.EmbedderLearned},
		{"lexical", natured{plain, retrieval.EmbedderLexical}, retrieval.EmbedderLexical},
		{"learned", natured{plain, retrieval.EmbedderLearned}, retrieval.EmbedderLearned},
		{"outside the vocabulary", natured{plain, "psychic"}, retrieval.EmbedderLearned},
	} {
		if got := retrieval.EmbedderNature(c.e); got != c.want {
			t.Errorf("%s: EmbedderNature = %q, want %q", c.name, got, c.want)
		}
	}
}

// capsOnly is a backend of given capabilities.
type capsOnly struct {
	retrieval.Backend
	caps retrieval.Capabilities
}

func (c capsOnly) Capabilities() retrieval.Capabilities { return c.caps }

// TestARoutersEmbedderIsTheOneThatScoresItsVectors: a router whose
// vectors come from its vector backend has that backend's embedder; one
// whose primary scores vectors itself has the primary's.
func TestARoutersEmbedderIsTheOneThatScoresItsVectors(t *testing.T) {
	base := []retrieval.Strategy{retrieval.Exact, retrieval.Lexical}
	withVec := append(append([]retrieval.Strategy{}, base...), retrieval.Vector)
	vectors := capsOnly{caps: retrieval.Capabilities{Strategies: []retrieval.Strategy{retrieval.Exact, retrieval.Vector}, Embedder: retrieval.EmbedderLexical}}
	for _, c := range []struct {
		name    string
		primary retrieval.Capabilities
		want    string
	}{
		{"vectors from the vector backend", retrieval.Capabilities{Strategies: base}, retrieval.EmbedderLexical},
		{"vectors from the primary", retrieval.Capabilities{Strategies: withVec, Embedder: retrieval.EmbedderLearned}, retrieval.EmbedderLearned},
	} {
		r := &retrieval.Router{Primary: capsOnly{caps: c.primary}, Vectors: vectors}
		if got := r.Capabilities().Embedder; got != c.want {
			t.Errorf("%s: Embedder = %q, want %q", c.name, got, c.want)
		}
	}
}
