package embedded

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/rlm-dev/rlm/retrieval"
)

func TestUpsertFetchDeleteRoundTrip(t *testing.T) {
	ctx := context.Background()
	b := seeded(t)
	docs := corpus()
	want := map[string]retrieval.Document{}
	for _, d := range docs {
		want[d.ID] = d
	}
	if got := count(t, b); got != len(docs) {
		t.Fatalf("Count = %d, want %d", got, len(docs))
	}

	got, err := b.Fetch(ctx, []string{"read-req", "missing", "srv-serve", "handler"})
	if err != nil {
		t.Fatal(err)
	}
	wantDocs := []retrieval.Document{want["read-req"], want["srv-serve"], want["handler"]}
	if diff := cmp.Diff(wantDocs, got, cmpopts.EquateEmpty()); diff != "" {
		t.Errorf("Fetch (-want +got):\n%s", diff)
	}

	// Replace srv-serve: new name, new refs; the old refs and terms go.
	repl := want["srv-serve"]
	repl.Symbol, repl.Qualified = "Dispatch", "Server.Dispatch"
	repl.Refs = []retrieval.Ref{{Name: "parseLine", Kind: "call", Line: 111}}
	repl.Metadata = nil
	if err := b.Upsert(ctx, []retrieval.Document{repl}); err != nil {
		t.Fatal(err)
	}
	if got := count(t, b); got != len(docs) {
		t.Errorf("Count after replace = %d, want %d", got, len(docs))
	}
	got, err = b.Fetch(ctx, []string{"srv-serve"})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]retrieval.Document{repl}, got, cmpopts.EquateEmpty()); diff != "" {
		t.Errorf("Fetch after replace (-want +got):\n%s", diff)
	}
	hits, err := b.Search(ctx, retrieval.Request{Strategy: retrieval.Graph, Relation: retrieval.Callers, Name: "readRequest"})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"test-serve"}, ids(hits)); diff != "" {
		t.Errorf("callers of readRequest after replace (-want +got):\n%s", diff)
	}
	hits, err = b.Search(ctx, retrieval.Request{Strategy: retrieval.Lexical, Text: "dispatch"})
	if err != nil {
		t.Fatal(err)
	}
	if len(hits) == 0 || hits[0].Document.ID != "srv-serve" {
		t.Errorf("lexical dispatch: got %v, want srv-serve first", ids(hits))
	}

	// Delete, including an unknown id.
	if err := b.Delete(ctx, []string{"srv-serve", "read-req", "nope"}); err != nil {
		t.Fatal(err)
	}
	if got := count(t, b); got != len(docs)-2 {
		t.Errorf("Count after delete = %d, want %d", got, len(docs)-2)
	}
	got, err = b.Fetch(ctx, []string{"srv-serve", "read-req"})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 0 {
		t.Errorf("Fetch after delete = %v, want none", got)
	}
	for _, req := range []retrieval.Request{
		{Strategy: retrieval.Lexical, Text: "dispatch"},
		{Strategy: retrieval.Graph, Relation: retrieval.Callers, Name: "parseLine"},
		{Strategy: retrieval.Exact, Name: "readRequest"},
	} {
		hits, err := b.Search(ctx, req)
		if err != nil {
			t.Fatal(err)
		}
		if len(hits) != 0 {
			t.Errorf("%+v after delete: got %v, want none", req, ids(hits))
		}
	}
	var n int
	if err := b.db.QueryRow("SELECT (SELECT COUNT(*) FROM refs) + (SELECT COUNT(*) FROM fts) - (SELECT COUNT(*) FROM docs)").Scan(&n); err != nil {
		t.Fatal(err)
	}
	// Remaining refs: test-serve's one; fts rows equal docs rows.
	if n != 1 {
		t.Errorf("refs + fts - docs = %d, want 1 (orphaned rows?)", n)
	}
}

