package rlm

import (
	"context"
	"fmt"

	"github.com/rlm-dev/rlm/providers"
	"github.com/rlm-dev/rlm/retrieval"
)

// LocalEmbedder is the offline default: a deterministic feature-hashing
// embedder (model providers.LocalModelID, 384 dimensions).
func LocalEmbedder() (Embedder, error) {
	p, err := providers.NewLocalEmbedder(providers.LocalConfig{})
	if err != nil {
		return nil, err
	}
	return fromProvider(p)
}

// OpenAIEmbedder embeds through an OpenAI-compatible endpoint. keyEnv names
// the environment variable holding the key (read at call time, never
// logged); dims must be the model's output size.
func OpenAIEmbedder(baseURL, model, keyEnv string, dims int) (Embedder, error) {
	p, err := providers.NewRemoteEmbedder(providers.EmbeddingConfig{
		Config:     providers.Config{BaseURL: baseURL, Model: model, APIKeyEnv: keyEnv},
		Dimensions: dims,
	})
	if err != nil {
		return nil, err
	}
	return fromProvider(p)
}

func fromProvider(p providers.Embedder) (Embedder, error) {
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
