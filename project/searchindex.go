package project

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync/atomic"
	"time"

	"github.com/rlm-dev/rlm/retrieval"
	"github.com/rlm-dev/rlm/retrieval/chroma"
	"github.com/rlm-dev/rlm/retrieval/embedded"
	"github.com/rlm-dev/rlm/sourcefacts"
	"github.com/rlm-dev/rlm/sourcefacts/store"
)

// buildBatch is about how many documents one ReplaceSources call writes.
const buildBatch = 2000

// searchIndex is an open search index and the shared lock that keeps
// other projects from removing its file while it is read.
type searchIndex struct {
	backend retrieval.Backend
	lock    *fileLock
	vectors VectorState // with Chroma: how the collection stood at open
	// path is the index file; damaged is set when a read found it
	// damaged (View): the file is removed then, and Refresh makes it
	// again.
	path    string
	damaged atomic.Bool
}

func (ix *searchIndex) close() error {
	if ix == nil {
		return nil
	}
	err := ix.backend.Close()
	ix.lock.unlock()
	return err
}

// openSearchIndex opens the search index of snapshot id (see openIndex).
// If the embedder fails (a *retrieval.UnavailableError), it opens the
// snapshot's index without vectors instead, as a noVectors: exact,
// lexical and graph search keep working, vector and hybrid steps report
// the failure, which is recorded (VectorFailure) so that until the retry
// interval has passed every open of the snapshot with that embedder does
// the same without calling it; retry (the interval has passed for this
// project's index) ignores the record.
func (p *Project) openSearchIndex(ctx context.Context, sn *store.Snapshot, id store.Identity, files []store.FileState, current map[string]string, retry bool) (*searchIndex, indexBuild, error) {
	vectors := p.opts.Embedder != nil
	if f := p.recentVectorFailure(id); vectors && !retry && f != nil {
		// Another process (or an earlier open) found the embedder failing
		// on this snapshot: not again before the retry interval.
		ix, how, err := p.openIndex(ctx, sn, id, files, current, false)
		if err != nil {
			return nil, how, err
		}
		ix.backend = &noVectors{Backend: ix.backend, caps: Capabilities(p.opts), err: &retrieval.UnavailableError{Note: f.Note, Err: f}, since: f.At}
		return ix, how, nil
	}
	ix, how, err := p.openIndex(ctx, sn, id, files, current, vectors)
	ue, unavailable := errors.AsType[*retrieval.UnavailableError](err)
	if !vectors || !unavailable || ctx.Err() != nil {
		if vectors && err == nil {
			p.clearVectorFailure(id)
		}
		return ix, how, err
	}
	if ix, how, err = p.openIndex(ctx, sn, id, files, current, false); err != nil {
		return nil, how, err
	}
	now := time.Now()
	p.recordVectorFailure(id, ue, now)
	ix.backend = &noVectors{Backend: ix.backend, caps: Capabilities(p.opts), err: ue, since: now}
	return ix, how, nil
}

// openIndex opens the search index of snapshot id, with the configured
// vectors or none. The first time, it derives it from the index of an
// earlier snapshot (deriveSearchIndex: only the changed files' documents
// are rewritten) or, when there is none, builds it from the snapshot's
// facts; also again when the file is damaged (ErrCorruptIndex). Either way
// the file is written under a temporary name of its own (os.CreateTemp:
// concurrent builders never share one; locked while it is written) that is
// checkpointed, verified and synced before it is renamed into place, so
// that a search index file, once present, is complete. Temporary files of
// builds that failed or were killed are removed first.
//
// Between its rename into place and this project's shared lock on it, a
// new index file is free: another project (or process) may take it as the
// base of a newer snapshot's index and update it in place under another
// name (deriveSearchIndex). Then it is made again, up to indexAttempts
// times in all.
func (p *Project) openIndex(ctx context.Context, sn *store.Snapshot, id store.Identity, files []store.FileState, current map[string]string, vectors bool) (*searchIndex, indexBuild, error) {
	for attempt := 1; ; attempt++ {
		ix, how, err := p.openIndexOnce(ctx, sn, id, files, current, vectors)
		if !errors.Is(err, errIndexTaken) || attempt == indexAttempts {
			return ix, how, err
		}
	}
}

// indexAttempts bounds how often openIndex makes an index another project
// took before it could be opened.
const indexAttempts = 3

// errIndexTaken: a search index just made was gone when it was opened.
var errIndexTaken = errors.New("project: the search index just made was taken by another project before it was opened")

