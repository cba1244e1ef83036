package embedded

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/rlm-dev/rlm/retrieval"
)

// TestNameWordsAreSearchedAsTheNameAndKept: a document's NameWords are
// matched by lexical search as its name's own parts are (a compound name
// found by the words it is written as), are stored and read back as
// given, and a replacement that changes only them rewrites what the index
// matches; a database of schema version 5 (no name_words column) opens
// and gains the column.
func TestNameWordsAreSearchedAsTheNameAndKept(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "rlm.db")
	b, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{"ALTER TABLE docs DROP COLUMN name_words", "PRAGMA user_version = 5"} {
		if _, err := b.db.ExecContext(ctx, q); err != nil {
			t.Fatal(err)
		}
	}
	b.Close()
	if b, err = Open(ctx, path); err != nil {
		t.Fatalf("a version 5 database: %v", err)
	}
	defer b.Close()
	doc := func(words ...string) retrieval.Document {
		return retrieval.Document{ID: "scanner.py#getaddrlist", Path: "scanner.py", Symbol: "getaddrlist", Kind: "function", NameWords: words}
	}
	other := retrieval.Document{ID: "other.py#fold", Path: "other.py", Symbol: "fold", Kind: "function"}
	finds := func(text string) []string {
		hits, err := b.Search(ctx, retrieval.Request{Strategy: retrieval.Lexical, Text: text, Limit: 10})
		if err != nil {
			t.Fatal(err)
		}
		return ids(hits)
	}
	w, err := b.BeginWrite(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.ReplaceSources(ctx, map[string]string{"scanner.py": "1", "other.py": "1"}, []retrieval.Document{doc("get", "addr list"), other}); err != nil {
		t.Fatal(err)
	}
	if err := w.Commit(); err != nil {
		t.Fatal(err)
	}
	if got := finds("addr"); !cmp.Equal(got, []string{"scanner.py#getaddrlist"}) {
		t.Errorf("addr finds %q, want getaddrlist", got)
	}
	got, err := b.Fetch(ctx, []string{"scanner.py#getaddrlist", "other.py#fold"})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]retrieval.Document{doc("get", "addr list"), other}, got); diff != "" {
		t.Errorf("Fetch (-stored +read):\n%s", diff)
	}
	if w, err = b.BeginWrite(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := w.ReplaceSources(ctx, map[string]string{"scanner.py": "2"}, []retrieval.Document{doc("parse")}); err != nil {
		t.Fatal(err)
	}
	if err := w.Commit(); err != nil {
		t.Fatal(err)
	}
	if got := finds("addr"); len(got) != 0 {
		t.Errorf("after the name words changed, addr finds %q", got)
	}
	if got := finds("parse"); !cmp.Equal(got, []string{"scanner.py#getaddrlist"}) {
		t.Errorf("after the name words changed, parse finds %q, want getaddrlist", got)
	}
}
