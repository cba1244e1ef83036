package mcp

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/rlm-dev/rlm"
	"github.com/rlm-dev/rlm/rules"
)

const exampleCatalog = "../examples/catalog/catalog.yaml"

// withCompile returns server options offering compile over the example
// catalog.
func withCompile(t *testing.T, o Options) Options {
	t.Helper()
	cat, err := rlm.LoadCatalog(t.Context(), exampleCatalog, "")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cat.Release() })
	c, err := rlm.NewCompiler("")
	if err != nil {
		t.Fatal(err)
	}
	o.Catalog, o.Compiler = cat, c
	return o
}

// TestSearchAndItsShortcutsAnswerLikeTheGoAPI: search, definition,
// callers and callees return the hits the façade's Search returns for the
// same question (ids, signatures, docs and content hashes included), with
// the identity of the snapshot the project is at.
func TestSearchAndItsShortcutsAnswerLikeTheGoAPI(t *testing.T) {
	f := newFixture(t, rlm.Options{}, Options{}, "")
	for _, c := range []struct {
		tool, arg, question, want string
	}{
		{"search", "handle", "handle", "handle"},
		{"definition", "handle", "where is handle defined?", "handle"},
		{"callers", "handle", "what calls handle?", "ServeHTTP"},
		{"callees", "Retry", "what does Retry call?", "Fetch"},
		{"callers", "Server.ServeHTTP", "what calls Server.ServeHTTP?", "Fetch"},
	} {
		t.Run(c.tool+" "+c.arg, func(t *testing.T) {
			args := map[string]any{"name": c.arg}
			if c.tool == "search" {
				args = map[string]any{"query": c.arg}
			}
			var got SearchResult
			f.ok(c.tool, args, &got)
			ans, err := f.proj.Search(t.Context(), c.question, 0)
			if err != nil {
				t.Fatal(err)
			}
			if got.Query != c.question || got.Class != ans.Class || len(got.Hits) != len(ans.Hits) || len(got.Hits) == 0 {
				t.Fatalf("%s %s: query %q class %q, %d hits; the Go API: %q %q, %d hits", c.tool, c.arg, got.Query, got.Class, len(got.Hits), c.question, ans.Class, len(ans.Hits))
			}
			for i, h := range ans.Hits {
				g := got.Hits[i]
				// The read id shadows the Go API's document id, which
				// MCP carries as document_id.
				want := Hit{ID: fmt.Sprintf("%s:%d-%d@%s", h.Path, h.StartLine, h.EndLine, h.ContentHash), DocumentID: h.ID, Hit: h}
				want.Hit.ID = ""
				if diff := cmp.Diff(want, g); diff != "" {
					t.Errorf("hit %d (-Go API +MCP):\n%s", i, diff)
				}
				if g.Signature == "" || g.Doc == "" || !strings.HasPrefix(g.ContentHash, "xxh64:") {
					t.Errorf("hit %d lacks a signature, doc or content hash: %+v", i, g)
				}
			}
			hitNamed(t, got, c.want)
			id := f.proj.Snapshot()
			if got.Snapshot.Generation != id.Generation || got.Snapshot.Fingerprint != sprintf016x(id.Fingerprint) || got.Snapshot.Generation == 0 {
				t.Errorf("snapshot %+v, the project is at %v", got.Snapshot, id)
			}
			if b, _ := json.Marshal(got.Because); !strings.Contains(string(b), `"rule"`) {
				t.Errorf("no rule chain: %s", b)
			}
		})
	}
}

