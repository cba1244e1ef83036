// Package project is the knowledge base's lifecycle for one source tree:
// it opens (or builds) the SQLite knowledge base (sourcefacts/store),
// validates it lazily against the files' exact bytes into a snapshot, and
// opens the search index built for exactly that snapshot (the embedded
// SQLite backend, with vectors from the configured embedder, optionally in
// a Chroma server) — the first time deriving it from an earlier snapshot's
// index (only the files that changed rewritten) or,
// without one, building it whole. Refresh re-validates and moves to a new
// snapshot when the bytes changed.
//
// Every mode walks the tree the same way (sourcefacts' one skip policy);
// InMemory only puts the knowledge base in a temporary directory.
package project

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/rlm-dev/rlm/retrieval"
	"github.com/rlm-dev/rlm/retrieval/chroma"
	"github.com/rlm-dev/rlm/sourcefacts"
	"github.com/rlm-dev/rlm/sourcefacts/store"
)

// Options configure Open.
type Options struct {
	// DBPath is the knowledge base file; "" means DefaultDBPath(root).
	// Search indexes are kept beside it.
	DBPath string
	// InMemory keeps the knowledge base and search index in a temporary
	// directory that Close removes: nothing is written under the root.
	InMemory bool
	// Embedder, when set, embeds every definition so that the vector and
	// hybrid strategies are available. Its Dimensions must be known. Open
	// embeds ProbeText once to tell its vector space apart (see
	// Endpointer): an embedder that cannot answer fails Open.
	Embedder retrieval.Embedder
	// Chroma, when set, keeps the vectors in a Chroma server (Embedder is
	// then required). Exact, lexical and graph stay in the embedded
	// backend; a Chroma hit counts only if its content hash is the file's
	// hash in the current snapshot.
	Chroma *chroma.Config
	// RequireCurrent refuses a snapshot with stale, partial or unparsable
	// files in it (a *store.NotCurrentError naming them).
	RequireCurrent bool
	// TrustStat lets validation skip hashing files whose size, mtime and
	// inode are unchanged (git's racy-clean rule); never with
	// RequireCurrent.
	TrustStat bool
	// Files says which files belong to the project: sourcefacts' one walk
	// and skip policy (VCS and build directories, virtual environments,
	// .gitignore/.ignore, ...). The zero value takes every supported
	// language with the default skips; set IncludeIgnored etc. to widen it.
	Files sourcefacts.Lister
	// MaxFileBytes is the size cap: files larger than this many bytes are
	// not parsed but recorded as skipped ("too large: ..."; see
	// Project.Skipped, Status.Skipped). 0 means
	// sourcefacts.DefaultMaxFileBytes (4 MiB); negative means no cap
	// beyond sourcefacts.MaxParseBytes.
	MaxFileBytes int64
	// Progress, if set, is told what Open and Refresh are doing.
	Progress func(Progress)
	// RetryVectorsAfter is how long after an embedder failed on a
	// snapshot (recorded beside the knowledge base: VectorFailure) every
	// process opens that snapshot's index without vectors rather than try
	// the same embedder again (0: RetryVectorsAfter).
	RetryVectorsAfter time.Duration

	// madeIndex, if set (by this package's tests), is called with the
	// path of a search index just built or updated, before it is opened.
	madeIndex func(searchPath string)
	// heldDocs, if set (by this package's tests), is called whenever a
	// search index build or update has made or let go of documents, with
	// how many it holds that are not yet written (see fillIndex).
	heldDocs func(held int)
	// batchDocs, if not 0 (this package's tests), is the number of
	// documents a batch of fillIndex writes instead of buildBatch.
	batchDocs int
	// writingBatch, if set (by this package's tests), is called before
	// fillIndex writes each batch, on the goroutine that writes it.
	writingBatch func()
}

// Progress reports work in phases: PhaseCheck while files are hashed
// against the knowledge base (and re-extracted when changed); PhaseBuild
// while a search index is built whole for a new snapshot (Done of Total
// files resolved and written), or PhaseUpdate while it is derived from an
// earlier snapshot's (Done of Total changed, added or removed files
// written; of every file resolved when the update has to resolve the
// whole tree); then PhaseDone.
type Progress struct {
	Phase       string
	Done, Total int
}

// Progress phases.
const (
	PhaseCheck  = "check"
	PhaseBuild  = "build"
	PhaseUpdate = "update"
	PhaseDone   = "done"
)

