package embedded

import (
	"context"
	"fmt"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/rlm-dev/rlm/retrieval"
)

// stmtRequests are searches of every strategy the statement cache serves.
func stmtRequests() []retrieval.Request {
	return []retrieval.Request{
		{Strategy: retrieval.Exact, Name: "ServeHTTP"},
		{Strategy: retrieval.Exact, Name: "servehttp", CaseInsensitive: true},
		{Strategy: retrieval.Lexical, Text: "reads and parses an incoming request"},
		{Strategy: retrieval.Graph, Name: "readRequest", Relation: retrieval.Callers},
		{Strategy: retrieval.Graph, Name: "Handler", Relation: retrieval.References},
		{Strategy: retrieval.Graph, Name: "Server.ServeHTTP", Relation: retrieval.Callees},
		{Strategy: retrieval.Structural, Name: "Serve"},
		{Strategy: retrieval.Lexical, Text: "request", Filter: retrieval.Filter{Languages: []string{"go"}, ExcludeTests: true}},
	}
}

func TestRepeatedSearchesRunPreparedStatementsAndAnswerTheSame(t *testing.T) {
	for _, where := range []string{"memory", "file"} {
		t.Run(where, func(t *testing.T) {
			ctx := context.Background()
			var b *Backend
			if where == "memory" {
				b = seeded(t)
			} else {
				var err error
				if b, err = Open(ctx, filepath.Join(t.TempDir(), "ix.sqlite")); err != nil {
					t.Fatal(err)
				}
				t.Cleanup(func() { b.Close() })
				if err := b.Upsert(ctx, corpus()); err != nil {
					t.Fatal(err)
				}
			}
			first := map[int][]retrieval.Hit{}
			for i, req := range stmtRequests() {
				hits, err := b.Search(ctx, req)
				if err != nil {
					t.Fatalf("%+v: %v", req, err)
				}
				if len(hits) == 0 {
					t.Fatalf("%+v: no hits; the request should find something", req)
				}
				first[i] = hits
			}
			prepared := b.stmts.len()
			if prepared == 0 {
				t.Fatal("no statement was prepared after the first searches")
			}
			for i, req := range stmtRequests() {
				hits, err := b.Search(ctx, req)
				if err != nil {
					t.Fatalf("%+v again: %v", req, err)
				}
				if diff := cmp.Diff(first[i], hits); diff != "" {
					t.Errorf("%+v: a prepared run answers differently (-first +again):\n%s", req, diff)
				}
			}
			if got := b.stmts.len(); got != prepared {
				t.Errorf("repeating the same searches prepared %d more statements", got-prepared)
			}
			if got := b.stmts.reused.Load(); got == 0 {
				t.Error("the repeated searches ran no prepared statement")
			}
		})
	}
}

// A search never prepares inside its transaction: an in-memory database has
// one connection, held by the transaction, so preparing there would wait
// forever. Many goroutines searching texts never seen before must finish.
func TestSearchesOnOneConnectionNeverWaitForAStatement(t *testing.T) {
	b := seeded(t)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	var wg sync.WaitGroup
	errs := make(chan error, 64)
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 10 {
				req := retrieval.Request{Strategy: retrieval.Lexical, Text: "request",
					Filter: retrieval.Filter{PathPrefixes: []string{fmt.Sprintf("net/%d/%d", g, i), "net/http"}}}
				if _, err := b.Search(ctx, req); err != nil {
					errs <- err
					return
				}
				if _, err := b.Search(ctx, stmtRequests()[i%len(stmtRequests())]); err != nil {
					errs <- err
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatalf("a search failed (a deadline here is a statement waiting for the held connection): %v", err)
	}
}

func TestTheStatementCacheIsBounded(t *testing.T) {
	b := seeded(t)
	ctx := context.Background()
	for i := range maxCachedStmts + 40 {
		// Lists of other lengths are other texts: i is the pair of lengths.
		prefixes := make([]string, 1+i%200)
		for j := range prefixes {
			prefixes[j] = fmt.Sprintf("p%d/", j)
		}
		prefixes = append(prefixes, "net/")
		kinds := make([]string, 1+i/200)
		for j := range kinds {
			kinds[j] = fmt.Sprint("k", j)
		}
		req := retrieval.Request{Strategy: retrieval.Structural, Name: fmt.Sprint(i),
			Filter: retrieval.Filter{PathPrefixes: prefixes, Kinds: kinds}}
		if _, err := b.Search(ctx, req); err != nil {
			t.Fatal(err)
		}
	}
	if got := b.stmts.len(); got > maxCachedStmts || got == 0 {
		t.Errorf("%d statements prepared, want 1..%d", got, maxCachedStmts)
	}
}

func TestClosingTheBackendClosesItsStatementsAndLaterSearchesFail(t *testing.T) {
	b := openMem(t)
	ctx := context.Background()
	if err := b.Upsert(ctx, corpus()); err != nil {
		t.Fatal(err)
	}
	for range 2 {
		if _, err := b.Search(ctx, stmtRequests()[0]); err != nil {
			t.Fatal(err)
		}
	}
	if b.stmts.len() == 0 {
		t.Fatal("nothing prepared")
	}
	if err := b.Close(); err != nil {
		t.Fatal(err)
	}
	if got := b.stmts.len(); got != 0 {
		t.Errorf("%d statements still open after Close", got)
	}
	if _, err := b.Search(ctx, stmtRequests()[0]); err == nil {
		t.Error("a search after Close succeeded")
	}
}
