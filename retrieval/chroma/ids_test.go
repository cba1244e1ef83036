package chroma

import (
	"context"
	"errors"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/rlm-dev/rlm/retrieval"
)

// serverRecords lists the record ids b's collection holds on the server,
// sorted, and every metadata key they carry.
func serverRecords(t *testing.T, b *Backend) (ids, keys []string) {
	t.Helper()
	err := b.withCollection(context.Background(), func(base string) error {
		var resp struct {
			IDs       []string         `json:"ids"`
			Metadatas []map[string]any `json:"metadatas"`
		}
		err := b.c.do(context.Background(), "get", http.MethodPost, base+"/get", map[string]any{"include": []string{"metadatas"}}, &resp)
		ids = resp.IDs
		for _, m := range resp.Metadatas {
			for k := range m {
				keys = append(keys, k)
			}
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(ids)
	return ids, keys
}

// TestIDsOverTheServersBoundAreStoredHashedAndReadBackAsGiven: under
// Chroma Cloud's quotas (ids of at most 128 bytes, keys of at most 36) a
// definition with a long id — a deep path and a generated name — is stored
// under its hashed id, and every method takes and returns the id the
// caller gave: Fetch, Search, Versions, Delete. A document whose own id is
// another's hashed id, and one whose id merely starts like a hashed id,
// are stored apart from it (no id can be taken for another's hash); a
// user metadata key over 36 bytes round-trips through the overflow
// collection. Every id the server holds fits its bound.
func TestIDsOverTheServersBoundAreStoredHashedAndReadBackAsGiven(t *testing.T) {
	b := openLive(t, func(c *Config) { c.Limits = CloudLimits() })
	ctx := context.Background()
	long := "go/cmd/compile/internal/ssa/_gen/" + strings.Repeat("rewriteAMD64splitload", 6) + ".go#" + strings.Repeat("rewriteValueAMD64_OpAMD64CMPQconstload", 3)
	docs := []retrieval.Document{
		{ID: long, Path: "go/cmd/compile/internal/ssa/rewriteAMD64.go", Symbol: "rewriteValueAMD64", Kind: "function", Language: "go",
			Text: "rewrite value amd64 compare load", ContentHash: "xxh64:1",
			Metadata: map[string]string{"a_user_key_that_is_longer_than_thirty_six_bytes": "kept"}},
		{ID: HashedID(long), Path: "a.go", Symbol: "Collide", Kind: "function", Language: "go", Text: "a hashed looking id", ContentHash: "xxh64:2"},
		{ID: HashedIDPrefix + "short", Path: "b.go", Symbol: "Prefixed", Kind: "function", Language: "go", Text: "prefixed id", ContentHash: "xxh64:3"},
		{ID: "c.go#Plain", Path: "c.go", Symbol: "Plain", Kind: "function", Language: "go", Text: "plain id", ContentHash: "xxh64:4"},
	}
	if err := b.Upsert(ctx, docs); err != nil {
		t.Fatal(err)
	}
	stored, keys := serverRecords(t, b)
	for _, k := range keys {
		if len(k) > 36 {
			t.Errorf("a record has metadata key %q, %d bytes, over Chroma Cloud's 36", k, len(k))
		}
	}
	if len(stored) != len(docs) {
		t.Fatalf("the server holds %d records, want %d: %q", len(stored), len(docs), stored)
	}
	for _, id := range stored {
		if len(id) > 128 {
			t.Errorf("record id %q is %d bytes, over Chroma Cloud's 128", id, len(id))
		}
	}
	if !slices.Contains(stored, "c.go#Plain") || slices.Contains(stored, long) {
		t.Errorf("stored ids %q: want the plain id as is and the long one hashed", stored)
	}
	wantIDs := []string{long, HashedID(long), HashedIDPrefix + "short", "c.go#Plain"}
	got, err := b.Fetch(ctx, wantIDs)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(docs, got, cmpopts.EquateEmpty()); diff != "" {
		t.Errorf("Fetch (-want +got):\n%s", diff)
	}
	hits, err := b.Search(ctx, retrieval.Request{Strategy: retrieval.Vector, Text: "rewrite value amd64 compare load", Limit: 10})
	if err != nil {
		t.Fatal(err)
	}
	if len(hits) == 0 || hits[0].Document.ID != long {
		t.Errorf("vector search: %v, want the long id first", ids(hits))
	}
	vs, err := b.Versions(ctx)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{long: "xxh64:1", HashedID(long): "xxh64:2", HashedIDPrefix + "short": "xxh64:3", "c.go#Plain": "xxh64:4"}
	if diff := cmp.Diff(want, vs); diff != "" {
		t.Errorf("Versions (-want +got):\n%s", diff)
	}
	if err := b.Delete(ctx, []string{long, HashedIDPrefix + "short"}); err != nil {
		t.Fatal(err)
	}
	left, err := b.Fetch(ctx, wantIDs)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{HashedID(long), "c.go#Plain"}, docIDsOf(left)); diff != "" {
		t.Errorf("after Delete (-want +got):\n%s", diff)
	}
	if n := overflowRecords(t, b); n != 0 {
		t.Errorf("%d overflow parts left after the long key's document was deleted", n)
	}
}

// TestAnIDBoundShorterThanAHashedIDIsRefused: a MaxIDBytes no hashed id
// fits would make every long id unstorable; Open says so.
func TestAnIDBoundShorterThanAHashedIDIsRefused(t *testing.T) {
	for _, n := range []int{-1, 1, HashedIDBytes - 1} {
		_, err := newBackend(Config{URL: "http://127.0.0.1:1", Model: "m", Dimensions: 8, Limits: Limits{MaxIDBytes: n}})
		if !errors.Is(err, retrieval.ErrBadRequest) || !strings.Contains(err.Error(), "MaxIDBytes") {
			t.Errorf("MaxIDBytes %d: %v, want ErrBadRequest naming MaxIDBytes", n, err)
		}
	}
	if _, err := newBackend(Config{URL: "http://127.0.0.1:1", Model: "m", Dimensions: 8, Limits: Limits{MaxIDBytes: HashedIDBytes}}); err != nil {
		t.Errorf("MaxIDBytes %d: %v", HashedIDBytes, err)
	}
}

func docIDsOf(ds []retrieval.Document) []string {
	out := make([]string, len(ds))
	for i, d := range ds {
		out[i] = d.ID
	}
	return out
}
