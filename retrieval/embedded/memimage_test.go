package embedded

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/rlm-dev/rlm/retrieval"
)

// In-memory backends start as a copy of one schema image; each still gets
// a vector store identity of its own, and the copy holds the whole schema
// of a database created the usual way.
func TestInMemoryBackendsStartFromTheSchemaImageWithTheirOwnIdentity(t *testing.T) {
	ctx := context.Background()
	seen := map[string]bool{}
	for range 3 {
		b := openMem(t)
		if b.uid == "" || seen[b.uid] {
			t.Fatalf("vector store identity %q repeated or empty: %v", b.uid, seen)
		}
		seen[b.uid] = true
	}
	// The same tables, indexes, triggers and version as a file database
	// whose schema was created by its statements.
	schemaOf := func(b *Backend) []string {
		rows, err := b.db.QueryContext(ctx, "SELECT type || ' ' || name || ' ' || coalesce(sql, '') FROM sqlite_schema ORDER BY type, name")
		if err != nil {
			t.Fatal(err)
		}
		defer rows.Close()
		var out []string
		for rows.Next() {
			var s string
			if err := rows.Scan(&s); err != nil {
				t.Fatal(err)
			}
			out = append(out, s)
		}
		var v int
		if err := b.db.QueryRowContext(ctx, "PRAGMA user_version").Scan(&v); err != nil {
			t.Fatal(err)
		}
		return append(out, "user_version "+string(rune('0'+v)))
	}
	file, err := Open(ctx, t.TempDir()+"/f.sqlite")
	if err != nil {
		t.Fatal(err)
	}
	defer file.Close()
	if diff := cmp.Diff(schemaOf(file), schemaOf(openMem(t))); diff != "" {
		t.Errorf("in-memory schema differs from a created one (-file +memory):\n%s", diff)
	}
}

// TestImageOpensAnIndependentCopyOfTheIndex: a Backend opened WithImage
// answers searches as the Backend the image came from, with a vector
// store identity of its own; writes to either copy reach neither the
// other nor the image. A file database has no image.
func TestImageOpensAnIndependentCopyOfTheIndex(t *testing.T) {
	ctx := context.Background()
	a := openMem(t)
	docs := []retrieval.Document{
		{ID: "alpha", Symbol: "alpha", Doc: "parses the request header"},
		{ID: "beta", Symbol: "beta", Doc: "writes the response body"},
	}
	if err := a.Upsert(ctx, docs); err != nil {
		t.Fatal(err)
	}
	img, err := a.Image(ctx)
	if err != nil {
		t.Fatal(err)
	}
	open := func() *Backend {
		b, err := Open(ctx, ":memory:", WithImage(img))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { b.Close() })
		return b
	}
	ids := func(b *Backend, q string) []string {
		res, err := b.Search(ctx, retrieval.Request{Strategy: retrieval.Lexical, Text: q, Limit: 10})
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, h := range res {
			out = append(out, h.Document.ID)
		}
		return out
	}
	b := open()
	if b.uid == a.uid {
		t.Errorf("the copy shares the vector store identity %q", a.uid)
	}
	for _, q := range []string{"request header", "response body", "header body"} {
		if diff := cmp.Diff(ids(a, q), ids(b, q)); diff != "" {
			t.Errorf("%q: the copy answers differently (-original +copy):\n%s", q, diff)
		}
	}
	if err := b.Upsert(ctx, []retrieval.Document{{ID: "gamma", Symbol: "gamma", Doc: "closes the idle connection"}}); err != nil {
		t.Fatal(err)
	}
	if err := a.Delete(ctx, []string{"alpha"}); err != nil {
		t.Fatal(err)
	}
	if got := ids(b, "idle connection"); !cmp.Equal(got, []string{"gamma"}) {
		t.Errorf("the copy's own write: %v", got)
	}
	c := open()
	if got := ids(c, "idle connection"); len(got) != 0 {
		t.Errorf("a write to one copy reached the image: %v", got)
	}
	if got := ids(c, "request header"); !cmp.Equal(got, []string{"alpha"}) {
		t.Errorf("a delete in the original reached the image: %v", got)
	}
	file, err := Open(ctx, t.TempDir()+"/f.sqlite")
	if err != nil {
		t.Fatal(err)
	}
	defer file.Close()
	if _, err := file.Image(ctx); err == nil {
		t.Error("a file database gave an image")
	}
}
