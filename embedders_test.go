package rlm_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/rlm-dev/rlm"
	"github.com/rlm-dev/rlm/providers"
	"github.com/rlm-dev/rlm/retrieval"
)

// TestEmbedderConstructorsReturnProviderEmbedders: the façade's embedders
// are providers' own, used as retrieval.Embedder with no adapter between,
// and an OpenAI embedder without known dimensions is refused up front.
func TestEmbedderConstructorsReturnProviderEmbedders(t *testing.T) {
	local, err := rlm.LocalEmbedder()
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := local.(*providers.LocalEmbedder); !ok || local.Model() != providers.LocalModelID || local.Dimensions() != providers.DefaultLocalDimensions {
		t.Errorf("LocalEmbedder = %T %s/%d", local, local.Model(), local.Dimensions())
	}
	remote, err := rlm.OpenAIEmbedder("http://127.0.0.1:1/v1", "text-embedding-3-small", "RLM_TEST_UNSET_KEY", 1536)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := remote.(*providers.RemoteEmbedder); !ok || remote.Dimensions() != 1536 {
		t.Errorf("OpenAIEmbedder = %T with %d dimensions", remote, remote.Dimensions())
	}
	e, err := rlm.OpenAIEmbedder("http://127.0.0.1:1/v1", "text-embedding-3-small", "RLM_TEST_UNSET_KEY", 0)
	if !errors.Is(err, retrieval.ErrBadRequest) || !strings.Contains(err.Error(), "dimensions unknown") || e != nil {
		t.Errorf("OpenAIEmbedder without dimensions = %v, %v; want ErrBadRequest saying dimensions unknown", e, err)
	}
}