func TestFetchDuplicatesAndBounds(t *testing.T) {
	ctx := context.Background()
	b := seeded(t)
	got, err := b.Fetch(ctx, []string{"handler", "handler"})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 {
		t.Errorf("Fetch of a repeated id gave %d docs, want 2", len(got))
	}
	got, err = b.Fetch(ctx, nil)
	if err != nil || len(got) != 0 {
		t.Errorf("Fetch(nil) = %v, %v; want nothing", got, err)
	}
	_, err = b.Fetch(ctx, make([]string, retrieval.MaxLimit+1))
	if !errors.Is(err, retrieval.ErrTooLarge) {
		t.Errorf("Fetch of %d ids: err = %v, want ErrTooLarge", retrieval.MaxLimit+1, err)
	}
}

func TestUpsertRejectsWholeBatch(t *testing.T) {
	ctx := context.Background()
	b := seeded(t)
	before := count(t, b)
	changed := corpus()[0]
	changed.Symbol = "Changed"
	tests := []struct {
		name    string
		batch   []retrieval.Document
		want    error
		wantID  string
		wantMsg string
	}{
		{
			name: "oversize text",
			batch: []retrieval.Document{
				{ID: "new-1", Symbol: "NewOne"},
				changed,
				{ID: "big", Symbol: "Big", Text: strings.Repeat("x", MaxDocumentBytes+1)},
				{ID: "new-2", Symbol: "NewTwo"},
			},
			want: retrieval.ErrTooLarge, wantID: "big", wantMsg: `"big"`,
		},
		{
			name: "oversize spread over fields",
			batch: []retrieval.Document{
				{ID: "new-1", Symbol: "NewOne"},
				{ID: "big2", Doc: strings.Repeat("d", MaxDocumentBytes/2), Signature: strings.Repeat("s", MaxDocumentBytes/2), Refs: []retrieval.Ref{{Name: "x", Kind: "call"}}},
			},
			want: retrieval.ErrTooLarge, wantID: "big2",
		},
		{
			name:  "empty id",
			batch: []retrieval.Document{{ID: "new-1"}, {Symbol: "NoID"}},
			want:  retrieval.ErrBadRequest, wantID: "",
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := b.Upsert(ctx, tc.batch)
			if !errors.Is(err, tc.want) {
				t.Fatalf("err = %v, want %v", err, tc.want)
			}
			var de *retrieval.DocumentError
			if !errors.As(err, &de) || de.ID != tc.wantID {
				t.Errorf("err = %v, want a DocumentError for %q", err, tc.wantID)
			}
			if !strings.Contains(err.Error(), tc.wantMsg) {
				t.Errorf("err %q does not name %s", err, tc.wantMsg)
			}
			if after := count(t, b); after != before {
				t.Errorf("documents %d → %d: batch half-written", before, after)
			}
			got, err := b.Fetch(ctx, []string{"new-1", changed.ID})
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != 1 || got[0].Symbol != "ServeHTTP" {
				t.Errorf("after rejected batch Fetch = %v, want only the unchanged %s", got, changed.ID)
			}
		})
	}
	// Exactly at the limit is accepted.
	ok := retrieval.Document{ID: "ok"}
	ok.Text = strings.Repeat("x", MaxDocumentBytes-len(ok.ID))
	if err := b.Upsert(ctx, []retrieval.Document{ok}); err != nil {
		t.Errorf("document of exactly MaxDocumentBytes: %v", err)
	}
}

func TestUpsertBatchLastWins(t *testing.T) {
	ctx := context.Background()
	b := openMem(t)
	err := b.Upsert(ctx, []retrieval.Document{
		{ID: "d", Symbol: "First", Refs: []retrieval.Ref{{Name: "a", Kind: "call", Line: 1}}},
		{ID: "d", Symbol: "Second", Refs: []retrieval.Ref{{Name: "b", Kind: "call", Line: 2}}},
	})
	if err != nil {
		t.Fatal(err)
	}
	got, err := b.Fetch(ctx, []string{"d"})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 || got[0].Symbol != "Second" {
		t.Fatalf("Fetch = %+v, want Second", got)
	}
	hits, err := b.Search(ctx, retrieval.Request{Strategy: retrieval.Graph, Relation: retrieval.References, Name: "a"})
	if err != nil || len(hits) != 0 {
		t.Errorf("refs of the replaced version remain: %v, %v", ids(hits), err)
	}
}

