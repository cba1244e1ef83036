package rlm

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	"github.com/rlm-dev/rlm/chroma"
	"github.com/rlm-dev/rlm/retrieval"
	"github.com/rlm-dev/rlm/sourcefacts"
	"github.com/rlm-dev/rlm/sourcefacts/store"
)

// ProjectOptions configure OpenProject.
type ProjectOptions struct {
	// DBPath is the source knowledge base (SQLite); default
	// <root>/.rlm/kb.sqlite. Search indexes are kept beside it.
	DBPath string
	// Embedder and Chroma: as in IndexOptions.
	Embedder retrieval.Embedder
	Chroma   *chroma.Config
	// RequireCurrent refuses to answer from a tree with stale, partial or
	// unparsable files in it (a *store.NotCurrentError naming them).
	RequireCurrent bool
	// TrustStat lets validation skip hashing files whose size, mtime and
	// inode are unchanged (git's racy-clean rule); never with
	// RequireCurrent.
	TrustStat bool
	// OnBuild, if set, is called when a search index must be built for a
	// new snapshot (with the number of files), before it is built.
	OnBuild func(files int)
}

// OpenProject opens the persistent source knowledge base of root, validates
// it lazily against the files' exact bytes (unchanged files are reused,
// changed ones re-extracted, and a new generation published only if
// something changed), then opens the search index built for exactly that
// snapshot, building it the first time. The returned Index's Snapshot names
// the generation every answer rests on; Close releases the store too.
func OpenProject(ctx context.Context, root string, opts ProjectOptions) (*Index, error) {
	abs, err := filepath.Abs(root)
	if err != nil {
		return nil, fmt.Errorf("rlm: open project %s: %w", root, err)
	}
	start := time.Now()
	if opts.DBPath == "" {
		opts.DBPath = DefaultDBPath(abs)
	}
	st, done, err := OpenStore(ctx, abs, opts.DBPath)
	if err != nil {
		return nil, fmt.Errorf("rlm: open project %s: %w", root, err)
	}
	closeAll := func() { st.Close(); done() }
	sn, err := st.Snapshot(ctx, store.All(), store.SnapshotOptions{RequireCurrent: opts.RequireCurrent, TrustStat: opts.TrustStat && !opts.RequireCurrent})
	if err != nil {
		closeAll()
		return nil, fmt.Errorf("rlm: snapshot %s: %w", root, err)
	}
	defer sn.Close()
	files, err := sn.Files(ctx)
	if err != nil {
		closeAll()
		return nil, fmt.Errorf("rlm: snapshot %s: %w", root, err)
	}
	id := sn.Identity()
	ix := &Index{Root: abs, Snapshot: id, store: st, release: done}
	ix.current = make(map[string]string, len(files))
	ix.once.Do(func() {})
	for _, f := range files {
		ix.current[f.Path] = f.Hash.String()
		ix.Stats.Bytes += f.Hash.Len
		switch f.Status {
		case sourcefacts.StatusPartial:
			ix.Stats.Partial++
		case sourcefacts.StatusError:
			ix.Stats.Errors++
		case store.StatusStale:
			ix.Stats.Stale++
		}
	}
	ix.Stats.Files = len(files)
	ix.Stats.Extract = time.Since(start)
	if ss, err := st.Stats(ctx); err == nil {
		ix.Stats.Symbols, ix.Stats.Refs = ss.Symbols, ss.References
	}

	searchPath := filepath.Join(filepath.Dir(st.DBPath()), searchIndexName(id, opts.Embedder))
	iopts := IndexOptions{DBPath: searchPath, Embedder: opts.Embedder, Chroma: opts.Chroma}
	t := time.Now()
	if _, err := os.Stat(searchPath); err == nil {
		b, err := openBackend(ctx, iopts, ix)
		if err != nil {
			closeAll()
			return nil, err
		}
		ix.Backend, ix.Reused = b, true
		ix.Stats.Store = time.Since(t)
		return ix, nil
	}
	if opts.OnBuild != nil {
		opts.OnBuild(len(files))
	}
	var facts []*sourcefacts.FileFacts
	for _, f := range files {
		r, err := sn.Facts(ctx, f.Path)
		if err != nil {
			closeAll()
			return nil, fmt.Errorf("rlm: facts of %s: %w", f.Path, err)
		}
		facts = append(facts, r.Facts)
	}
	ix.Facts = facts
	// Build into a temporary file and rename it into place, so that a
	// search index file, once present, is always complete.
	tmp := searchPath + fmt.Sprintf(".tmp%d", os.Getpid())
	iopts.DBPath = tmp
	b, err := openBackend(ctx, iopts, ix)
	if err != nil {
		closeAll()
		return nil, err
	}
	docs := Documents(facts)
	const batch = 2000
	for i := 0; i < len(docs); i += batch {
		if err := b.Upsert(ctx, docs[i:min(i+batch, len(docs))]); err != nil {
			b.Close()
			os.Remove(tmp)
			closeAll()
			return nil, fmt.Errorf("rlm: build search index: %w", err)
		}
	}
	if err := b.Close(); err != nil {
		os.Remove(tmp)
		closeAll()
		return nil, fmt.Errorf("rlm: build search index: %w", err)
	}
	if err := os.Rename(tmp, searchPath); err != nil {
		os.Remove(tmp)
		closeAll()
		return nil, fmt.Errorf("rlm: build search index: %w", err)
	}
	removeOldSearchIndexes(filepath.Dir(searchPath), filepath.Base(searchPath))
	iopts.DBPath = searchPath
	if ix.Backend, err = openBackend(ctx, iopts, ix); err != nil {
		closeAll()
		return nil, err
	}
	ix.Stats.Store = time.Since(t)
	return ix, nil
}

// OpenStore opens the knowledge base of absRoot (dbPath "" means
// DefaultDBPath) for every language sourcefacts supports. Call done after
// closing the store: it releases the extractor.
func OpenStore(ctx context.Context, absRoot, dbPath string) (st *store.Store, done func(), err error) {
	if dbPath == "" {
		dbPath = DefaultDBPath(absRoot)
	}
	ex, err := sourcefacts.NewExtractor()
	if err != nil {
		return nil, nil, err
	}
	st, err = store.Open(ctx, absRoot, &store.Options{
		DBPath:           dbPath,
		Project:          filepath.Base(absRoot),
		Extractor:        ex,
		ExtractorVersion: sourcefacts.ExtractorVersion,
		Lister:           sourcefacts.Lister{},
	})
	if err != nil {
		ex.Close()
		return nil, nil, err
	}
	return st, ex.Close, nil
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