// openIndexOnce is one attempt of openIndex.
func (p *Project) openIndexOnce(ctx context.Context, sn *store.Snapshot, id store.Identity, files []store.FileState, current map[string]string, vectors bool) (*searchIndex, indexBuild, error) {
	dir := filepath.Dir(p.st.DBPath())
	removeStaleTemps(dir)
	searchPath := filepath.Join(dir, searchIndexName(id, "none", false))
	if vectors {
		emb, err := p.embedderIdentity(ctx)
		if err != nil {
			return nil, indexBuild{}, err
		}
		searchPath = filepath.Join(dir, searchIndexName(id, emb, p.opts.Chroma != nil))
	}
	ix, err := p.openIndexFile(ctx, searchPath, current, vectors)
	switch {
	case err == nil:
		now := time.Now() // most recently used: kept longest (removeOldSearchIndexes)
		os.Chtimes(searchPath, now, now)
		return ix, indexBuild{Reused: true}, nil
	case errors.Is(err, ErrCorruptIndex):
		// Derived data: rebuilt below, renamed over the damaged file
		// (removed first if no one has it open).
		if l, ok := tryLockExclusive(searchPath); ok {
			removeIndexFiles(searchPath)
			l.unlock()
		}
	case !errors.Is(err, fs.ErrNotExist):
		return nil, indexBuild{}, err
	}
	how, err := p.deriveSearchIndex(ctx, sn, files, searchPath, current, vectors)
	if errors.Is(err, errNoBase) {
		// Another project may have updated the base we waited for into
		// this very index.
		if ix, err := p.openIndexFile(ctx, searchPath, current, vectors); err == nil {
			return ix, indexBuild{Reused: true}, nil
		}
	}
	if errors.Is(err, errNoBase) || errors.Is(err, ErrCorruptIndex) {
		how, err = p.buildSearchIndex(ctx, sn, files, searchPath, current, vectors)
	}
	if err != nil {
		verb := "build"
		if how.From != 0 {
			verb = "update"
		}
		return nil, how, fmt.Errorf("project: %s search index: %w", verb, err)
	}
	if p.opts.madeIndex != nil {
		p.opts.madeIndex(searchPath)
	}
	ix, err = p.openIndexFile(ctx, searchPath, current, vectors)
	if errors.Is(err, fs.ErrNotExist) {
		err = fmt.Errorf("%w: %w", errIndexTaken, err)
	}
	if ix != nil {
		ix.vectors.Built = true
		// Write the quantised vector base now, so the first vector search
		// of every later command maps it instead of building it.
		if eb, ok := ix.backend.(*embedded.Backend); ok {
			if err := eb.CompactVectors(ctx); err != nil {
				ix.close()
				return nil, how, fmt.Errorf("project: build search index: %w", err)
			}
		}
	}
	return ix, how, err
}

// buildSearchIndex writes the search index of the snapshot's files to
// searchPath, whole; see openIndex. On failure nothing is left behind.
func (p *Project) buildSearchIndex(ctx context.Context, sn *store.Snapshot, files []store.FileState, searchPath string, current map[string]string, vectors bool) (indexBuild, error) {
	tmp, err := newIndexTemp(searchPath)
	if err != nil {
		return indexBuild{}, err
	}
	lock, _ := tryLockExclusive(tmp) // keeps removeStaleTemps off it
	defer lock.unlock()
	how, _, err := p.writeIndexFile(ctx, sn, files, tmp, current, vectors, writeWhole)
	if err != nil {
		removeIndexFiles(tmp)
		return how, err
	}
	return how, publishIndex(tmp, searchPath)
}

// openIndexFile opens an existing search index file under a shared lock;
// fs.ErrNotExist if there is none, an error wrapping ErrCorruptIndex if it
// is damaged.
func (p *Project) openIndexFile(ctx context.Context, path string, current map[string]string, vectors bool) (*searchIndex, error) {
	lock, err := lockShared(path)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, err
		}
		return nil, fmt.Errorf("project: open search index: %w", err)
	}
	if err := checkIndexFile(path); err != nil {
		lock.unlock()
		return nil, fmt.Errorf("project: open search index: %w", err)
	}
	b, err := p.openBackend(ctx, path, current, vectors)
	if err != nil {
		lock.unlock()
		return nil, asCorrupt(err)
	}
	ix := &searchIndex{backend: b, lock: lock, path: path}
	if r, ok := b.(*retrieval.Router); ok {
		// The collection outlives the index file: it may lack records (a
		// server on a fresh data directory, a deleted collection, an index
		// built for the embedded backend) or hold others (an earlier
		// generation's).
		primary, _ := r.Primary.(*embedded.Backend)
		vec, _ := r.Vectors.(*chroma.Backend)
		if primary != nil && vec != nil {
			if ix.vectors, err = reconcileVectors(ctx, primary, vec); err != nil {
				ix.close()
				return nil, err
			}
		}
	}
	return ix, nil
}

