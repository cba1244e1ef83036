package rlm

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"sync"
	"sync/atomic"
	"time"

	"github.com/rlm-dev/rlm/retrieval"
	"github.com/rlm-dev/rlm/retrieval/chroma"
	"github.com/rlm-dev/rlm/retrieval/embedded"
	"github.com/rlm-dev/rlm/sourcefacts"
	"github.com/rlm-dev/rlm/sourcefacts/store"
)

// IndexOptions configure BuildIndex.
type IndexOptions struct {
	// DBPath is the SQLite file of the embedded backend; "" keeps the index
	// in memory for the life of the Index.
	DBPath string
	// Walk options; Project defaults to the root's base name.
	Walk sourcefacts.WalkOptions
	// Progress is called as files are extracted (done, total, bytes so far).
	Progress func(done, total int, bytes int64)
	// OnStore, if set, is called once extraction is done, before the
	// documents (count given) are written to the backend.
	OnStore func(docs int)
	// ExcludeGenerated skips files marked `// Code generated ... DO NOT
	// EDIT.`. By default they are indexed: bundles such as net/http's
	// h2_bundle.go hold real, callable code.
	ExcludeGenerated bool
	// Embedder, when set, embeds every document so that the vector and
	// hybrid strategies are available (see LocalEmbedder, OpenAIEmbedder).
	Embedder retrieval.Embedder
	// Chroma, when set, stores the vectors in a Chroma server instead of
	// the embedded backend (its Embedder is set from Embedder, which is then
	// required). Exact, lexical and graph stay in the embedded backend;
	// vector hits from Chroma count only if their content hash matches the
	// file's current bytes.
	Chroma *chroma.Config
}

// IndexStats describe one BuildIndex run.
type IndexStats struct {
	Files     int           // files extracted
	Bytes     int64         // source bytes read
	Symbols   int           // definitions indexed as documents
	Refs      int           // call and type references stored for the graph strategy
	Partial   int           // files parsed with syntax errors
	Errors    int           // files that could not be parsed
	Stale     int           // files written but not flushed (OpenProject)
	Extract   time.Duration // walking and extraction
	Store     time.Duration // writing the backend
	Generated time.Time
}

// Index is a searchable source knowledge base over one root.
type Index struct {
	Root    string
	Backend retrieval.Backend
	Facts   []*sourcefacts.FileFacts
	Stats   IndexStats
	// StaleHits counts hits from an external vector store that were dropped
	// because their content hash was not current.
	StaleHits atomic.Int64
	// Snapshot is the store generation the index was built from
	// (OpenProject only; zero for BuildIndex).
	Snapshot store.Identity
	// Reused is true when OpenProject found the search index of this
	// snapshot already built.
	Reused bool

	store   *store.Store
	release func()

	once    sync.Once
	current map[string]string // path -> content hash string
}

// Close releases the backend and, for OpenProject, the store.
func (ix *Index) Close() error {
	var err error
	if ix.Backend != nil {
		err = ix.Backend.Close()
	}
	if ix.store != nil {
		err = errors.Join(err, ix.store.Close())
	}
	if ix.release != nil {
		ix.release()
	}
	return err
}

// BuildIndex walks root, extracts facts with tree-sitter and loads one
// document per definition into the embedded backend.
func BuildIndex(ctx context.Context, root string, opts IndexOptions) (*Index, error) {
	abs, err := filepath.Abs(root)
	if err != nil {
		return nil, fmt.Errorf("rlm: index %s: %w", root, err)
	}
	if opts.Walk.Project == "" {
		opts.Walk.Project = filepath.Base(abs)
	}
	if opts.Progress != nil {
		opts.Walk.Progress = opts.Progress
	}
	opts.Walk.IncludeGenerated = !opts.ExcludeGenerated
	start := time.Now()
	facts, err := sourcefacts.Walk(ctx, abs, opts.Walk)
	if err != nil {
		return nil, fmt.Errorf("rlm: index %s: %w", root, err)
	}
	st := IndexStats{Files: len(facts), Extract: time.Since(start), Generated: time.Now()}
	docs := Documents(facts)
	for _, f := range facts {
		st.Bytes += f.Provenance.Hash.Len
		switch f.Status {
		case sourcefacts.StatusPartial:
			st.Partial++
		case sourcefacts.StatusError:
			st.Errors++
		}
	}
	for _, d := range docs {
		st.Refs += len(d.Refs)
	}
	st.Symbols = len(docs)
	ix := &Index{Root: abs, Facts: facts}
	b, err := openBackend(ctx, opts, ix)
	if err != nil {
		return nil, err
	}
	if opts.OnStore != nil {
		opts.OnStore(len(docs))
	}
	t := time.Now()
	const batch = 2000
	for i := 0; i < len(docs); i += batch {
		j := min(i+batch, len(docs))
		if err := b.Upsert(ctx, docs[i:j]); err != nil {
			b.Close()
			return nil, fmt.Errorf("rlm: index %s: %w", root, err)
		}
	}
	st.Store = time.Since(t)
	ix.Backend, ix.Stats = b, st
	return ix, nil
}

