package embedded

import (
	"context"
	"fmt"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/rlm-dev/rlm/retrieval"
)

// answersOf is b's answers to requests that use every search index.
func answersOf(t *testing.T, b *Backend) map[string][]brief {
	t.Helper()
	out := map[string][]brief{}
	for _, req := range []retrieval.Request{
		{Strategy: retrieval.Exact, Name: "ServeHTTP"},
		{Strategy: retrieval.Exact, Name: "Server.ServeHTTP"},
		{Strategy: retrieval.Exact, Name: "servehttp", CaseInsensitive: true},
		{Strategy: retrieval.Exact, Name: "server.servehttp", CaseInsensitive: true},
		{Strategy: retrieval.Lexical, Text: "serve http request handler"},
		{Strategy: retrieval.Graph, Relation: retrieval.Callers, Name: "readRequest"},
		{Strategy: retrieval.Graph, Relation: retrieval.Callees, Name: "Server.ServeHTTP"},
		{Strategy: retrieval.Structural, Filter: retrieval.Filter{PathPrefixes: []string{"net/http"}}},
	} {
		hits, err := b.Search(context.Background(), req)
		if err != nil {
			t.Fatal(err)
		}
		out[fmt.Sprintf("%s %s %q %q", req.Strategy, req.Relation, req.Text, req.Name)] = briefs(hits)
	}
	return out
}

// TestReplacePreparedWritesWhatReplaceSourcesWrites: documents prepared
// ahead (PrepareSources, as a pipelined build does on another goroutine)
// and written with ReplacePrepared give the documents, answers and
// removed ids ReplaceSources gives, and the same refusal of a document
// whose path is not among the sources.
func TestReplacePreparedWritesWhatReplaceSourcesWrites(t *testing.T) {
	ctx := context.Background()
	byReplace, byPrepared := openMem(t), openMem(t)
	write := func(b *Backend, prepared bool, versions map[string]string, docs []retrieval.Document) ([]string, error) {
		w, err := b.BeginWrite(ctx)
		if err != nil {
			t.Fatal(err)
		}
		defer w.Rollback()
		var removed []string
		if prepared {
			p, perr := PrepareSources(docs)
			if perr != nil {
				return nil, perr
			}
			removed, err = w.ReplacePrepared(ctx, versions, p)
		} else {
			removed, err = w.ReplaceSources(ctx, versions, docs)
		}
		if err != nil {
			return nil, err
		}
		return removed, w.Commit()
	}
	groups := byPath(corpus())
	versions := map[string]string{}
	for p := range groups {
		versions[p] = "v1"
	}
	for _, prepared := range []bool{false, true} {
		b := byReplace
		if prepared {
			b = byPrepared
		}
		if _, err := write(b, prepared, versions, corpus()); err != nil {
			t.Fatal(err)
		}
	}
	next := slices.DeleteFunc(corpus(), func(d retrieval.Document) bool { return d.ID == "read-req" })
	var removed [2][]string
	for i, prepared := range []bool{false, true} {
		b := byReplace
		if prepared {
			b = byPrepared
		}
		var err error
		if removed[i], err = write(b, prepared, map[string]string{"net/http/server.go": "v2", "net/http/request.go": "v2"}, slices.DeleteFunc(slices.Clone(next), func(d retrieval.Document) bool {
			return d.Path != "net/http/server.go" && d.Path != "net/http/request.go"
		})); err != nil {
			t.Fatal(err)
		}
	}
	if diff := cmp.Diff(removed[0], removed[1]); diff != "" || len(removed[0]) == 0 {
		t.Errorf("removed ids (-ReplaceSources +ReplacePrepared), want some:\n%s", diff)
	}
	if diff := cmp.Diff(allDocs(t, byReplace), allDocs(t, byPrepared)); diff != "" {
		t.Errorf("documents (-ReplaceSources +ReplacePrepared):\n%s", diff)
	}
	if diff := cmp.Diff(answersOf(t, byReplace), answersOf(t, byPrepared)); diff != "" {
		t.Errorf("answers (-ReplaceSources +ReplacePrepared):\n%s", diff)
	}
	stray := []retrieval.Document{{ID: "stray", Path: "elsewhere.go", Symbol: "x"}}
	_, errReplace := write(byReplace, false, map[string]string{"net/http/server.go": "v3"}, stray)
	_, errPrepared := write(byPrepared, true, map[string]string{"net/http/server.go": "v3"}, stray)
	if errReplace == nil || errPrepared == nil || errReplace.Error() != errPrepared.Error() {
		t.Errorf("a document of another source: ReplaceSources %v, ReplacePrepared %v; want the same error", errReplace, errPrepared)
	}
}
