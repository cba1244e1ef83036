// Package retrievaltest is the conformance suite of the retrieval contract:
// Run checks, against any retrieval.Backend, the guarantees every backend
// keeps for the strategies its Capabilities advertise. Each backend's tests
// call it (retrieval/embedded always; retrieval/chroma against a real
// server).
//
// What Run checks, each as a subtest on a fresh backend:
//
//   - Capabilities name known strategies once each, with MaxLimit in
//     1..retrieval.MaxLimit.
//   - Results are bounded: Limit n gives at most n hits, Limit 0 gives at
//     most retrieval.DefaultLimit, Limit Capabilities().MaxLimit is
//     accepted, a negative Limit or one over retrieval.MaxLimit fails with
//     retrieval.ErrBadRequest, and so does an Emphasis other than "" and
//     retrieval.EmphasisDoc.
//   - Hits keep their score kind and direction: each has the request's
//     Strategy, Rank 1..n, the score kind of its strategy (exact: 1 for a
//     case-sensitive match and 0.5 for a case-insensitive one; lexical: bm25;
//     graph: count; structural: exact; hybrid: rank; vector: one kind for all
//     hits), and scores best first in that kind's direction; a document's
//     own text finds it first.
//   - Fetch returns stored documents field for field, in the order asked,
//     and skips ids that are not stored.
//   - Upsert of an id that is stored replaces the document everywhere.
//   - Delete removes documents from Fetch and every strategy; unknown ids
//     are ignored.
//   - Filters (when Capabilities().Filters): every filter field narrows
//     every advertised strategy to exactly the hits that pass it; and
//     retrieval.SearchDemoting ranks the demoted roles after every other
//     hit in every advertised strategy, losing none.
//   - A strategy the backend does not advertise fails with
//     retrieval.ErrUnsupported.
//   - A closed backend fails every call.
//   - Backends that embed (advertise retrieval.Vector): an embedder of
//     unknown dimensions is refused at open with retrieval.ErrBadRequest; a
//     NaN, infinite, wrong-length or empty vector, or a missing one, fails
//     Upsert (retrieval.ErrBadRequest for a bad vector) with nothing
//     written, and a bad query embedding fails Search. A backend that also
//     has UpsertVectors (VectorWriter) refuses bad caller vectors the same
//     way.
package retrievaltest

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/rlm-dev/rlm/internal/testfixture"
	"github.com/rlm-dev/rlm/retrieval"
)

// Open opens a fresh, empty backend for one check. A backend that embeds
// must embed with e (Upsert and the vector and hybrid strategies); one that
// does not may ignore it. The error is the one the backend's constructor
// returned. Open registers any cleanup of external state with t.Cleanup;
// the backend may already be closed when that runs.
type Open func(t *testing.T, e retrieval.Embedder) (retrieval.Backend, error)

// VectorWriter is the optional method of backends that also store
// caller-supplied vectors (both retrieval/embedded and retrieval/chroma have
// it): vecs[i] belongs to docs[i].
type VectorWriter interface {
	UpsertVectors(ctx context.Context, docs []retrieval.Document, vecs [][]float32) error
}

// EmbedderModel and EmbedderDims are the model id and dimensions of the
// embedder Run hands to Open.
const (
	EmbedderModel = "retrievaltest-words-v1"
	EmbedderDims  = 64
)

// Run runs the conformance suite against the backends open returns.
func Run(t *testing.T, open Open) {
	t.Helper()
	s := &suite{open: open}
	caps := s.fresh(t, nil).Capabilities()
	s.caps = caps
	t.Run("CapabilitiesAreWellFormed", s.capabilities)
	t.Run("ResultsAreBoundedByLimit", s.bounded)
	t.Run("HitsKeepTheirScoreKindAndDirection", s.scores)
	t.Run("FetchReturnsStoredDocumentsAndSkipsMissingIDs", s.fetch)
	t.Run("UpsertOfAStoredIDReplacesIt", s.replace)
	t.Run("DeleteRemovesDocumentsAndIgnoresUnknownIDs", s.delete)
	t.Run("ADocumentOverAServerLimitIsKeptAndFetchedWhole", s.largeKeptWhole)
	if caps.Filters {
		t.Run("FiltersAreHonouredByEveryStrategy", s.filters)
		t.Run("DemotedRolesRankAfterTheOthersInEveryStrategy", s.demoted)
	}
	if len(s.unsupported()) > 0 {
		t.Run("UnsupportedStrategiesFailWithErrUnsupported", s.unsupportedFail)
	}
	t.Run("ClosedBackendFailsEveryCall", s.closed)
	if caps.Supports(retrieval.Vector) {
		t.Run("EmbedderOfUnknownDimensionsIsRefused", s.unknownDims)
		t.Run("BadEmbeddingsAreRefusedWithoutPartialWrites", s.badEmbeddings)
		if _, ok := s.fresh(t, nil).(VectorWriter); ok {
			t.Run("BadCallerVectorsAreRefusedWithoutPartialWrites", s.badCallerVectors)
		}
	}
}

type suite struct {
	open Open
	caps retrieval.Capabilities
}

// allStrategies are the strategies of the contract.
var allStrategies = []retrieval.Strategy{retrieval.Exact, retrieval.Lexical, retrieval.Vector, retrieval.Structural, retrieval.Graph, retrieval.Hybrid}