// openBackend opens the embedded backend, with vectors in it or, with
// opts.Chroma, in a Chroma server behind a retrieval.Router.
func openBackend(ctx context.Context, opts IndexOptions, ix *Index) (retrieval.Backend, error) {
	if opts.Chroma == nil {
		var eopts []embedded.Option
		if opts.Embedder != nil {
			eopts = append(eopts, embedded.WithEmbedder(opts.Embedder))
		}
		b, err := embedded.Open(ctx, opts.DBPath, eopts...)
		if err != nil {
			return nil, fmt.Errorf("rlm: open index: %w", err)
		}
		return b, nil
	}
	if opts.Embedder == nil {
		return nil, fmt.Errorf("rlm: a Chroma backend needs an embedder")
	}
	primary, err := embedded.Open(ctx, opts.DBPath)
	if err != nil {
		return nil, fmt.Errorf("rlm: open index: %w", err)
	}
	cfg := *opts.Chroma
	cfg.Embedder = opts.Embedder
	vec, err := chroma.Open(ctx, cfg)
	if err != nil {
		primary.Close()
		return nil, fmt.Errorf("rlm: open chroma: %w", err)
	}
	return &retrieval.Router{Primary: primary, Vectors: vec, Check: ix.keepCurrent}, nil
}

// keepCurrent drops hits whose document's content hash is not the current
// hash of its file in this index (a stale vector in a shared store, or a
// file that is gone).
func (ix *Index) keepCurrent(_ context.Context, hits []retrieval.Hit) []retrieval.Hit {
	ix.once.Do(func() {
		ix.current = make(map[string]string, len(ix.Facts))
		for _, f := range ix.Facts {
			ix.current[f.Provenance.Path] = f.Provenance.Hash.String()
		}
	})
	kept := hits[:0]
	for _, h := range hits {
		if cur, ok := ix.current[h.Document.Path]; ok && cur == h.Document.ContentHash {
			kept = append(kept, h)
		} else {
			ix.StaleHits.Add(1)
		}
	}
	return kept
}

// Documents turns facts into retrieval documents: one per definition, with
// the calls and type references inside it as Refs. References outside any
// definition are dropped (the graph relates definitions).
func Documents(files []*sourcefacts.FileFacts) []retrieval.Document {
	var docs []retrieval.Document
	for _, f := range files {
		base := len(docs)
		for _, s := range f.Symbols {
			q := qualifiedName(s)
			docs = append(docs, retrieval.Document{
				ID:          retrieval.DocumentID(f.Provenance.Path, q, s.Range.StartLine),
				Path:        f.Provenance.Path,
				StartLine:   s.Range.StartLine,
				EndLine:     s.Range.EndLine,
				Symbol:      s.Name,
				Qualified:   q,
				Kind:        s.Kind,
				Language:    f.Language,
				Signature:   s.Signature,
				Doc:         s.Doc,
				ContentHash: f.Provenance.Hash.String(),
				Test:        f.Test,
				Metadata: map[string]string{
					"package":    f.Package,
					"generation": fmt.Sprint(f.Provenance.Generation),
					"status":     f.Status,
				},
			})
		}
		for _, r := range f.References {
			if r.Enclosing < 0 || r.Enclosing >= len(f.Symbols) {
				continue
			}
			d := &docs[base+r.Enclosing]
			d.Refs = append(d.Refs, retrieval.Ref{Name: r.Name, Kind: r.Kind, Line: r.Range.StartLine})
		}
	}
	return docs
}

// qualifiedName is Receiver.Name for methods and Container.Name for
// members without a receiver (interface methods, struct fields), so that
// "Handler.ServeHTTP" finds the interface method.
func qualifiedName(s sourcefacts.Symbol) string {
	if s.Receiver == "" && s.Container != "" {
		return s.Container + "." + s.Name
	}
	return s.Qualified()
}
