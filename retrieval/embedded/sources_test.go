package embedded

import (
	"context"
	"database/sql"
	"errors"
	"maps"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/rlm-dev/rlm/retrieval"
)

// byPath groups docs by path.
func byPath(docs []retrieval.Document) map[string][]retrieval.Document {
	out := map[string][]retrieval.Document{}
	for _, d := range docs {
		out[d.Path] = append(out[d.Path], d)
	}
	return out
}

// replaceAll replaces the sources of docs (and the paths in gone, with no
// documents) in one Writer, one ReplaceSources call per path, and returns
// the ids removed.
func replaceAll(t *testing.T, b *Backend, version string, docs []retrieval.Document, gone ...string) []string {
	t.Helper()
	ctx := context.Background()
	w, err := b.BeginWrite(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var removed []string
	groups := byPath(docs)
	for _, p := range gone {
		groups[p] = nil
	}
	for _, p := range slices.Sorted(maps.Keys(groups)) {
		v := version
		if groups[p] == nil {
			v = ""
		}
		r, err := w.ReplaceSources(ctx, map[string]string{p: v}, groups[p])
		if err != nil {
			t.Fatal(err)
		}
		removed = append(removed, r...)
	}
	if err := w.Commit(); err != nil {
		t.Fatal(err)
	}
	slices.Sort(removed)
	return removed
}

// allDocs is every stored document, by id.
func allDocs(t *testing.T, b *Backend) map[string]retrieval.Document {
	t.Helper()
	ctx := context.Background()
	vs, err := b.Versions(ctx, 0)
	if err != nil {
		t.Fatal(err)
	}
	docs, err := b.Fetch(ctx, slices.Sorted(maps.Keys(vs)))
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]retrieval.Document{}
	for _, d := range docs {
		out[d.ID] = d
	}
	return out
}