// openBackend opens the embedded backend at path (with the options
// extra), without vectors, with vectors in it or, with Options.Chroma, in
// a Chroma server behind a retrieval.Router whose vector hits count only
// if their content hash is current's.
func (p *Project) openBackend(ctx context.Context, path string, current map[string]string, vectors bool, extra ...embedded.Option) (retrieval.Backend, error) {
	if !vectors || p.opts.Chroma == nil {
		eopts := slices.Clone(extra)
		if vectors {
			eopts = append(eopts, embedded.WithEmbedder(p.opts.Embedder))
		}
		b, err := embedded.Open(ctx, path, eopts...)
		if err != nil {
			return nil, fmt.Errorf("project: open search index: %w", err)
		}
		return b, nil
	}
	primary, err := embedded.Open(ctx, path, extra...)
	if err != nil {
		return nil, fmt.Errorf("project: open search index: %w", err)
	}
	cfg := *p.opts.Chroma
	cfg.Embedder = p.opts.Embedder
	if cfg.Namespace == "" {
		cfg.Namespace = ChromaNamespace(p.root)
	}
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
		c.Embedder = retrieval.EmbedderNature(opts.Embedder)
	}
	return c
}

var unsafeName = regexp.MustCompile(`[^A-Za-z0-9._-]+`)

// searchIndexPrefix starts the name of every search index file (and of
// its temporary build files).
const searchIndexPrefix = "search-g"

// indexFormat names what the documents of a search index carry; a new
// format builds new index files. 2: Changed and Parser (provenance).
// 3: Role. 4: Text holds the names a definition calls and references
// (Documents). 5: how calls resolve (Ref.Via, Scope, Type; Metadata scope
// and module). 6: the compact embedded schema (version 5) and the files'
// versions (fileVersion) that incremental updates compare. 7: the tree's
// scopes and each file's lookups (scopeStore), so that an update resolves
// only the files an edit can change. 8: the compound parts of names split
// into the tree's words (Document.NameWords, indexed with the name) and
// the tables that keep those words current (nameWordStore). 9: a
// definition without a doc comment indexed by its own source lines too
// (ownLines). 10: a definition in an internal package marked
// (Metadata[retrieval.MetaInternal]). 11: a Python special method's
// Text holds the language reference's words for it
// (specialMethodWords). 12: the compact embedded schema of version 7
// (ids made from path and name, Text without the fields it repeats and
// deflated, vectors as binary16 keyed by document row).
const indexFormat = "f12"

// searchIndexName names the search index of one snapshot, embedder and
// vector store: search-g<generation>-<fingerprint>-<embedder>[-chroma]-<format>.sqlite,
// embedder an embedderIdentity or "none" (with Chroma the file holds no
// vectors, so it is not the embedded one).
func searchIndexName(id store.Identity, embedder string, chroma bool) string {
	if chroma {
		embedder += "-chroma"
	}
	return fmt.Sprintf("%s%d-%016x-%s-%s.sqlite", searchIndexPrefix, id.Generation, id.Fingerprint, embedder, indexFormat)
}

// Search indexes kept beside a knowledge base: for each embedder (and
// vector store) at most the keepPerEmbedder newest snapshots' indexes, for
// at most keepEmbedders embedders, the most recently built first; the
// current snapshot's indexes are always kept. (An index no one has open is
// updated in place into the next snapshot's of its embedder, so a project
// alone keeps one per embedder; one that another project reads is copied.)
// Switching embedders back and forth reuses what was built; the directory
// stays bounded.
const (
	keepPerEmbedder = 2
	keepEmbedders   = 4
)