// TestSearchFiltersNarrowTheHits: path_prefix, kinds and exclude_tests
// keep only matching hits, count the others, and respect the limit.
func TestSearchFiltersNarrowTheHits(t *testing.T) {
	f := newFixture(t, rlm.Options{}, Options{}, "")
	var all SearchResult
	f.ok("search", map[string]any{"query": "server request path writer fetch"}, &all)
	paths := map[string]bool{}
	for _, h := range all.Hits {
		paths[h.Path] = true
	}
	if len(paths) < 2 {
		t.Fatalf("the unfiltered search should reach both files: %+v", all.Hits)
	}
	for _, c := range []struct {
		name string
		args map[string]any
		keep func(Hit) bool
	}{
		{"path prefix", map[string]any{"path_prefix": "sub/"}, func(h Hit) bool { return strings.HasPrefix(h.Path, "sub/") }},
		{"kinds", map[string]any{"kinds": []string{"function"}}, func(h Hit) bool { return h.Kind == "function" }},
		{"kinds are compared without case", map[string]any{"kinds": []string{"FUNCTION"}}, func(h Hit) bool { return h.Kind == "function" }},
		{"limit after filtering", map[string]any{"kinds": []string{"function"}, "limit": 1}, func(h Hit) bool { return h.Kind == "function" }},
	} {
		t.Run(c.name, func(t *testing.T) {
			c.args["query"] = all.Query
			var got SearchResult
			f.ok("search", c.args, &got)
			want := 0
			for _, h := range all.Hits {
				if c.keep(h) {
					want++
				}
			}
			if l, ok := c.args["limit"].(int); ok {
				want = min(want, l)
			}
			if len(got.Hits) != want || want == 0 || got.FilteredOut == 0 {
				t.Fatalf("%d hits (%d filtered out), want %d of %+v", len(got.Hits), got.FilteredOut, want, all.Hits)
			}
			for _, h := range got.Hits {
				if !c.keep(h) {
					t.Errorf("hit %s %s %s passed the filter", h.Path, h.Kind, h.Symbol)
				}
			}
		})
	}
}

// TestExplainShowsThePlanAndItsRules: explain returns what the façade's
// Explain returns: the class, the steps and the rule behind each.
func TestExplainShowsThePlanAndItsRules(t *testing.T) {
	f := newFixture(t, rlm.Options{}, Options{}, "")
	var got map[string]any
	f.ok("explain", map[string]any{"query": "what calls handle?"}, &got)
	ex, err := f.proj.Explain(t.Context(), "what calls handle?")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(ex)
	var want map[string]any
	json.Unmarshal(b, &want)
	if diff := cmp.Diff(want, got); diff != "" || got["class"] != "relationship" {
		t.Fatalf("explain (-Go API +MCP):\n%s", diff)
	}
}

// TestReadReturnsAHitsLinesFromTheVerifiedFile: a hit's id reads back the
// hit's lines; a path and range reads those lines of the current
// snapshot's file, bounded, with the file's content hash.
func TestReadReturnsAHitsLinesFromTheVerifiedFile(t *testing.T) {
	f := newFixture(t, rlm.Options{}, Options{}, "")
	var s SearchResult
	f.ok("definition", map[string]any{"name": "handle"}, &s)
	h := hitNamed(t, s, "handle")
	var r ReadResult
	f.ok("read", map[string]any{"id": h.ID}, &r)
	src := strings.Split(f.readFile(h.Path), "\n")
	want := strings.Join(src[h.StartLine-1:h.EndLine], "\n") + "\n"
	if r.Text != want || r.Path != h.Path || r.StartLine != h.StartLine || r.EndLine != h.EndLine || r.ContentHash != h.ContentHash || r.Lines != len(src)-1 || r.Truncated { // the file ends in "\n"
		t.Fatalf("read %s = %+v; want lines %d-%d:\n%s", h.ID, r, h.StartLine, h.EndLine, want)
	}
	f.ok("read", map[string]any{"id": h.ID, "start_line": 1, "end_line": 3}, &r)
	if r.Text != strings.Join(src[:3], "\n")+"\n" {
		t.Errorf("read of an id with lines 1-3: %q", r.Text)
	}
	f.ok("read", map[string]any{"path": "sub/client.go", "start_line": 5, "end_line": 7}, &r)
	sub := strings.Split(f.readFile("sub/client.go"), "\n")
	if r.Text != strings.Join(sub[4:7], "\n")+"\n" || r.ContentHash == "" || r.Snapshot.Generation == 0 {
		t.Errorf("read sub/client.go 5-7 = %+v", r)
	}
	if fh, _ := f.proj.FileHash("sub/client.go"); r.ContentHash != fh {
		t.Errorf("read's content hash %s, the snapshot's %s", r.ContentHash, fh)
	}
	big := strings.Repeat("x\n", MaxReadLines*2)
	f.writeFile("big.go", "package sample\n"+big)
	f.ok("read", map[string]any{"path": "big.go"}, &r)
	if r.StartLine != 1 || r.EndLine != MaxReadLines || !r.Truncated || strings.Count(r.Text, "\n") != MaxReadLines {
		t.Errorf("read of a long file: lines %d-%d truncated=%v, %d lines of text", r.StartLine, r.EndLine, r.Truncated, strings.Count(r.Text, "\n"))
	}
	f.writeFile("long.go", "package sample\n// "+strings.Repeat("é", MaxReadLineBytes)+"\n")
	f.ok("read", map[string]any{"path": "long.go", "start_line": 2, "end_line": 2}, &r)
	if len(r.Text) > MaxReadLineBytes+len("…\n") || !strings.HasSuffix(r.Text, "…\n") {
		t.Errorf("a long line is %d bytes: %q…", len(r.Text), r.Text[:40])
	}
}