// TestReplaceSourcesLeavesExactlyTheGivenDocumentsOfEachSource: after a
// replacement in which documents are kept as they were, moved (lines,
// refs and provenance changed, text not), rewritten, added, removed, and
// a source forgotten, the backend holds exactly the documents and answers
// of one written from scratch with the final documents; it returns the
// ids that are gone, records the versions, and embeds only the documents
// whose text is new.
func TestReplaceSourcesLeavesExactlyTheGivenDocumentsOfEachSource(t *testing.T) {
	ctx := context.Background()
	emb := newWords()
	b := openVec(t, "", WithEmbedder(emb))
	first := corpus()
	if removed := replaceAll(t, b, "v1", first); len(removed) != 0 {
		t.Fatalf("the first replacement removed %v", removed)
	}
	next := corpus()
	changedText := 0
	for i := range next {
		d := &next[i]
		switch d.ID {
		case "srv-serve": // moved: lines and refs shift, the text stays
			d.StartLine, d.EndLine = d.StartLine+7, d.EndLine+7
			d.Refs = append(slices.Clone(d.Refs[1:]), retrieval.Ref{Name: "parseLine", Kind: "call", Line: 131})
			d.ContentHash, d.Changed = "xxh64:00000000000000aa:4100", 2
		case "hf-serve": // rewritten: the doc comment changed
			d.Doc = "ServeHTTP calls f(w, r) and nothing else."
			changedText++
		case "handler": // a new version of its file, same text and refs, lines shifted
			d.ContentHash, d.Metadata = "xxh64:00000000000000aa:4100", map[string]string{"package": "http", "generation": "2"}
			d.StartLine, d.EndLine = d.StartLine+7, d.EndLine+7
		}
	}
	next = slices.DeleteFunc(next, func(d retrieval.Document) bool { return d.ID == "read-req" || d.Path == "tools/serve.py" })
	next = append(next, retrieval.Document{ID: "new-fn", Path: "net/http/server.go", StartLine: 300, EndLine: 310,
		Symbol: "shutdown", Qualified: "Server.shutdown", Kind: "method", Language: "go", Doc: "shutdown stops the server.",
		Refs: []retrieval.Ref{{Name: "readRequest", Kind: "call", Line: 305}}})
	changedText++
	texts := emb.Texts.Load()
	removed := replaceAll(t, b, "v2", next, "tools/serve.py")
	if diff := cmp.Diff([]string{"py-serve", "read-req"}, removed); diff != "" {
		t.Errorf("removed ids (-want +got):\n%s", diff)
	}
	if n := emb.Texts.Load() - texts; n != int64(changedText) {
		t.Errorf("the replacement embedded %d texts, want %d (only the new texts)", n, changedText)
	}
	want := openVec(t, "", WithEmbedder(newWords()))
	if err := want.Upsert(ctx, next); err != nil {
		t.Fatal(err)
	}
	given := map[string]retrieval.Document{}
	for _, d := range next {
		given[d.ID] = d
	}
	if diff := cmp.Diff(given, allDocs(t, b)); diff != "" {
		t.Errorf("documents after the replacement (-given +stored):\n%s", diff)
	}
	if diff := cmp.Diff(allDocs(t, want), allDocs(t, b)); diff != "" {
		t.Errorf("documents after the replacement (-from scratch +replaced):\n%s", diff)
	}
	for _, req := range []retrieval.Request{
		{Strategy: retrieval.Lexical, Text: "serve http request handler"},
		{Strategy: retrieval.Graph, Relation: retrieval.Callers, Name: "parseLine"},
		{Strategy: retrieval.Graph, Relation: retrieval.Callers, Name: "readRequest"},
		{Strategy: retrieval.Graph, Relation: retrieval.Callees, Name: "Server.ServeHTTP"},
		{Strategy: retrieval.Structural, Filter: retrieval.Filter{ChangedSince: 1}},
		{Strategy: retrieval.Exact, Name: "readRequest"},
		{Strategy: retrieval.Vector, Text: "stops the server"},
	} {
		w, err := want.Search(ctx, req)
		if err != nil {
			t.Fatal(err)
		}
		g, err := b.Search(ctx, req)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(briefs(w), briefs(g)); diff != "" {
			t.Errorf("%s %s %q%s (-from scratch +replaced):\n%s", req.Strategy, req.Relation, req.Text, req.Name, diff)
		}
	}
	vs, err := b.SourceVersions(ctx)
	if err != nil {
		t.Fatal(err)
	}
	wantVersions := map[string]string{}
	for _, d := range next {
		wantVersions[d.Path] = "v2"
	}
	if diff := cmp.Diff(wantVersions, vs); diff != "" {
		t.Errorf("source versions (-want +got):\n%s", diff)
	}
	var orphans int
	if err := b.db.QueryRowContext(ctx, `SELECT (SELECT COUNT(*) FROM refs) - (SELECT COALESCE(SUM(refs_n), 0) FROM docs)
		+ (SELECT COUNT(*) FROM vectors) - (SELECT COUNT(*) FROM docs)`).Scan(&orphans); err != nil || orphans != 0 {
		t.Errorf("refs and vectors without their document: %d, %v", orphans, err)
	}
}