// removeOldSearchIndexes deletes the search indexes beyond those kept (see
// keepPerEmbedder), and every index of an earlier format, that no one has
// open (another Project or process holds
// a shared lock on the one it reads; see fileLock).
func removeOldSearchIndexes(dir string, id store.Identity) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	current := fmt.Sprintf("%s%d-%016x-", searchIndexPrefix, id.Generation, id.Fingerprint)
	type index struct {
		name string
		gen  int64
	}
	groups := map[string][]index{} // embedder -> its indexes of other snapshots
	inCurrent := map[string]bool{} // embedders with an index of the current snapshot
	used := map[string]time.Time{} // embedder -> when its newest index last changed or was opened
	for _, e := range ents {
		n := e.Name()
		gen, _, emb, ok := parseIndexName(n)
		if !ok {
			continue
		}
		var mod time.Time
		if fi, err := e.Info(); err == nil {
			mod = fi.ModTime()
		}
		if !strings.HasSuffix(emb, "-"+indexFormat+".sqlite") {
			// An index of an earlier format is never read or updated
			// again (the name of every index this version opens ends
			// in indexFormat): it only takes space.
			path := filepath.Join(dir, n)
			if l, ok := tryLockExclusive(path); ok {
				removeIndexFiles(path)
				l.unlock()
			}
			continue
		}
		if mod.After(used[emb]) {
			used[emb] = mod
		}
		if strings.HasPrefix(n, current) {
			inCurrent[emb] = true
			continue
		}
		groups[emb] = append(groups[emb], index{n, gen})
	}
	embs := slices.Collect(maps.Keys(groups))
	slices.SortFunc(embs, func(a, b string) int { return used[b].Compare(used[a]) })
	for rank, emb := range embs {
		ixs := groups[emb]
		slices.SortFunc(ixs, func(a, b index) int { return cmp.Compare(b.gen, a.gen) })
		keep := keepPerEmbedder
		if inCurrent[emb] {
			keep-- // the current snapshot's is one of them
		}
		if rank >= keepEmbedders {
			keep = 0
		}
		for _, ix := range ixs[min(keep, len(ixs)):] {
			path := filepath.Join(dir, ix.name)
			if l, ok := tryLockExclusive(path); ok {
				removeIndexFiles(path)
				l.unlock()
			}
		}
	}
}

// removeIndexFiles removes a SQLite file, its -wal and -shm files and the
// files the embedded backend keeps beside it (embedded.SidecarFiles).
func removeIndexFiles(path string) {
	for _, suffix := range []string{"", "-wal", "-shm"} {
		os.Remove(path + suffix)
	}
	for _, f := range embedded.SidecarFiles(path) {
		os.Remove(f)
	}
}

// existingDBPath is where DefaultDBPath would put root's knowledge base,
// without creating anything: <root>/.rlm/kb.sqlite if that file exists,
// else the user-cache path.
func existingDBPath(absRoot string) string {
	local := filepath.Join(absRoot, ".rlm", "kb.sqlite")
	if _, err := os.Stat(local); err == nil {
		return local
	}
	return cacheDBPath(absRoot)
}

// cacheDBPath is the knowledge base of absRoot under the user cache.
func cacheDBPath(absRoot string) string {
	cache, err := os.UserCacheDir()
	if err != nil {
		cache = os.TempDir()
	}
	h := sourcefacts.HashBytes([]byte(absRoot))
	return filepath.Join(cache, "rlm", fmt.Sprintf("%s-%016x", unsafeName.ReplaceAllString(filepath.Base(absRoot), "_"), h.XXH64), "kb.sqlite")
}

// DefaultDBPath is <root>/.rlm/kb.sqlite when that directory can be
// created and written and the tree is not part of a toolchain's
// installation (InToolchain: the Go or a Python installation, which are
// not the user's project even when writable), else <user cache
// dir>/rlm/<base>-<hash of root>/kb.sqlite (so a read-only tree, such as
// a system Go installation, can be indexed). A .rlm directory it creates
// gets a .gitignore of "*" (see ignoreKBDir).
func DefaultDBPath(absRoot string) string {
	if InToolchain(absRoot) {
		return cacheDBPath(absRoot)
	}
	dir := filepath.Join(absRoot, ".rlm")
	if err := os.MkdirAll(dir, 0o755); err == nil {
		ignoreKBDir(dir)
		if f, err := os.CreateTemp(dir, ".probe"); err == nil {
			f.Close()
			os.Remove(f.Name())
			return filepath.Join(dir, "kb.sqlite")
		}
	}
	return cacheDBPath(absRoot)
}

// InToolchain reports whether the tree at absRoot lies inside a Go
// installation (an ancestor, or the root itself, holds VERSION and
// src/runtime/runtime.go) or a Python installation's standard library (an
// ancestor named pythonN.M inside a directory named lib holds os.py).
func InToolchain(absRoot string) bool {
	for dir := filepath.Clean(absRoot); ; {
		if isFile(filepath.Join(dir, "VERSION")) && isFile(filepath.Join(dir, "src", "runtime", "runtime.go")) {
			return true
		}
		base := filepath.Base(dir)
		if strings.HasPrefix(base, "python") && filepath.Base(filepath.Dir(dir)) == "lib" && isFile(filepath.Join(dir, "os.py")) {
			return true
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return false
		}
		dir = parent
	}
}

func isFile(path string) bool {
	fi, err := os.Stat(path)
	return err == nil && fi.Mode().IsRegular()
}