// Stats describe the current snapshot and the last Open or Refresh.
type Stats struct {
	Files   int   // files in the snapshot
	Bytes   int64 // their source bytes
	Symbols int   // definitions in the knowledge base
	Refs    int   // references (calls, type uses) in the knowledge base
	Partial int   // files parsed with syntax errors
	Errors  int   // files that could not be parsed
	Stale   int   // files written but not flushed
	// Skipped counts the files deliberately not parsed: over the size
	// cap, of another language under a shared extension (a Perl .pl), or
	// scripts of a language rlm does not read.
	Skipped int
	// Check is the time spent validating the snapshot against the files;
	// Build the time spent opening or building its search index.
	Check, Build time.Duration
	// Reused is true when the search index of this snapshot was already
	// built.
	Reused bool
	// DerivedFrom is the generation whose search index this snapshot's was
	// updated from (only the files that differ rewritten); 0 when it was
	// built whole or Reused. IndexFiles counts the files whose documents
	// the build or update wrote or removed (0 with Reused); IndexChanged
	// the files whose facts changed since the index it was derived from
	// (new, edited or gone; every file for a build), IndexResolved the
	// files whose calls it resolved: the changed ones still present and
	// those whose calls resolve through what the changed files define or
	// defined (a file that calls a deleted function is resolved again,
	// and written if its documents changed).
	DerivedFrom                 int64
	IndexFiles                  int
	IndexChanged, IndexResolved int
}

// Project is one source tree's knowledge base, current snapshot and search
// index. Safe for concurrent use: View and Refresh exclude each other.
type Project struct {
	root     string
	realRoot string // root with symbolic links resolved
	kbDir    string // the knowledge base's directory (absolute)
	kbName   string // the knowledge base's file name
	opts     Options
	st       *store.Store
	done     func() // releases the extractor
	tmp      string // InMemory: the temporary directory
	// embedderID names the embedder's vector space in search index file
	// names (embedderIdentity); "" until a probe succeeded.
	embedderID string

	// refreshMu serialises Refresh and Close: Close waits for a Refresh
	// under way, and a Refresh after Close returns store.ErrClosed.
	refreshMu sync.Mutex
	closed    bool

	mu      sync.RWMutex // guards the fields below; View holds it shared
	id      store.Identity
	current map[string]string // path -> content hash string, of the snapshot
	gens    map[string]int64  // path -> file generation, of the snapshot
	index   *searchIndex
	stats   Stats
	skipped []store.FileState       // the snapshot's skipped files
	faults  []sourcefacts.PathFault // what the last validation's walk could not see
	pending []store.FileState       // read-only knowledge base: files not brought up to date

	vectors VectorState // of the open search index's Chroma collection

	staleHits atomic.Int64
}

// Open opens root's knowledge base, validates it against the files' bytes
// (unchanged files reused, changed ones re-extracted, a new generation
// published only if something changed) and opens the search index of that
// snapshot, building it the first time. Errors: the store's
// (*store.NotCurrentError with RequireCurrent, *store.SchemaError, ...),
// the backend's, or a plain error for a root that is not a directory.
func Open(ctx context.Context, root string, opts Options) (*Project, error) {
	abs, err := filepath.Abs(root)
	if err != nil {
		return nil, fmt.Errorf("project: open %s: %w", root, err)
	}
	if fi, err := os.Stat(abs); err != nil {
		return nil, fmt.Errorf("project: open %s: %w", root, err)
	} else if !fi.IsDir() {
		return nil, fmt.Errorf("project: open %s: not a directory", root)
	}
	if opts.Chroma != nil && opts.Embedder == nil {
		return nil, fmt.Errorf("project: a Chroma backend needs an embedder")
	}
	if opts.Embedder != nil {
		opts.Embedder = guardedEmbedder{Embedder: opts.Embedder, memo: newQueryMemo()}
	}
	p := &Project{root: abs, opts: opts}
	if p.realRoot, err = filepath.EvalSymlinks(abs); err != nil {
		return nil, fmt.Errorf("project: open %s: %w", root, err)
	}
	dbPath := opts.DBPath
	if opts.InMemory {
		if p.tmp, err = os.MkdirTemp("", "rlm-kb-*"); err != nil {
			return nil, fmt.Errorf("project: open %s: %w", root, err)
		}
		dbPath = filepath.Join(p.tmp, "kb.sqlite")
	}
	if p.st, p.done, err = OpenStore(ctx, abs, dbPath, opts.Files, opts.MaxFileBytes); err != nil {
		p.removeTmp()
		return nil, fmt.Errorf("project: open %s: %w", root, err)
	}
	kb, err := filepath.Abs(p.st.DBPath())
	if err != nil {
		p.Close()
		return nil, fmt.Errorf("project: open %s: %w", root, err)
	}
	p.kbDir, p.kbName = filepath.Dir(kb), filepath.Base(kb)
	if _, err := p.Refresh(ctx); err != nil {
		p.Close()
		return nil, err
	}
	return p, nil
}