func TestCanceledContext(t *testing.T) {
	b := seeded(t)
	before := count(t, b)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := b.Search(ctx, retrieval.Request{Strategy: retrieval.Lexical, Text: "serve"}); !errors.Is(err, context.Canceled) {
		t.Errorf("Search: err = %v, want context.Canceled", err)
	}
	if _, err := b.Fetch(ctx, []string{"handler"}); !errors.Is(err, context.Canceled) {
		t.Errorf("Fetch: err = %v, want context.Canceled", err)
	}
	if err := b.Upsert(ctx, []retrieval.Document{{ID: "late"}}); !errors.Is(err, context.Canceled) {
		t.Errorf("Upsert: err = %v, want context.Canceled", err)
	}
	if err := b.Delete(ctx, []string{"handler"}); !errors.Is(err, context.Canceled) {
		t.Errorf("Delete: err = %v, want context.Canceled", err)
	}
	if after := count(t, b); after != before {
		t.Errorf("documents %d → %d after canceled writes", before, after)
	}
}

func TestFileBackedPersists(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "dir with space & ?#%", "rlm.db")
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	b, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	var mode string
	if err := b.db.QueryRowContext(ctx, "PRAGMA journal_mode").Scan(&mode); err != nil {
		t.Fatal(err)
	}
	if mode != "wal" {
		t.Errorf("journal_mode = %q, want wal", mode)
	}
	if err := b.Upsert(ctx, corpus()); err != nil {
		t.Fatal(err)
	}
	if err := b.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(path); err != nil {
		t.Fatalf("database file not at the path given: %v", err)
	}

	b, err = Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	if got := count(t, b); got != len(corpus()) {
		t.Errorf("Count after reopen = %d, want %d", got, len(corpus()))
	}
	hits, err := b.Search(ctx, retrieval.Request{Strategy: retrieval.Lexical, Text: "read request"})
	if err != nil {
		t.Fatal(err)
	}
	if len(hits) == 0 || !contains([]string{"read-req", "Read-Req"}, hits[0].Document.ID) {
		t.Errorf("lexical after reopen: %v", ids(hits))
	}
	hits, err = b.Search(ctx, retrieval.Request{Strategy: retrieval.Graph, Relation: retrieval.Callers, Name: "readRequest"})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"srv-serve", "test-serve"}, ids(hits)); diff != "" {
		t.Errorf("callers after reopen (-want +got):\n%s", diff)
	}
}

func TestOpenRefusesOtherSchemaVersion(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "rlm.db")
	b, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := b.db.ExecContext(ctx, "PRAGMA user_version = 99"); err != nil {
		t.Fatal(err)
	}
	b.Close()
	if b, err := Open(ctx, path); err == nil {
		b.Close()
		t.Fatal("Open accepted schema version 99")
	}
}

