package mcp

import (
	"context"
	"errors"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/rlm-dev/rlm"
	"github.com/rlm-dev/rlm/retrieval"
)

// TestADeadEmbedderStopsOnlyTheVectorSteps: when the embedder endpoint
// dies, a semantic search still answers, with a note naming the failed
// step and the embedder (never the cause's text: an endpoint, a key);
// definition and callers searches, status and read keep working — also
// after a file changes, when the new snapshot's index is built without
// vectors and status says why.
func TestADeadEmbedderStopsOnlyTheVectorSteps(t *testing.T) {
	const cause = `Post "http://10.9.8.7/v1/embeddings": dial tcp: connection refused (Authorization: Bearer sk-secret-42)`
	loc, err := rlm.LocalEmbedder()
	if err != nil {
		t.Fatal(err)
	}
	var dead atomic.Bool
	emb := retrieval.FuncEmbedder{ModelID: "remote-model", Dims: loc.Dimensions(), Func: func(ctx context.Context, texts []string) ([][]float32, error) {
		if dead.Load() {
			return nil, errors.New(cause)
		}
		return loc.Embed(ctx, texts)
	}}
	f := newFixture(t, rlm.Options{Embedder: emb}, Options{}, "")
	dead.Store(true)
	clean := func(what, text string) {
		t.Helper()
		for _, leak := range []string{"sk-secret-42", "10.9.8.7", "connection refused"} {
			if strings.Contains(text, leak) {
				t.Errorf("%s shows %q: %s", what, leak, text)
			}
		}
	}
	var sem SearchResult
	f.ok("search", map[string]any{"query": "how are multipart requests parsed"}, &sem)
	if len(sem.Notes) != 1 || !strings.Contains(sem.Notes[0], "hybrid(") || !strings.Contains(sem.Notes[0], "the embedder remote-model failed") {
		t.Errorf("semantic search notes %q; want one naming the hybrid step and the embedder", sem.Notes)
	}
	clean("the note", strings.Join(sem.Notes, "\n"))
	for round, change := range []bool{false, true} {
		if change {
			f.writeFile("fresh.go", "package sample\n\n// Fresh calls ServeHTTP.\nfunc Fresh(s *Server) { s.ServeHTTP(nil, \"\") }\n")
		}
		var st Status
		f.ok("status", map[string]any{}, &st)
		if change != (st.Vectors != "") || change && !strings.Contains(st.Vectors, "the embedder remote-model failed") {
			t.Errorf("round %d: status vectors_unavailable %q", round, st.Vectors)
		}
		clean("status", st.Vectors)
		var def, callers SearchResult
		f.ok("definition", map[string]any{"name": "ServeHTTP"}, &def)
		hit := hitNamed(t, def, "ServeHTTP")
		f.ok("callers", map[string]any{"name": "ServeHTTP"}, &callers)
		if len(def.Notes)+len(callers.Notes) != 0 || len(callers.Hits) == 0 {
			t.Errorf("round %d: definition notes %q, callers %d hits, notes %q", round, def.Notes, len(callers.Hits), callers.Notes)
		}
		for _, args := range []map[string]any{{"id": hit.ID}, {"path": hit.Path}} {
			var rd ReadResult
			f.ok("read", args, &rd)
			if !strings.Contains(rd.Text, "ServeHTTP") {
				t.Errorf("round %d: read %v: %q", round, args, rd.Text)
			}
		}
	}
}