// OpenStore opens the knowledge base of absRoot (dbPath "" means
// DefaultDBPath) for every language sourcefacts supports, with the files
// the lister selects and the size cap maxFileBytes (see
// Options.MaxFileBytes). Call done after closing the store: it releases the
// extractor.
func OpenStore(ctx context.Context, absRoot, dbPath string, files sourcefacts.Lister, maxFileBytes int64) (st *store.Store, done func(), err error) {
	if dbPath == "" {
		dbPath = DefaultDBPath(absRoot)
	}
	if err := notASourceFile(absRoot, dbPath, files); err != nil {
		return nil, nil, err
	}
	if err := os.MkdirAll(filepath.Dir(dbPath), 0o755); err == nil {
		ignoreKBDir(filepath.Dir(dbPath))
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
		Lister:           files,
		MaxFileBytes:     maxFileBytes,
	})
	if err != nil {
		ex.Close()
		return nil, nil, err
	}
	return st, ex.Close, nil
}

// notASourceFile refuses a knowledge base path that names an existing
// file the tree's listing selects and that is no SQLite database (an
// empty __init__.py): SQLite would make it a database, the source's
// bytes lost. (A knowledge base the listing selects, beside the sources
// with a lister that takes every file, is kept out of the tree's facts
// by the store.)
func notASourceFile(absRoot, dbPath string, files sourcefacts.Lister) error {
	abs, err := filepath.Abs(dbPath)
	if err != nil {
		return err
	}
	rel, err := filepath.Rel(absRoot, abs)
	if err != nil || !filepath.IsLocal(rel) || !files.Includes(absRoot, filepath.ToSlash(rel)) {
		return nil // outside the tree, or no file of its listing
	}
	f, err := os.Open(abs)
	if err != nil {
		return nil // absent (created as a database), or the store reports why
	}
	defer f.Close()
	head := make([]byte, len(sqliteHeader))
	if n, _ := io.ReadFull(f, head); n == len(head) && string(head) == sqliteHeader {
		return nil
	}
	return fmt.Errorf("the knowledge base path %s is a source file of the tree, not a database (choose a path outside the tree, or .rlm/kb.sqlite)", dbPath)
}

// Root is the tree's absolute path.
func (p *Project) Root() string { return p.root }

// DBPath is the knowledge base file's absolute path (ROOT/.rlm/kb.sqlite,
// the user cache for a tree that cannot hold it, a temporary directory
// with InMemory, or Options.DBPath).
func (p *Project) DBPath() string { return filepath.Join(p.kbDir, p.kbName) }

// Store is the knowledge base (for status and harness writes).
func (p *Project) Store() *store.Store { return p.st }

// Snapshot is the identity of the snapshot the search index shows.
func (p *Project) Snapshot() store.Identity {
	p.mu.RLock()
	defer p.mu.RUnlock()
	return p.id
}

// FileHash is the content hash (sourcefacts.ContentHash's string form) of
// the file at the slash path rel in the current snapshot, or "" and false
// when the snapshot has no such file.
func (p *Project) FileHash(rel string) (string, bool) {
	p.mu.RLock()
	defer p.mu.RUnlock()
	h, ok := p.current[rel]
	return h, ok
}

// Stats describe the current snapshot.
func (p *Project) Stats() Stats {
	p.mu.RLock()
	defer p.mu.RUnlock()
	return p.stats
}

// FileVersion is a file as the current snapshot sees it.
type FileVersion struct {
	Hash       string // content hash (sourcefacts.ContentHash's string form)
	Generation int64  // file generation: bumps whenever the hash changes
}

