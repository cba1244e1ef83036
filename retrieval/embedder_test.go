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
