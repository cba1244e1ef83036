package embedded

import (
	"context"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/rlm-dev/rlm/retrieval"
)

// TestCaseFoldsBeyondASCIIAreStoredAndFound: a case-insensitive exact
// search finds a name by its Unicode lower case (strings.ToLower) whether
// or not SQLite's ASCII-only lower() gives it; only the folds lower()
// cannot give take room.
func TestCaseFoldsBeyondASCIIAreStoredAndFound(t *testing.T) {
	ctx := context.Background()
	b := openMem(t)
	names := map[string]string{ // id -> symbol
		"ascii":   "FooBar",
		"german":  "GrößeÄndern",
		"greek":   "ΩmegaRun",
		"invalid": "Bad\xffName",
	}
	var docs []retrieval.Document
	for id, name := range names {
		docs = append(docs, retrieval.Document{ID: id, Path: "a.go", Symbol: name, Qualified: "T." + name, Kind: "function"})
	}
	if err := b.Upsert(ctx, docs); err != nil {
		t.Fatal(err)
	}
	for id, name := range names {
		for _, q := range []string{name, "t." + name} {
			hits, err := b.Search(ctx, retrieval.Request{Strategy: retrieval.Exact, Name: strings.ToLower(q), CaseInsensitive: true})
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff([]string{id}, ids(hits)); diff != "" {
				t.Errorf("case-insensitive %q (-want +got):\n%s", strings.ToLower(q), diff)
			}
		}
	}
	var stored int
	if err := b.db.QueryRowContext(ctx, "SELECT COUNT(*) FROM docs WHERE symbol_fold IS NOT NULL").Scan(&stored); err != nil || stored != 3 {
		t.Errorf("%d symbol folds stored, %v; want 3 (all but the ASCII name's)", stored, err)
	}
}