// Files returns the current snapshot's identity and a copy of its files
// (slash path relative to the root -> version), read together.
func (p *Project) Files() (store.Identity, map[string]FileVersion) {
	p.mu.RLock()
	defer p.mu.RUnlock()
	out := make(map[string]FileVersion, len(p.current))
	for path, h := range p.current {
		out[path] = FileVersion{Hash: h, Generation: p.gens[path]}
	}
	return p.id, out
}

// Version returns the current snapshot's version of the file at the slash
// path rel, if the snapshot has it.
func (p *Project) Version(rel string) (FileVersion, bool) {
	p.mu.RLock()
	defer p.mu.RUnlock()
	h, ok := p.current[rel]
	return FileVersion{Hash: h, Generation: p.gens[rel]}, ok
}

// Skipped lists the current snapshot's files that were deliberately not
// parsed (Status sourcefacts.StatusSkipped; Error the reason, starting with
// sourcefacts.SkipTooLarge, SkipNotOurs or SkipNoLanguage), by path.
func (p *Project) Skipped() []store.FileState {
	p.mu.RLock()
	defer p.mu.RUnlock()
	return slices.Clone(p.skipped)
}

// Faults lists the paths the last validation's walk could not see (a
// directory it could not read, a special file, a link it could not
// resolve; see sourcefacts.PathFault), by path. The rest of the tree is in
// the snapshot.
func (p *Project) Faults() []sourcefacts.PathFault {
	p.mu.RLock()
	defer p.mu.RUnlock()
	return slices.Clone(p.faults)
}

// ReadOnlyPending lists, when the knowledge base file cannot be written,
// the files whose bytes differ from its last generation (new, changed or
// deleted since; Status store.StatusStale, Error starting with
// store.ReadOnlyReason): answers come from that generation and cannot see
// them. Empty when the knowledge base is writable.
func (p *Project) ReadOnlyPending() []store.FileState {
	p.mu.RLock()
	defer p.mu.RUnlock()
	return slices.Clone(p.pending)
}

// readOnlyPending is ReadOnlyPending of snapshot sn of st.
func readOnlyPending(ctx context.Context, st *store.Store, sn *store.Snapshot) ([]store.FileState, error) {
	if !st.ReadOnly() {
		return nil, nil
	}
	nc, err := sn.NotCurrent(ctx)
	return slices.DeleteFunc(nc, func(f store.FileState) bool { return !strings.HasPrefix(f.Error, store.ReadOnlyReason) }), err
}

// StaleHits counts vector hits from a Chroma server that were dropped
// because their content hash was not the current one.
func (p *Project) StaleHits() int64 { return p.staleHits.Load() }

// Capabilities are the search index's (the zero value after Close).
func (p *Project) Capabilities() retrieval.Capabilities {
	p.mu.RLock()
	defer p.mu.RUnlock()
	if p.index == nil {
		return retrieval.Capabilities{}
	}
	return p.index.backend.Capabilities()
}

// View calls fn with the search index of the current snapshot and that
// snapshot's identity; Refresh waits until fn returns. fn must not keep b.
// When fn's error says the index file is damaged (SQLITE_CORRUPT, or
// embedded.ErrDamaged), View returns it wrapped with ErrCorruptIndex and
// removes the file (derived data: the next Refresh, in this process or
// another, makes it again from the knowledge base).
func (p *Project) View(fn func(b retrieval.Backend, id store.Identity) error) error {
	p.mu.RLock()
	defer p.mu.RUnlock()
	if p.index == nil {
		return store.ErrClosed
	}
	err := fn(p.index.backend, p.id)
	if err == nil {
		return nil
	}
	if c := asCorrupt(err); errors.Is(c, ErrCorruptIndex) {
		if p.index.path != "" && !p.index.damaged.Swap(true) {
			removeIndexFiles(p.index.path)
		}
		return c
	}
	return err
}

