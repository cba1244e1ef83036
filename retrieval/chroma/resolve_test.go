package chroma

import (
	"context"
	"testing"

	"github.com/rlm-dev/rlm/internal/testfixture"
)

// TestACollectionDeletedBehindTheBackendIsResolvedAgain: when another
// client drops the collection a backend has cached the id of, the
// backend's next write finds the collection gone, forgets the id and
// resolves (re-creates) it once, instead of failing every later call.
func TestACollectionDeletedBehindTheBackendIsResolvedAgain(t *testing.T) {
	ctx := context.Background()
	prefix := testfixture.UniquePrefix("r")
	a := openLive(t, func(c *Config) { c.CollectionPrefix = prefix })
	other := openLive(t, func(c *Config) { c.CollectionPrefix = prefix })
	docs := sampleDocs()
	if err := a.Upsert(ctx, docs); err != nil {
		t.Fatal(err)
	}
	if err := other.DeleteCollection(ctx); err != nil {
		t.Fatal(err)
	}
	if err := a.Upsert(ctx, docs); err != nil {
		t.Fatalf("upsert after the collection was dropped by another client: %v", err)
	}
	n, err := a.Count(ctx)
	if err != nil || n != len(docs) {
		t.Fatalf("count %d, %v; want %d", n, err, len(docs))
	}
}