// fresh opens a backend with e (a new word embedder when nil); the suite
// fails the test if it cannot.
func (s *suite) fresh(t *testing.T, e retrieval.Embedder) retrieval.Backend {
	t.Helper()
	if e == nil {
		e = newEmbedder()
	}
	b, err := s.open(t, e)
	if err != nil {
		t.Fatalf("open: %v", err)
	}
	return b
}

// seeded opens a backend holding corpus().
func (s *suite) seeded(t *testing.T) retrieval.Backend {
	t.Helper()
	b := s.fresh(t, nil)
	if err := b.Upsert(context.Background(), corpus()); err != nil {
		t.Fatalf("Upsert: %v", err)
	}
	return b
}

func newEmbedder() *testfixture.WordEmbedder {
	return &testfixture.WordEmbedder{ModelID: EmbedderModel, Dims: EmbedderDims}
}

// supported are the advertised strategies, in the contract's order.
func (s *suite) supported() []retrieval.Strategy {
	var out []retrieval.Strategy
	for _, st := range allStrategies {
		if s.caps.Supports(st) {
			out = append(out, st)
		}
	}
	return out
}

func (s *suite) unsupported() []retrieval.Strategy {
	var out []retrieval.Strategy
	for _, st := range allStrategies {
		if !s.caps.Supports(st) {
			out = append(out, st)
		}
	}
	return out
}

// corpusSize is the number of documents of corpus: more than
// retrieval.DefaultLimit, so that Limit 0 is seen to cut.
const corpusSize = 12

var (
	corpusPaths = []string{"internal/server/http.go", "internal/serverless/lambda.go", "internal/config/parse.go",
		"cmd/rlm/main.go", "pkg/store/a.go", "pkg/storage/b.go"}
	corpusKinds = []string{"function", "method", "type"}
	// corpusWords make each document's text unique.
	corpusWords = []string{"alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel", "india", "juliet", "kilo", "lima"}
)

// corpus is corpusSize documents that one request per strategy finds all of
// (baseRequest): each defines Open, calls load and says "open the store" in
// its text, plus a word of its own. Paths, kinds, languages, the test
// flag and roles vary so that every filter field splits them.
func corpus() []retrieval.Document {
	docs := make([]retrieval.Document, corpusSize)
	for i := range docs {
		path := corpusPaths[i%len(corpusPaths)]
		lang := "go"
		if i%5 == 1 {
			lang = "python"
		}
		line := 10 * (i + 1)
		parser := "tree-sitter/0.25.0"
		if i%6 == 5 {
			parser = "ichiban-prolog/1.2.2"
		}
		role := ""
		switch i {
		case 0:
			role = retrieval.RoleSource // as given; the others' roles come from Test
		case 3:
			role = retrieval.RoleTest
		case 5, 9:
			role = retrieval.RoleExample
		}
		docs[i] = retrieval.Document{
			ID: retrieval.DocumentID(path, fmt.Sprintf("T%d.Open", i), line), Path: path, StartLine: line, EndLine: line + 5,
			Symbol: "Open", Qualified: fmt.Sprintf("T%d.Open", i), Kind: corpusKinds[i%len(corpusKinds)], Language: lang,
			Signature: fmt.Sprintf("func (T%d) Open() error", i), Doc: "Open opens it.",
			Text:        "open the store " + corpusWords[i],
			ContentHash: fmt.Sprintf("xxh64:%016x:%d", i, 100+i), Test: i%4 == 3, Role: role, Changed: int64(1 + (i/2)%3), Parser: parser,
			Refs:     []retrieval.Ref{{Name: "load", Kind: "call", Line: line + 1}},
			Metadata: map[string]string{"package": fmt.Sprintf("p%d", i%3)},
		}
	}
	return docs
}

// baseRequest is the request of strategy st that finds every document of
// corpus, limit hits at most.
func baseRequest(st retrieval.Strategy, limit int) retrieval.Request {
	req := retrieval.Request{Strategy: st, Limit: limit}
	switch st {
	case retrieval.Exact, retrieval.Structural:
		req.Name = "Open"
	case retrieval.Graph:
		req.Name, req.Relation = "load", retrieval.Callers
	case retrieval.Lexical:
		req.Text = "open"
	default:
		req.Text = "open the store"
	}
	return req
}

// everything is a limit above corpusSize.
const everything = 100

func search(t *testing.T, b retrieval.Backend, req retrieval.Request) []retrieval.Hit {
	t.Helper()
	hits, err := b.Search(context.Background(), req)
	if err != nil {
		t.Fatalf("Search %+v: %v", req, err)
	}
	return hits
}

func fetch(t *testing.T, b retrieval.Backend, ids ...string) []retrieval.Document {
	t.Helper()
	docs, err := b.Fetch(context.Background(), ids)
	if err != nil {
		t.Fatalf("Fetch %v: %v", ids, err)
	}
	return docs
}

func hitIDs(hits []retrieval.Hit) []string {
	out := []string{}
	for _, h := range hits {
		out = append(out, h.Document.ID)
	}
	return out
}

func sorted(ids []string) []string {
	out := append([]string{}, ids...)
	sort.Strings(out)
	return out
}

func docIDs(docs []retrieval.Document) []string {
	out := []string{}
	for _, d := range docs {
		out = append(out, d.ID)
	}
	return out
}

var equateEmpty = cmpopts.EquateEmpty()

func diffDocs(want, got []retrieval.Document) string { return cmp.Diff(want, got, equateEmpty) }

// isBadRequest reports err wraps retrieval.ErrBadRequest.
func isBadRequest(err error) bool { return errors.Is(err, retrieval.ErrBadRequest) }
