package rlm

import (
	"context"
	"fmt"

	"github.com/rlm-dev/rlm/providers"
	"github.com/rlm-dev/rlm/retrieval"
)

// FromProvider adapts a providers.Embedder to the retrieval.Embedder that
// the backends take. The provider's Dimensions must be known (for a remote
// embedder: set EmbeddingConfig.Dimensions).
func FromProvider(p providers.Embedder) (retrieval.Embedder, error) {
	if p.Dimensions() <= 0 {
		return nil, fmt.Errorf("rlm: embedder %s: dimensions unknown; configure them", p.Model())
	}
	return retrieval.FuncEmbedder{ModelID: p.Model(), Dims: p.Dimensions(),
		Func: func(ctx context.Context, texts []string) ([][]float32, error) {
			res, err := p.Embed(ctx, texts)
			if err != nil {
				return nil, err
			}
			return res.Vectors, nil
		}}, nil
}

// LocalEmbedder is the offline default: providers' deterministic
// feature-hashing embedder (model providers.LocalModelID, 384 dimensions).
func LocalEmbedder() (retrieval.Embedder, error) {
	p, err := providers.NewLocalEmbedder(providers.LocalConfig{})
	if err != nil {
		return nil, err
	}
	return FromProvider(p)
}

// OpenAIEmbedder embeds through an OpenAI-compatible endpoint. keyEnv names
// the environment variable holding the key (read at call time, never
// logged); dims must be the model's output size.
func OpenAIEmbedder(baseURL, model, keyEnv string, dims int) (retrieval.Embedder, error) {
	p, err := providers.NewRemoteEmbedder(providers.EmbeddingConfig{
		Config:     providers.Config{BaseURL: baseURL, Model: model, APIKeyEnv: keyEnv},
		Dimensions: dims,
	})
	if err != nil {
		return nil, err
	}
	return FromProvider(p)
}