// TestStatusReportsTheSnapshotAndWhatIsNotCurrent: status reports the
// generation and fingerprint the files were validated into, counts, the
// offered tools, and a file that does not parse.
func TestStatusReportsTheSnapshotAndWhatIsNotCurrent(t *testing.T) {
	f := newFixture(t, rlm.Options{}, Options{}, "")
	var st Status
	f.ok("status", map[string]any{}, &st)
	want, err := f.proj.Status(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	if st.Snapshot.Generation != want.Snapshot.Generation || st.Snapshot.Fingerprint != sprintf016x(want.Snapshot.Fingerprint) ||
		st.Files != 2 || st.Symbols != want.Stats.Symbols || st.Symbols == 0 || len(st.NotCurrent) != 0 {
		t.Fatalf("status %+v; the project: %+v", st, want)
	}
	if !slices.Equal(st.Tools, []string{"callees", "callers", "definition", "explain", "read", "search", "status"}) {
		t.Errorf("tools %v", st.Tools)
	}
	f.writeFile("broken.go", "package sample\nfunc (\n")
	f.ok("status", nil, &st)
	if st.Snapshot.Generation <= want.Snapshot.Generation || st.Files != 3 || len(st.NotCurrent) != 1 || st.NotCurrent[0].Path != "broken.go" {
		t.Fatalf("after adding an unparsable file: %+v", st)
	}
}

// TestCompileIsThePromptCompilersProjection: compile returns exactly what
// the compiler returns for the same catalog and input.
func TestCompileIsThePromptCompilersProjection(t *testing.T) {
	o := withCompile(t, Options{})
	f := newFixture(t, rlm.Options{}, o, "")
	q := "review the diff of my staged changes before I commit"
	var got map[string]any
	f.ok("compile", map[string]any{"query": q, "capabilities": []string{"git.read"}}, &got)
	want, err := o.Compiler.Compile(t.Context(), o.Catalog, rlm.CompileInput{Text: q, Capabilities: []string{"git.read"}}, rlm.CompileOptions{})
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(want)
	var w map[string]any
	json.Unmarshal(b, &w)
	if diff := cmp.Diff(w, got); diff != "" || len(want.Active) == 0 {
		t.Fatalf("compile (-compiler +MCP):\n%s", diff)
	}
	if e := f.fail("compile", map[string]any{"query": q, "mode": "everything"}); e.Kind != "invalid_arguments" {
		t.Errorf("an unknown mode: %+v", e)
	}
}

// TestResourcesServeTheSnapshotAndTheRuleFiles: rlm://snapshot is the
// status, validated when read; every loaded rule file is one resource,
// rlm://rules/LAYER/CONCERN/FILE, whose text is the file's and whose
// description names its concern and the engines that loaded it.
func TestResourcesServeTheSnapshotAndTheRuleFiles(t *testing.T) {
	f := newFixture(t, rlm.Options{}, withCompile(t, Options{}), "")
	ctx := t.Context()
	res, err := f.cs.ReadResource(ctx, &sdk.ReadResourceParams{URI: SnapshotURI})
	if err != nil {
		t.Fatal(err)
	}
	var st Status
	if err := json.Unmarshal([]byte(res.Contents[0].Text), &st); err != nil || st.Files != 2 || st.Snapshot.Generation == 0 {
		t.Fatalf("snapshot resource: %v %s", err, res.Contents[0].Text)
	}
	f.writeFile("more.go", "package sample\n\nfunc More() {}\n")
	res, err = f.cs.ReadResource(ctx, &sdk.ReadResourceParams{URI: SnapshotURI})
	if err != nil {
		t.Fatal(err)
	}
	var st2 Status
	json.Unmarshal([]byte(res.Contents[0].Text), &st2)
	if st2.Files != 3 || st2.Snapshot.Generation <= st.Snapshot.Generation {
		t.Errorf("the snapshot resource did not validate the files when read: %+v then %+v", st, st2)
	}
	concerns := map[string]string{"retrieval": "Retrieval rules:", "prompt": "Prompt-compiler rules:", "intent": "Intent-routing rules:"}
	served := map[string]int{} // rule file -> resources serving it
	for r, err := range f.cs.Resources(ctx, nil) {
		if err != nil {
			t.Fatal(err)
		}
		tail, ok := strings.CutPrefix(r.URI, "rlm://rules/0/")
		if !ok {
			if r.URI != SnapshotURI {
				t.Errorf("unexpected resource %s", r.URI)
			}
			continue
		}
		served[tail]++
		want, err := fs.ReadFile(rules.FS, tail)
		if err != nil {
			t.Errorf("%s: no such default rule file %s", r.URI, tail)
			continue
		}
		rr, err := f.cs.ReadResource(ctx, &sdk.ReadResourceParams{URI: r.URI})
		if err != nil {
			t.Fatal(err)
		}
		if rr.Contents[0].Text != string(want) || r.MIMEType != "text/x-prolog" || r.Name != tail {
			t.Errorf("%s (%s): the resource is not the rule file %s", r.URI, r.Name, tail)
		}
		concern, _, _ := strings.Cut(tail, "/")
		loaders := "loaded by the retrieval planner."
		if concern == "prompt" {
			loaders = "loaded by the retrieval planner and the prompt compiler."
		}
		if !strings.HasPrefix(r.Description, concerns[concern]) || !strings.Contains(r.Description, loaders) {
			t.Errorf("%s is described as %q; want its concern (%q) and %q", r.URI, r.Description, concerns[concern], loaders)
		}
	}
	for concern := range concerns {
		ents, err := fs.ReadDir(rules.FS, concern)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range ents {
			if name := concern + "/" + e.Name(); !strings.HasSuffix(name, "_test.pl") && served[name] != 1 {
				t.Errorf("the rule file %s is served by %d resources, want 1", name, served[name])
			}
		}
	}
	if _, err := f.cs.ReadResource(ctx, &sdk.ReadResourceParams{URI: "rlm://rules/0/../../../etc/passwd"}); err == nil {
		t.Error("a resource outside the list was served")
	}
}

func sprintf016x(v uint64) string { return fmt.Sprintf("%016x", v) }

// TestAnUnknownKindIsRefusedNotFilteredToNothing: a kinds filter with a
// kind no definition has (a typo, "fucntion") would drop every hit and
// look like "nothing matches"; the tool's schema refuses it
// (invalid_arguments at kinds, naming the kind; the schema's
// description lists the kinds there are),
// and a known kind in any case still filters.
func TestAnUnknownKindIsRefusedNotFilteredToNothing(t *testing.T) {
	f := newFixture(t, rlm.Options{}, Options{}, "")
	for _, kinds := range [][]string{{"fucntion"}, {"function", "klass"}} {
		e := f.fail("search", map[string]any{"query": "server request path writer fetch", "kinds": kinds})
		if bad := kinds[len(kinds)-1]; e.Kind != "invalid_arguments" || !strings.Contains(e.Path, "kinds") || !strings.Contains(e.Message, `"`+bad+`"`) {
			t.Errorf("kinds %v: error %+v is not invalid_arguments at kinds naming %q", kinds, e, bad)
		}
	}
	var got SearchResult
	f.ok("search", map[string]any{"query": "server request path writer fetch", "kinds": []string{"Method", "function"}}, &got)
}
