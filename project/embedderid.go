package project

import (
	"context"
	"fmt"

	"github.com/cespare/xxhash/v2"

	"github.com/rlm-dev/rlm/retrieval"
)

// ProbeText is the fixed text whose vector fingerprints an embedder's
// vector space (see embedderIdentity).
const ProbeText = "rlm embedder probe: func Open(ctx context.Context, root string) (*Project, error)"

// Endpointer is implemented by embedders that call a server
// (providers.RemoteEmbedder): Endpoint is its base URL, without
// credentials. Two endpoints serving the same model name may serve
// different vector spaces, so the endpoint is part of an embedder's
// identity.
type Endpointer interface {
	Endpoint() string
}

// embedderIdentity names e's vector space in search index file names:
// "none" without an embedder, else "<model>-<dimensions>-<16 hex digits>",
// the digits an XXH64 of the endpoint (Endpointer; never a secret) and of
// the signs of the vector e gives ProbeText. Signs, not values, so that the
// last-bit noise of a remote model does not change the identity, while two
// vector spaces (another model or deployment under the same name) almost
// surely differ in some of them. It costs one Embed call of one text.
func embedderIdentity(ctx context.Context, e retrieval.Embedder) (string, error) {
	if e == nil {
		return "none", nil
	}
	vecs, err := e.Embed(ctx, []string{ProbeText})
	if err != nil {
		return "", fmt.Errorf("project: embedder probe: %w", err)
	}
	if len(vecs) != 1 || len(vecs[0]) == 0 {
		return "", fmt.Errorf("project: embedder probe: %d vectors for one text", len(vecs))
	}
	h := xxhash.New()
	if ep, ok := e.(Endpointer); ok {
		h.WriteString(ep.Endpoint())
	}
	h.Write([]byte{0})
	signs := make([]byte, (len(vecs[0])+7)/8)
	for i, x := range vecs[0] {
		if x > 0 {
			signs[i/8] |= 1 << (i % 8)
		}
	}
	h.Write(signs)
	return fmt.Sprintf("%s-%d-%016x", unsafeName.ReplaceAllString(e.Model(), "_"), e.Dimensions(), h.Sum64()), nil
}

// embedderIdentity is the project's embedderID, probing the embedder the
// first time it is needed and again after a failed probe (a dead embedder
// then fails like a build would: a *retrieval.UnavailableError, and the
// project opens an index without vectors). Called under refreshMu.
func (p *Project) embedderIdentity(ctx context.Context) (string, error) {
	if p.embedderID != "" {
		return p.embedderID, nil
	}
	id, err := embedderIdentity(ctx, p.opts.Embedder)
	if err != nil {
		return "", err
	}
	p.embedderID = id
	return id, nil
}