// Refresh validates the knowledge base against the files' bytes and, if
// the snapshot changed, moves to the new snapshot's search index (built if
// needed). It reports whether the snapshot changed. On an index built
// without vectors (the embedder failed; VectorsUnavailable) it tries the
// embedder again once RetryVectorsAfter has passed, on the same snapshot.
// After Close it returns store.ErrClosed.
func (p *Project) Refresh(ctx context.Context) (bool, error) {
	p.refreshMu.Lock()
	defer p.refreshMu.Unlock()
	if p.closed {
		return false, fmt.Errorf("project: refresh %s: %w", p.root, store.ErrClosed)
	}
	start := time.Now()
	// The search index is made from the facts of the files this check
	// publishes, read right after it: held in memory, they are decoded
	// rather than read back through SQLite (the search index build of a
	// cold GOROOT/src spent 21.7 s of CPU reading them, twice).
	so := store.SnapshotOptions{RequireCurrent: p.opts.RequireCurrent, TrustStat: p.opts.TrustStat && !p.opts.RequireCurrent, HoldFacts: true}
	if p.opts.Progress != nil {
		so.Progress = func(done, total int) { p.opts.Progress(Progress{Phase: PhaseCheck, Done: done, Total: total}) }
	}
	sn, err := p.st.Snapshot(ctx, store.All(), so)
	if err != nil {
		return false, fmt.Errorf("project: snapshot %s: %w", p.root, err)
	}
	defer sn.Close()
	id := sn.Identity()
	pending, err := readOnlyPending(ctx, p.st, sn)
	if err != nil {
		return false, fmt.Errorf("project: snapshot %s: %w", p.root, err)
	}
	p.mu.Lock()
	p.faults, p.pending = sn.Faults(), pending
	p.mu.Unlock()
	p.mu.RLock()
	same := p.index != nil && p.id.Generation == id.Generation && p.id.Fingerprint == id.Fingerprint && !p.index.damaged.Load()
	retry := same && p.index.retryVectors(p.retryAfter())
	p.mu.RUnlock()
	if same && !retry {
		return false, nil
	}
	files, err := sn.Files(ctx)
	if err != nil {
		return false, fmt.Errorf("project: snapshot %s: %w", p.root, err)
	}
	stats := Stats{Files: len(files), Check: time.Since(start)}
	current := make(map[string]string, len(files))
	gens := make(map[string]int64, len(files))
	var skipped []store.FileState
	for _, f := range files {
		current[f.Path] = f.Hash.String()
		gens[f.Path] = f.FileGeneration
		stats.Bytes += f.Hash.Len
		switch f.Status {
		case sourcefacts.StatusPartial:
			stats.Partial++
		case sourcefacts.StatusError:
			stats.Errors++
		case store.StatusStale:
			stats.Stale++
		case sourcefacts.StatusSkipped:
			stats.Skipped++
			skipped = append(skipped, f)
		}
	}
	// The knowledge base's counts (a scan of its symbols and refs) are
	// read while the search index is opened or updated.
	counts := make(chan store.Stats, 1)
	go func() {
		ss, _ := p.st.Stats(ctx)
		counts <- ss
	}()
	t := time.Now()
	ix, how, err := p.openSearchIndex(ctx, sn, id, files, current, retry)
	build := time.Since(t)
	ss := <-counts
	if err != nil {
		return false, err
	}
	stats.Symbols, stats.Refs = ss.Symbols, ss.References
	stats.Build, stats.Reused, stats.DerivedFrom, stats.IndexFiles = build, how.Reused, how.From, how.Files
	stats.IndexChanged, stats.IndexResolved = how.Changed, how.Resolved
	if p.opts.Progress != nil {
		p.opts.Progress(Progress{Phase: PhaseDone, Done: len(files), Total: len(files)})
	}
	p.mu.Lock()
	old := p.index
	p.index, p.id, p.current, p.gens, p.stats, p.skipped = ix, id, current, gens, stats, skipped
	p.vectors = ix.vectors
	p.mu.Unlock()
	old.close()
	removeOldSearchIndexes(filepath.Dir(p.st.DBPath()), id)
	return !same, nil
}

// Close releases the search index and the knowledge base, and removes an
// InMemory project's temporary directory.
func (p *Project) Close() error {
	p.refreshMu.Lock()
	defer p.refreshMu.Unlock()
	p.closed = true
	p.mu.Lock()
	defer p.mu.Unlock()
	err := p.index.close()
	p.index = nil
	if p.st != nil {
		err = errors.Join(err, p.st.Close())
		p.st = nil
	}
	if p.done != nil {
		p.done()
		p.done = nil
	}
	p.removeTmp()
	return err
}

func (p *Project) removeTmp() {
	if p.tmp != "" {
		os.RemoveAll(p.tmp)
		p.tmp = ""
	}
}
