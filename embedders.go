package rlm

import (
	"fmt"

	"github.com/rlm-dev/rlm/providers"
	"github.com/rlm-dev/rlm/retrieval"
)

// LocalEmbedder is the offline default: providers' deterministic
// feature-hashing embedder (model providers.LocalModelID, 384 dimensions).
func LocalEmbedder() (Embedder, error) {
	p, err := providers.NewLocalEmbedder(providers.LocalConfig{})
	if err != nil {
		return nil, err
	}
	return p, nil
}

// OpenAIEmbedder embeds through an OpenAI-compatible endpoint. keyEnv names
// the environment variable holding the key (read at call time, never
// logged); dims must be the model's output size: 0 fails here, as a backend
// must know the vector length (retrieval.CheckEmbedder, an error wrapping
// retrieval.ErrBadRequest).
func OpenAIEmbedder(baseURL, model, keyEnv string, dims int) (Embedder, error) {
	p, err := providers.NewRemoteEmbedder(providers.EmbeddingConfig{
		Config:     providers.Config{BaseURL: baseURL, Model: model, APIKeyEnv: keyEnv},
		Dimensions: dims,
	})
	if err != nil {
		return nil, err
	}
	if err := retrieval.CheckEmbedder(p); err != nil {
		return nil, fmt.Errorf("rlm: %w", err)
	}
	return p, nil
}