// TestUpgradeFromSchemaVersion2AddsTheProvenanceColumns: a version 2
// search index (docs without changed and parser) opens, gains the columns
// with their defaults, and then keeps and filters on them.
func TestUpgradeFromSchemaVersion2AddsTheProvenanceColumns(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "rlm.db")
	db := v3Database(t, path, nil, false)
	for _, q := range []string{"ALTER TABLE docs DROP COLUMN changed", "ALTER TABLE docs DROP COLUMN parser", "PRAGMA user_version = 2"} {
		if _, err := db.ExecContext(ctx, q); err != nil {
			t.Fatal(err)
		}
	}
	db.Close()
	b, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	docs := []retrieval.Document{
		{ID: "old", Path: "a.go", Symbol: "Old", Kind: "function", Changed: 1, Parser: "tree-sitter/0.25.0"},
		{ID: "new", Path: "b.pl", Symbol: "New", Kind: "function", Changed: 4, Parser: "ichiban-prolog/1.2.2"},
	}
	if err := b.Upsert(ctx, docs); err != nil {
		t.Fatal(err)
	}
	got, err := b.Fetch(ctx, []string{"old", "new"})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(docs, got); diff != "" {
		t.Errorf("Fetch after upgrade (-want +got):\n%s", diff)
	}
	for _, f := range []retrieval.Filter{{ChangedSince: 3}, {Parsers: []string{"ichiban-prolog"}}} {
		hits, err := b.Search(ctx, retrieval.Request{Strategy: retrieval.Structural, Filter: f})
		if err != nil || len(hits) != 1 || hits[0].Document.ID != "new" {
			t.Errorf("filter %+v after upgrade: %v, %v", f, ids(hits), err)
		}
	}
}

func TestMemoryDatabasesAreSeparate(t *testing.T) {
	ctx := context.Background()
	a := seeded(t)
	b := openMem(t)
	if got := count(t, b); got != 0 {
		t.Errorf("second in-memory backend sees %d documents of the first", got)
	}
	if got := count(t, a); got != len(corpus()) {
		t.Errorf("first backend has %d documents", got)
	}
	c, err := Open(ctx, ":memory:")
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if got := count(t, c); got != 0 {
		t.Errorf(":memory: backend sees %d documents", got)
	}
}

func TestConcurrentUse(t *testing.T) {
	for _, kind := range []string{"memory", "file"} {
		t.Run(kind, func(t *testing.T) {
			ctx := context.Background()
			path := ""
			if kind == "file" {
				path = filepath.Join(t.TempDir(), "rlm.db")
			}
			b, err := Open(ctx, path)
			if err != nil {
				t.Fatal(err)
			}
			defer b.Close()
			if err := b.Upsert(ctx, corpus()); err != nil {
				t.Fatal(err)
			}
			var wg sync.WaitGroup
			errs := make(chan error, 64)
			for w := 0; w < 3; w++ {
				wg.Add(1)
				go func(w int) {
					defer wg.Done()
					for i := 0; i < 20; i++ {
						id := fmt.Sprintf("w%d-%d", w, i)
						doc := retrieval.Document{ID: id, Symbol: "ServeHTTP", Kind: "method", Path: "x.go",
							Refs: []retrieval.Ref{{Name: "readRequest", Kind: "call", Line: i + 1}}}
						if err := b.Upsert(ctx, []retrieval.Document{doc}); err != nil {
							errs <- err
							return
						}
						if i%2 == 0 {
							if err := b.Delete(ctx, []string{id}); err != nil {
								errs <- err
								return
							}
						}
					}
				}(w)
			}
			for r := 0; r < 4; r++ {
				wg.Add(1)
				go func() {
					defer wg.Done()
					for i := 0; i < 30; i++ {
						for _, req := range []retrieval.Request{
							{Strategy: retrieval.Lexical, Text: "serve http"},
							{Strategy: retrieval.Exact, Name: "ServeHTTP", Limit: 100},
							{Strategy: retrieval.Graph, Relation: retrieval.Callers, Name: "readRequest", Limit: 100},
						} {
							if _, err := b.Search(ctx, req); err != nil {
								errs <- err
								return
							}
						}
						if _, err := b.Fetch(ctx, []string{"handler", "w0-1"}); err != nil {
							errs <- err
							return
						}
					}
				}()
			}
			wg.Wait()
			close(errs)
			for err := range errs {
				t.Error(err)
			}
			if got, want := count(t, b), len(corpus())+3*10; got != want {
				t.Errorf("Count = %d, want %d", got, want)
			}
		})
	}
}
