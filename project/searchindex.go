package project

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/rlm-dev/rlm/retrieval"
	"github.com/rlm-dev/rlm/retrieval/chroma"
	"github.com/rlm-dev/rlm/retrieval/embedded"
	"github.com/rlm-dev/rlm/sourcefacts"
	"github.com/rlm-dev/rlm/sourcefacts/store"
)

// buildBatch is how many documents one Upsert writes.
const buildBatch = 2000

// openSearchIndex opens the search index of snapshot id, building it from
// the snapshot's facts the first time: into a temporary file renamed into
// place, so that a search index file, once present, is complete. Search
// indexes of other snapshots are then removed.
func (p *Project) openSearchIndex(ctx context.Context, sn *store.Snapshot, id store.Identity, files []store.FileState, current map[string]string) (retrieval.Backend, bool, error) {
	dir := filepath.Dir(p.st.DBPath())
	searchPath := filepath.Join(dir, searchIndexName(id, p.opts.Embedder))
	if _, err := os.Stat(searchPath); err == nil {
		b, err := p.openBackend(ctx, searchPath, current)
		return b, true, err
	}
	if p.opts.Progress != nil {
		p.opts.Progress(Progress{Phase: PhaseBuild, Total: len(files)})
	}
	facts := make([]*sourcefacts.FileFacts, 0, len(files))
	for _, f := range files {
		r, err := sn.Facts(ctx, f.Path)
		if err != nil {
			return nil, false, fmt.Errorf("project: facts of %s: %w", f.Path, err)
		}
		facts = append(facts, r.Facts)
	}
	tmp := searchPath + fmt.Sprintf(".tmp%d", os.Getpid())
	b, err := p.openBackend(ctx, tmp, current)
	if err != nil {
		return nil, false, err
	}
	fail := func(err error) (retrieval.Backend, bool, error) {
		b.Close()
		os.Remove(tmp)
		return nil, false, fmt.Errorf("project: build search index: %w", err)
	}
	docs := Documents(facts)
	for i := 0; i < len(docs); i += buildBatch {
		if err := b.Upsert(ctx, docs[i:min(i+buildBatch, len(docs))]); err != nil {
			return fail(err)
		}
	}
	if err := b.Close(); err != nil {
		os.Remove(tmp)
		return nil, false, fmt.Errorf("project: build search index: %w", err)
	}
	if err := os.Rename(tmp, searchPath); err != nil {
		os.Remove(tmp)
		return nil, false, fmt.Errorf("project: build search index: %w", err)
	}
	removeOldSearchIndexes(dir, filepath.Base(searchPath))
	b, err = p.openBackend(ctx, searchPath, current)
	return b, false, err
}

// openBackend opens the embedded backend at path, with vectors in it or,
// with Options.Chroma, in a Chroma server behind a retrieval.Router whose
// vector hits count only if their content hash is current's.
func (p *Project) openBackend(ctx context.Context, path string, current map[string]string) (retrieval.Backend, error) {
	if p.opts.Chroma == nil {
		var eopts []embedded.Option
		if p.opts.Embedder != nil {
			eopts = append(eopts, embedded.WithEmbedder(p.opts.Embedder))
		}
		b, err := embedded.Open(ctx, path, eopts...)
		if err != nil {
			return nil, fmt.Errorf("project: open search index: %w", err)
		}
		return b, nil
	}
	primary, err := embedded.Open(ctx, path)
	if err != nil {
		return nil, fmt.Errorf("project: open search index: %w", err)
	}
	cfg := *p.opts.Chroma
	cfg.Embedder = p.opts.Embedder
	vec, err := chroma.Open(ctx, cfg)
	if err != nil {
		primary.Close()
		return nil, fmt.Errorf("project: open chroma: %w", err)
	}
	return p.vectorRouter(primary, vec, current), nil
}

// vectorRouter serves vector search from vec (a Chroma collection) and
// everything else from primary; a hit from vec counts only if its content
// hash is current's for its path (keepCurrent), others are counted in
// StaleHits.
func (p *Project) vectorRouter(primary, vec retrieval.Backend, current map[string]string) *retrieval.Router {
	return &retrieval.Router{Primary: primary, Vectors: vec, Check: func(_ context.Context, hits []retrieval.Hit) []retrieval.Hit {
		return keepCurrent(current, hits, &p.staleHits)
	}}
}

// keepCurrent drops hits whose document's content hash is not the current
// hash of its file (a stale vector in a shared store, or a file that is
// gone), counting them in dropped.
func keepCurrent(current map[string]string, hits []retrieval.Hit, dropped interface{ Add(int64) int64 }) []retrieval.Hit {
	kept := hits[:0]
	for _, h := range hits {
		if cur, ok := current[h.Document.Path]; ok && cur == h.Document.ContentHash {
			kept = append(kept, h)
		} else {
			dropped.Add(1)
		}
	}
	return kept
}

// Capabilities are the capabilities a search index opened with opts has,
// without opening one: what the planner plans for when there is no tree
// (rlm explain). A test checks them against opened backends.
func Capabilities(opts Options) retrieval.Capabilities {
	c := retrieval.Capabilities{Filters: true, MaxLimit: retrieval.MaxLimit,
		Strategies: []retrieval.Strategy{retrieval.Exact, retrieval.Lexical, retrieval.Graph, retrieval.Structural}}
	if opts.Embedder != nil {
		c.Strategies = append(c.Strategies, retrieval.Vector, retrieval.Hybrid)
	}
	return c
}

var unsafeName = regexp.MustCompile(`[^A-Za-z0-9._-]+`)

// searchIndexName names the search index of one snapshot and embedder:
// search-g<generation>-<fingerprint>-<embedder>.sqlite.
func searchIndexName(id store.Identity, e retrieval.Embedder) string {
	emb := "none"
	if e != nil {
		emb = fmt.Sprintf("%s-%d", unsafeName.ReplaceAllString(e.Model(), "_"), e.Dimensions())
	}
	return fmt.Sprintf("search-g%d-%016x-%s.sqlite", id.Generation, id.Fingerprint, emb)
}

// removeOldSearchIndexes deletes search indexes of other snapshots (an open
// one stays readable until closed, on Unix).
func removeOldSearchIndexes(dir, keep string) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	for _, e := range ents {
		n := e.Name()
		if strings.HasPrefix(n, "search-g") && !strings.HasPrefix(n, strings.TrimSuffix(keep, ".sqlite")) && !strings.Contains(n, ".tmp") {
			os.Remove(filepath.Join(dir, n))
		}
	}
}

// DefaultDBPath is <root>/.rlm/kb.sqlite when that directory can be
// created and written, else <user cache dir>/rlm/<base>-<hash of root>/kb.sqlite
// (so a read-only tree, such as a system Go installation, can be indexed).
func DefaultDBPath(absRoot string) string {
	dir := filepath.Join(absRoot, ".rlm")
	if err := os.MkdirAll(dir, 0o755); err == nil {
		if f, err := os.CreateTemp(dir, ".probe"); err == nil {
			f.Close()
			os.Remove(f.Name())
			return filepath.Join(dir, "kb.sqlite")
		}
	}
	cache, err := os.UserCacheDir()
	if err != nil {
		cache = os.TempDir()
	}
	h := sourcefacts.HashBytes([]byte(absRoot))
	return filepath.Join(cache, "rlm", fmt.Sprintf("%s-%016x", unsafeName.ReplaceAllString(filepath.Base(absRoot), "_"), h.XXH64), "kb.sqlite")
}