// TestAWriterIsAllOrNothing: readers (of a file database) see nothing of a Writer's
// replacements until Commit; Rollback, or a document outside the sources
// replaced, leaves the backend as it was, and the Writer is then done.
func TestAWriterIsAllOrNothing(t *testing.T) {
	ctx := context.Background()
	b := openVec(t, filepath.Join(t.TempDir(), "rlm.db")) // a file: readers do not wait for the writer
	if err := b.Upsert(ctx, corpus()); err != nil {
		t.Fatal(err)
	}
	before := allDocs(t, b)
	// Moved, with a content hash and a ref name the backend has not seen:
	// dictionary entries the rolled-back writes add must not outlive them.
	moved := corpus()[0]
	moved.StartLine++
	moved.ContentHash = "xxh64:00000000000000ff:4242"
	moved.Refs = append(slices.Clone(moved.Refs), retrieval.Ref{Name: "brandNew", Kind: "call", Line: 129})

	w, err := b.BeginWrite(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.ReplaceSources(ctx, map[string]string{moved.Path: "v"}, []retrieval.Document{moved}); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(before, allDocs(t, b)); diff != "" {
		t.Errorf("a reader sees an uncommitted replacement (-before +during):\n%s", diff)
	}
	if err := w.Rollback(); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(before, allDocs(t, b)); diff != "" {
		t.Errorf("after Rollback (-before +after):\n%s", diff)
	}
	if _, err := w.ReplaceSources(ctx, map[string]string{moved.Path: "v"}, nil); !errors.Is(err, ErrWriterDone) {
		t.Errorf("ReplaceSources after Rollback: %v, want ErrWriterDone", err)
	}

	w, err = b.BeginWrite(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.ReplaceSources(ctx, map[string]string{moved.Path: "v"}, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := w.ReplaceSources(ctx, map[string]string{"other.go": "v"}, []retrieval.Document{moved}); !errors.Is(err, retrieval.ErrBadRequest) {
		t.Errorf("a document outside the sources replaced: %v, want ErrBadRequest", err)
	}
	if err := w.Commit(); !errors.Is(err, ErrWriterDone) {
		t.Errorf("Commit after a failed call: %v, want ErrWriterDone", err)
	}
	if diff := cmp.Diff(before, allDocs(t, b)); diff != "" {
		t.Errorf("after a failed call (-before +after):\n%s", diff)
	}

	w, err = b.BeginWrite(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.ReplaceSources(ctx, map[string]string{moved.Path: "v"}, []retrieval.Document{moved}); err != nil {
		t.Fatal(err)
	}
	if err := w.Commit(); err != nil {
		t.Fatal(err)
	}
	got, err := b.Fetch(ctx, []string{moved.ID})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]retrieval.Document{moved}, got); diff != "" {
		t.Errorf("after Commit (-want +got):\n%s", diff)
	}
	if n := count(t, b); n != len(before)-len(byPath(corpus())[moved.Path])+1 {
		t.Errorf("after Commit: %d documents, want the other paths' and the one replaced", n)
	}
}

// TestAReplacedDocumentsOldRefsNeverCount: replacing a document — the one
// written last (its row id is then given to the new version) or an older
// one, by Upsert or by ReplaceSources — leaves no trace of its old refs:
// graph search finds it by its new refs only.
func TestAReplacedDocumentsOldRefsNeverCount(t *testing.T) {
	ctx := context.Background()
	for _, c := range []struct {
		name    string
		id      string
		replace func(b *Backend, d retrieval.Document) error
	}{
		{"the newest, by Upsert", "py-serve", func(b *Backend, d retrieval.Document) error { return b.Upsert(ctx, []retrieval.Document{d}) }},
		{"an older one, by Upsert", "srv-serve", func(b *Backend, d retrieval.Document) error { return b.Upsert(ctx, []retrieval.Document{d}) }},
		{"the newest, by ReplaceSources", "py-serve", func(b *Backend, d retrieval.Document) error {
			w, err := b.BeginWrite(ctx)
			if err != nil {
				return err
			}
			d.Doc += " Rewritten." // new text: removed and inserted
			if _, err := w.ReplaceSources(ctx, map[string]string{d.Path: "v2"}, []retrieval.Document{d}); err != nil {
				return err
			}
			return w.Commit()
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			b := openMem(t)
			docs := corpus()
			for i := range docs {
				if docs[i].ID == c.id {
					docs[i].Refs = []retrieval.Ref{{Name: "oldTarget", Kind: "call", Line: 3}}
				}
			}
			if err := b.Upsert(ctx, docs); err != nil {
				t.Fatal(err)
			}
			got, err := b.Fetch(ctx, []string{c.id})
			if err != nil || len(got) != 1 {
				t.Fatalf("Fetch %s: %v, %v", c.id, got, err)
			}
			d := got[0]
			d.Refs = []retrieval.Ref{{Name: "newTarget", Kind: "call", Line: 4}}
			if err := c.replace(b, d); err != nil {
				t.Fatal(err)
			}
			for name, want := range map[string][]string{"oldTarget": nil, "newTarget": {c.id}} {
				hits, err := b.Search(ctx, retrieval.Request{Strategy: retrieval.Graph, Relation: retrieval.Callers, Name: name})
				if err != nil {
					t.Fatal(err)
				}
				if diff := cmp.Diff(want, ids(hits)); diff != "" {
					t.Errorf("callers of %s after the replacement (-want +got):\n%s", name, diff)
				}
			}
		})
	}
}

// TestUnsyncedWritesTurnOffSyncingOnlyWhenAsked: a file database opened
// WithUnsyncedWrites runs with PRAGMA synchronous=OFF on every connection;
// one opened without it keeps NORMAL.
func TestUnsyncedWritesTurnOffSyncingOnlyWhenAsked(t *testing.T) {
	ctx := context.Background()
	for _, c := range []struct {
		opts []Option
		want int // PRAGMA synchronous: 0 OFF, 1 NORMAL
	}{{nil, 1}, {[]Option{WithUnsyncedWrites()}, 0}} {
		b := openVec(t, filepath.Join(t.TempDir(), "rlm.db"), c.opts...)
		conns := make([]*sql.Conn, 3) // several connections of the pool
		for i := range conns {
			conn, err := b.db.Conn(ctx)
			if err != nil {
				t.Fatal(err)
			}
			defer conn.Close()
			conns[i] = conn
			var got int
			if err := conn.QueryRowContext(ctx, "PRAGMA synchronous").Scan(&got); err != nil || got != c.want {
				t.Errorf("options %d: connection %d has synchronous %d, %v; want %d", len(c.opts), i, got, err, c.want)
			}
		}
	}
}

// TestSourceVersionsAndVersionsGiveBackExactlyTheStringsStored: the
// versions recorded for sources and the documents' content hashes come
// back byte for byte whatever they hold — the separators and digits of
// the packed form (SQLite returns the rows as one string), multi-byte
// and invalid UTF-8, a newline, a version at the size bound — and one
// pair per source or document.
func TestSourceVersionsAndVersionsGiveBackExactlyTheStringsStored(t *testing.T) {
	ctx := context.Background()
	b := openVec(t, "")
	versions := map[string]string{
		"a,b.go":          "1,2,3",
		"12,3":            "4,",
		"été/ünï.go":      "é,ü",
		"new\nline.go":    "\n",
		"bad\xff\xfe.go":  "\xff,\xfe",
		"long/version.go": strings.Repeat("9,", MaxSourceVersionBytes/2),
		"x":               "y",
	}
	hashes := map[string]string{}
	w, err := b.BeginWrite(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for p, v := range versions {
		id := "doc," + p
		hashes[id] = "xxh64:" + v
		doc := retrieval.Document{ID: id, Path: p, Symbol: "f", Kind: "function", ContentHash: hashes[id]}
		if _, err := w.ReplaceSources(ctx, map[string]string{p: v}, []retrieval.Document{doc}); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Commit(); err != nil {
		t.Fatal(err)
	}
	got, err := b.SourceVersions(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(versions, got); diff != "" {
		t.Errorf("SourceVersions (-stored +got):\n%s", diff)
	}
	gotHashes, err := b.Versions(ctx, 0)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(hashes, gotHashes); diff != "" {
		t.Errorf("Versions (-stored +got):\n%s", diff)
	}
	empty := openVec(t, "")
	if got, err := empty.SourceVersions(ctx); err != nil || len(got) != 0 {
		t.Errorf("SourceVersions of an empty backend: %v, %v", got, err)
	}
}
