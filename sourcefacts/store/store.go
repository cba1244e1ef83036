// Package store is the persistent source knowledge base of one project: a
// SQLite database (WAL mode) of the facts sourcefacts extracts, bound to the
// exact bytes they came from, that never serves stale facts as current.
//
// The model:
//
//   - Every file has a stable id, the content hash (XXH64 + length) of the
//     bytes its facts came from, a file generation that bumps when that hash
//     changes and a status (current, partial, error, or stale while dirty).
//     A file's facts are one row (the facts table, schema 7: its packed
//     definitions, references and imports, deflated) carrying the file
//     generation they belong to.
//   - A project generation is a published state of all files. Publishing
//     one is a single transaction: changed files' rows and facts replaced,
//     a generations row (number, fingerprint over the sorted path→hash list,
//     publish time) inserted, the current_generation pointer moved.
//   - Store.Snapshot validates its scope lazily against the bytes on disk
//     (hash every file, reuse unchanged ones, re-extract changed ones,
//     publish if anything changed) and returns an immutable view that holds
//     a read transaction, so it never sees a later generation. No watcher or
//     daemon is needed; SourceChangeHint only narrows explicitly hinted
//     snapshots.
//   - Publishing is optimistic: just before commit every changed file is
//     re-read and re-hashed; if it no longer hashes to what was extracted
//     the candidate is discarded and the file re-extracted (bounded, then
//     *StaleError).
//   - Harness writes go through ApplyPatch (expected-hash check, atomic
//     rename) into a dirty journal kept in the database; dirty files read as
//     stale until Flush publishes them all in one generation.
//   - A snapshot that requires current evidence fails with *NotCurrentError
//     naming every stale, partial, error or dirty file in scope.
//
// A Store is safe for concurrent use, and several processes may open the
// same database: writers serialise on SQLite's write lock (BEGIN IMMEDIATE,
// busy timeout), readers never block them.
package store

import (
	"context"
	"database/sql"
	"encoding/binary"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/cespare/xxhash/v2"
	"github.com/rlm-dev/rlm/sourcefacts"

	_ "modernc.org/sqlite" // registers the "sqlite" database/sql driver
)

// Extractor turns one file's exact bytes into facts. path is slash-separated
// and relative to the project root. Per-file failures (binary, unparsable)
// must be reported as FileFacts with StatusError or StatusPartial; a non-nil
// error means the extractor cannot run at all (ctx done, closed) and aborts
// the validation. *sourcefacts.Extractor satisfies it. It must be safe for
// concurrent use.
type Extractor interface {
	Extract(ctx context.Context, path string, src []byte) (*sourcefacts.FileFacts, error)
}

// Defaults for Options.
const (
	DefaultJournalLimit       = 256
	DefaultMaxPublishAttempts = 3
	DefaultBusyTimeout        = 10 * time.Second
	// maxJournalPatchBytes caps the patch text kept with a journal entry.
	maxJournalPatchBytes = 64 << 10
)

// Options configures Open. The zero value is usable.
type Options struct {
	// DBPath is the database file. Default: <root>/.rlm/kb.sqlite (its
	// directory is created).
	DBPath string
	// Project is stamped into every Provenance.Project. Default: the
	// absolute root path.
	Project string
	// Extractor extracts facts. Default: sourcefacts.NewGoExtractor(),
	// closed by Store.Close; an Extractor passed in is not closed.
	Extractor Extractor
	// ExtractorVersion, when set, is compared with the Provenance.Extractor
	// stored for each file: a file stored under another version is
	// re-extracted even if its bytes did not change. Default:
	// sourcefacts.ExtractorVersion when Extractor is nil, else none.
	ExtractorVersion string
	// Lister says which files are in the project. Default: the Go files
	// (names ending in ".go") that sourcefacts.Lister's skip policy keeps;
	// sourcefacts.Lister{} keeps every supported language (pair it with
	// sourcefacts.NewExtractor()). Unlike sourcefacts.Walk by default, the
	// store indexes generated files: their facts are real source.
	Lister Lister
	// MaxFileBytes is the size cap: the largest file, in bytes, handed to
	// the extractor. Larger files are recorded as skipped
	// (sourcefacts.StatusSkipped, "too large: N bytes, over the size cap
	// of M"; see Snapshot.Skipped), their hash still computed from all
	// their bytes. A cap given is kept in the knowledge base; 0 means the
	// cap kept from the last open that gave one, else
	// sourcefacts.DefaultMaxFileBytes (4 MiB); negative means no limit
	// beyond sourcefacts.MaxParseBytes.
	MaxFileBytes int64
	// Workers is how many files are hashed and extracted at once. 0 means
	// runtime.GOMAXPROCS(0).
	Workers int
	// MaxPublishAttempts bounds the optimistic publish: how many times in a
	// row a file may be found changed between extraction and commit before
	// the publish fails with *StaleError. 0 means DefaultMaxPublishAttempts.
	MaxPublishAttempts int
	// JournalLimit bounds the dirty journal, in edits. When it is full the
	// next ApplyPatch, MarkDirty or CommitEdit first flushes (publishing
	// one generation), so the journal never holds more. 0 means
	// DefaultJournalLimit.
	JournalLimit int
	// BusyTimeout is how long a write waits for another process's write
	// lock. 0 means DefaultBusyTimeout.
	BusyTimeout time.Duration
}

// Store is one project's knowledge base. Create it with Open.
type Store struct {
	root      string // absolute, cleaned
	dbPath    string
	project   string
	db        *sql.DB
	ex        Extractor
	ownEx     *sourcefacts.Extractor
	exVersion string
	lister    Lister
	maxBytes  int64
	workers   int
	attempts  int
	jlimit    int

	// mu serialises validation, publish, flush and writes within this
	// process; other processes are serialised by SQLite's write lock.
	mu sync.Mutex
	// hold and held (guarded by mu): while hold is set, a committed
	// publish adds the packed facts it wrote to held (see
	// SnapshotOptions.HoldFacts).
	hold bool
	held map[string]heldFacts

	hintMu sync.Mutex
	hints  map[string]struct{}
	primed bool // a full validation of the whole project ran since Open

	closed atomic.Bool

	faultMu sync.Mutex
	faults  []sourcefacts.PathFault // the last walk's; see Snapshot.Faults

	// files keeps the last snapshot's files for the next one's Files.
	files filesCache
	// state keeps validation's stored state between checks (guarded by
	// mu; see priorState).
	state stateCache

	// readBufs holds the buffers of validation's reads (see bufPool).
	readBufs bufPool
	// releaseCMemory gives the C heap's free memory back after a check
	// extracted many files (sourcefacts.ReleaseFreedCMemory; tests count
	// its calls).
	releaseCMemory func() bool

	// readOnly: the database file cannot be written; validation records
	// the files that differ from the last generation in pending (path →
	// reason) instead of publishing (see readonly.go).
	readOnly atomic.Bool
	pendMu   sync.Mutex
	pending  map[string]string

	// beforePublish, if set (tests), is called with each changed file's
	// path just before it is re-read and re-hashed inside the publish
	// transaction.
	beforePublish func(path string)
	// afterCheck, if set (tests), is called when validation has read every
	// file and is about to publish.
	afterCheck func()
}

// isGoFile is the default Lister's Match: names ending in ".go".
func isGoFile(p string) bool { return strings.HasSuffix(p, ".go") }

// Open opens (creating or migrating as needed) the knowledge base of the
// project rooted at root, a directory. A database written by a newer build
// is refused with *SchemaError (errors.Is ErrSchemaTooNew).
func Open(ctx context.Context, root string, opts *Options) (*Store, error) {
	return open(ctx, root, opts, SchemaVersion)
}

func open(ctx context.Context, root string, opts *Options, version int) (*Store, error) {
	var o Options
	if opts != nil {
		o = *opts
	}
	abs, err := filepath.Abs(root)
	if err != nil {
		return nil, fmt.Errorf("store: open %q: %w", root, err)
	}
	if fi, err := os.Stat(abs); err != nil {
		return nil, fmt.Errorf("store: open: %w", err)
	} else if !fi.IsDir() {
		return nil, fmt.Errorf("store: open: %s is not a directory", abs)
	}
	s := &Store{
		root:      abs,
		dbPath:    o.DBPath,
		project:   o.Project,
		ex:        o.Extractor,
		exVersion: o.ExtractorVersion,
		lister:    o.Lister,
		maxBytes:  o.MaxFileBytes,
		workers:   o.Workers,
		attempts:  o.MaxPublishAttempts,
		jlimit:    o.JournalLimit,
		hints:     map[string]struct{}{},

		releaseCMemory: sourcefacts.ReleaseFreedCMemory,
	}
	if s.dbPath == "" {
		s.dbPath = filepath.Join(abs, ".rlm", "kb.sqlite")
	}
	if s.dbPath, err = filepath.Abs(s.dbPath); err != nil {
		return nil, fmt.Errorf("store: open: %w", err)
	}
	if err := os.MkdirAll(filepath.Dir(s.dbPath), 0o755); err != nil {
		return nil, fmt.Errorf("store: open: %w", err)
	}
	s.readOnly.Store(fileReadOnly(s.dbPath))
	if s.project == "" {
		s.project = abs
	}
	if s.lister == nil {
		s.lister = sourcefacts.Lister{Match: isGoFile}
	}
	if s.workers <= 0 {
		s.workers = runtime.GOMAXPROCS(0)
	}
	if s.attempts <= 0 {
		s.attempts = DefaultMaxPublishAttempts
	}
	if s.jlimit <= 0 {
		s.jlimit = DefaultJournalLimit
	}
	busy := o.BusyTimeout
	if busy <= 0 {
		busy = DefaultBusyTimeout
	}

	s.db, err = sql.Open("sqlite", dsn(s.dbPath, busy))
	if err != nil {
		return nil, fmt.Errorf("store: open %s: %w", s.dbPath, err)
	}
	// Each open Snapshot holds one connection for its lifetime.
	s.db.SetMaxIdleConns(4)
	// Opening a new database (switching it to WAL, creating the schema)
	// needs an exclusive lock that SQLite's busy handler does not always
	// wait for when several processes open the same new file at once:
	// retry a locked open until the busy timeout has passed.
	deadline := time.Now().Add(busy)
	err = migrate(ctx, s.db, s.dbPath, version)
	for delay := 20 * time.Millisecond; err != nil && isLocked(err) && time.Now().Before(deadline); delay = min(2*delay, 500*time.Millisecond) {
		select {
		case <-ctx.Done():
		case <-time.After(delay):
		}
		if ctx.Err() != nil {
			break
		}
		err = migrate(ctx, s.db, s.dbPath, version)
	}
	if err != nil {
		s.db.Close()
		var se *SchemaError
		if errors.As(err, &se) {
			return nil, err
		}
		return nil, fmt.Errorf("store: open %s: %w", s.dbPath, err)
	}
	if err := s.sizeCap(ctx, version >= 4); err != nil {
		s.db.Close()
		return nil, fmt.Errorf("store: open %s: %w", s.dbPath, err)
	}
	if s.ex == nil {
		ex, err := sourcefacts.NewGoExtractor()
		if err != nil {
			s.db.Close()
			return nil, fmt.Errorf("store: open: %w", err)
		}
		s.ex, s.ownEx = ex, ex
		if s.exVersion == "" {
			s.exVersion = sourcefacts.ExtractorVersion
		}
	}
	return s, nil
}

// isLocked reports whether err is SQLite's SQLITE_BUSY or SQLITE_LOCKED.
func isLocked(err error) bool {
	msg := err.Error()
	return strings.Contains(msg, "SQLITE_BUSY") || strings.Contains(msg, "SQLITE_LOCKED") || strings.Contains(msg, "database is locked")
}

// dsn builds a file: URI for modernc.org/sqlite: WAL, synchronous FULL
// (a commit survives power loss, so a recorded dirty mark does too), busy
// timeout, and BEGIN IMMEDIATE for write transactions so that writers take
// the lock up front and never deadlock on an upgrade; read-only
// transactions (snapshots) still begin deferred.
func dsn(dbPath string, busy time.Duration) string {
	q := url.Values{}
	q.Add("_pragma", fmt.Sprintf("busy_timeout(%d)", busy.Milliseconds()))
	q.Add("_pragma", "journal_mode(WAL)")
	q.Add("_pragma", "synchronous(FULL)")
	q.Set("_txlock", "immediate")
	p := filepath.ToSlash(dbPath)
	if !strings.HasPrefix(p, "/") {
		p = "/" + p
	}
	u := url.URL{Scheme: "file", Path: p, RawQuery: q.Encode()}
	return u.String()
}

// Close closes the database and, if the Store created it, the extractor.
// Open snapshots must be closed first. Close is idempotent.
func (s *Store) Close() error {
	if s.closed.Swap(true) {
		return nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.dropState()
	err := s.db.Close()
	if s.ownEx != nil {
		s.ownEx.Close()
	}
	return err
}

// Root is the project root, absolute.
func (s *Store) Root() string { return s.root }

// DBPath is the database file, absolute.
func (s *Store) DBPath() string { return s.dbPath }

// Project is the name stamped into Provenance.Project.
func (s *Store) Project() string { return s.project }

// rel turns a path given by a caller (slash- or OS-separated, relative to
// the root or absolute inside it) into a clean slash-separated relative path
// and its absolute form.
func (s *Store) rel(p string) (rel, abs string, err error) {
	if p == "" {
		return "", "", fmt.Errorf("store: empty path")
	}
	fp := filepath.FromSlash(p)
	if filepath.IsAbs(fp) {
		r, err := filepath.Rel(s.root, filepath.Clean(fp))
		if err != nil {
			return "", "", fmt.Errorf("%w: %s", ErrOutsideRoot, p)
		}
		fp = r
	}
	fp = filepath.Clean(fp)
	if !filepath.IsLocal(fp) {
		return "", "", fmt.Errorf("%w: %s", ErrOutsideRoot, p)
	}
	return filepath.ToSlash(fp), filepath.Join(s.root, fp), nil
}

func (s *Store) abs(rel string) string { return filepath.Join(s.root, filepath.FromSlash(rel)) }

// PathHash is one entry of a fingerprinted file→hash map.
type PathHash struct {
	Path string // slash-separated, relative to the root
	Hash sourcefacts.ContentHash
}

// Fingerprint is the XXH64 of the entries sorted by Path, each encoded as
// the path's bytes, a NUL, then XXH64 and length as 8-byte big-endian
// integers. It identifies a project generation's file→hash map; entries is
// not modified.
func Fingerprint(entries []PathHash) uint64 {
	sorted := entries
	if !slices.IsSortedFunc(entries, func(a, b PathHash) int { return strings.Compare(a.Path, b.Path) }) {
		sorted = slices.Clone(entries)
		slices.SortFunc(sorted, func(a, b PathHash) int { return strings.Compare(a.Path, b.Path) })
	}
	fw := newFingerprinter()
	for _, e := range sorted {
		fw.add(e.Path, e.Hash)
	}
	return fw.sum()
}

// fingerprinter writes Fingerprint's encoding of entries given in path
// order: the one encoding of Fingerprint and fingerprintAfter.
type fingerprinter struct {
	d   *xxhash.Digest
	buf [17]byte
}

func newFingerprinter() *fingerprinter { return &fingerprinter{d: xxhash.New()} }

// add writes the entry of path with hash h.
func (fw *fingerprinter) add(path string, h sourcefacts.ContentHash) {
	fw.d.WriteString(path)
	fw.buf[0] = 0
	binary.BigEndian.PutUint64(fw.buf[1:], h.XXH64)
	binary.BigEndian.PutUint64(fw.buf[9:], uint64(h.Len))
	fw.d.Write(fw.buf[:])
}

func (fw *fingerprinter) sum() uint64 { return fw.d.Sum64() }

// querier is *sql.DB, *sql.Tx or *sql.Conn.
type querier interface {
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

// fingerprintOf computes the fingerprint of the present files as q sees
// them.
func fingerprintOf(ctx context.Context, q querier) (fp uint64, n int, err error) {
	rows, err := q.QueryContext(ctx, `SELECT path, hash, len FROM files WHERE present = 1 ORDER BY path`)
	if err != nil {
		return 0, 0, err
	}
	defer rows.Close()
	var entries []PathHash
	for rows.Next() {
		var e PathHash
		var h int64
		if err := rows.Scan(&e.Path, &h, &e.Hash.Len); err != nil {
			return 0, 0, err
		}
		e.Hash.XXH64 = uint64(h)
		entries = append(entries, e)
	}
	if err := rows.Err(); err != nil {
		return 0, 0, err
	}
	// ORDER BY path uses SQLite's BINARY collation: byte order, as Go's.
	return Fingerprint(entries), len(entries), nil
}

// Stats describes the stored knowledge base.
type Stats struct {
	Generation  int64 // current project generation
	Files       int   // present files
	SourceBytes int64 // sum of their lengths, in bytes
	Symbols     int
	References  int
	Imports     int
	Dirty       int   // paths in the dirty journal
	DBBytes     int64 // database size in bytes: page_count × page_size (the WAL not counted)
	WALBytes    int64 // size of the WAL file on disk, in bytes (not yet checkpointed, or reusable)
}

// Stats reports sizes and counts of the current state.
func (s *Store) Stats(ctx context.Context) (Stats, error) {
	if s.closed.Load() {
		return Stats{}, ErrClosed
	}
	var (
		st              Stats
		pages, pageSize int64
		err             error
	)
	if s.mu.TryLock() {
		// The fact counts kept since the last count, when they are still
		// the database's (a scan of every fact row otherwise).
		st, err = s.keptStats(ctx)
		s.mu.Unlock()
	} else {
		// A check or publish is under way: counted on the side.
		err = scanStats(ctx, s.db, &st, true)
	}
	if err == nil {
		err = s.db.QueryRowContext(ctx, `SELECT page_count * 1, (SELECT page_size FROM pragma_page_size()) FROM pragma_page_count()`).Scan(&pages, &pageSize)
	}
	if err != nil {
		return Stats{}, fmt.Errorf("store: stats: %w", err)
	}
	st.DBBytes = pages * pageSize
	if fi, err := os.Stat(s.dbPath + "-wal"); err == nil {
		st.WALBytes = fi.Size()
	}
	return st, nil
}

// Verify checks the database: SQLite's integrity_check, the
// current_generation pointer names an existing generation whose
// fingerprint matches the present files' hashes, and every fact belongs to
// a present file and carries that file's generation. A failure wraps
// ErrCorrupt.
func (s *Store) Verify(ctx context.Context) error {
	if s.closed.Load() {
		return ErrClosed
	}
	conn, err := s.db.Conn(ctx)
	if err != nil {
		return err
	}
	defer conn.Close()
	tx, err := conn.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return err
	}
	defer tx.Rollback()
	var ic string
	if err := tx.QueryRowContext(ctx, "PRAGMA integrity_check").Scan(&ic); err != nil {
		return err
	}
	if ic != "ok" {
		return fmt.Errorf("%w: integrity_check: %s", ErrCorrupt, ic)
	}
	var gen, fp int64
	if err := tx.QueryRowContext(ctx, `SELECT g.gen, g.fingerprint FROM current_generation c JOIN generations g ON g.gen = c.gen WHERE c.id = 1`).Scan(&gen, &fp); err != nil {
		return fmt.Errorf("%w: current generation: %v", ErrCorrupt, err)
	}
	got, _, err := fingerprintOf(ctx, tx)
	if err != nil {
		return err
	}
	if got != uint64(fp) {
		return fmt.Errorf("%w: generation %d fingerprint %016x, files hash to %016x", ErrCorrupt, gen, uint64(fp), got)
	}
	var n int
	if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM facts x LEFT JOIN files f ON f.id = x.file_id
		WHERE f.id IS NULL OR f.present = 0 OR x.file_gen != f.file_gen`).Scan(&n); err != nil {
		return err
	}
	if n != 0 {
		return fmt.Errorf("%w: %d files' facts of another file generation or of a gone file", ErrCorrupt, n)
	}
	return nil
}

// SourceChangeHint tells the Store that path (relative to the root, or
// absolute inside it) may have changed, was created or was deleted. It is
// only an optimisation: it narrows the validation of the next snapshot taken
// with SnapshotOptions.Hinted to the hinted paths. Snapshots without Hinted
// always validate their whole scope. Paths outside the root are ignored.
func (s *Store) SourceChangeHint(p string) {
	rel, _, err := s.rel(p)
	if err != nil {
		return
	}
	s.hintMu.Lock()
	s.hints[rel] = struct{}{}
	s.hintMu.Unlock()
}

// takeHints removes and returns the hints in scope, and whether hints can
// be trusted (a full validation of the whole project ran since Open).
func (s *Store) takeHints(scope Scope) ([]string, bool) {
	s.hintMu.Lock()
	defer s.hintMu.Unlock()
	if !s.primed {
		return nil, false
	}
	out := []string{}
	for p := range s.hints {
		if scope.Match(p) {
			out = append(out, p)
			delete(s.hints, p)
		}
	}
	slices.Sort(out)
	return out, true
}

func (s *Store) restoreHints(ps []string) {
	s.hintMu.Lock()
	for _, p := range ps {
		s.hints[p] = struct{}{}
	}
	s.hintMu.Unlock()
}

// Scope selects files by path. The zero Scope (no Paths, no Prefixes) is the
// whole project; otherwise a file is in scope if its path equals one of
// Paths or lies under one of Prefixes.
type Scope struct {
	// Paths are exact slash-separated paths relative to the root.
	Paths []string
	// Prefixes are directories, slash-separated, relative to the root:
	// "net/http" matches "net/http/server.go" and "net/http/pprof/pprof.go"
	// but not "net/httpx/a.go". "" or "." matches everything.
	Prefixes []string
}

// All is the Scope of the whole project.
func All() Scope { return Scope{} }

// IsAll reports whether s selects the whole project.
func (s Scope) IsAll() bool {
	if len(s.Paths) == 0 && len(s.Prefixes) == 0 {
		return true
	}
	for _, p := range s.Prefixes {
		if p = path.Clean(p); p == "." || p == "/" {
			return true
		}
	}
	return false
}

// Match reports whether the slash-separated relative path p is in scope.
func (s Scope) Match(p string) bool {
	if s.IsAll() {
		return true
	}
	for _, q := range s.Paths {
		if path.Clean(q) == p {
			return true
		}
	}
	for _, q := range s.Prefixes {
		q = path.Clean(q)
		if p == q || strings.HasPrefix(p, q+"/") {
			return true
		}
	}
	return false
}

// covers reports whether the slash-separated directory d holds something
// in scope: one of Paths or Prefixes lies under it.
func (s Scope) covers(d string) bool {
	for _, q := range slices.Concat(s.Paths, s.Prefixes) {
		if strings.HasPrefix(path.Clean(q), d+"/") {
			return true
		}
	}
	return false
}

// errorFacts is the record of a file that could not be extracted.
func (s *Store) errorFacts(rel string, h sourcefacts.ContentHash, msg string) *sourcefacts.FileFacts {
	return &sourcefacts.FileFacts{
		Provenance: sourcefacts.Provenance{
			Project:   s.project,
			Path:      rel,
			Hash:      h,
			Extractor: s.exVersion,
		},
		Status:     sourcefacts.StatusError,
		Error:      msg,
		Symbols:    []sourcefacts.Symbol{},
		References: []sourcefacts.Reference{},
		Imports:    []sourcefacts.Import{},
	}
}

// tooLargeFacts is the record of a file over the size cap: skipped, with
// its language as sourcefacts.Detect decides it from the first bytes (and
// Detect's own reason to skip it, a Perl .pl, when it has one).
func (s *Store) tooLargeFacts(rel string, rr *readResult) *sourcefacts.FileFacts {
	ff := s.errorFacts(rel, rr.hash, "")
	d := sourcefacts.Detect(rel, rr.src)
	ff.Status = sourcefacts.StatusSkipped
	ff.Language, ff.Provenance.Grammar, ff.Provenance.LanguageBy = d.Language, d.Grammar, d.By
	ff.Error = d.Skip
	if ff.Error == "" {
		ff.Error = fmt.Sprintf("%s: %d bytes, over the size cap of %d", sourcefacts.SkipTooLarge, rr.hash.Len, s.maxBytes)
	}
	return ff
}

// extract runs the extractor on one read result. A read error becomes an
// error record, and so does an extractor panic; a file over the size cap
// becomes a skipped record. It returns an error only when the extractor
// cannot run (ctx done, closed).
func (s *Store) extract(ctx context.Context, rel string, rr *readResult) (ff *sourcefacts.FileFacts, err error) {
	switch {
	case rr.err != nil:
		return s.errorFacts(rel, sourcefacts.ContentHash{}, "read: "+rr.err.Error()), nil
	case rr.tooLarge:
		return s.tooLargeFacts(rel, rr), nil
	}
	func() {
		defer func() {
			if r := recover(); r != nil {
				ff, err = s.errorFacts(rel, rr.hash, fmt.Sprintf("extractor panic: %v", r)), nil
			}
		}()
		ff, err = s.ex.Extract(ctx, rel, rr.src)
	}()
	if err != nil {
		if ce := ctx.Err(); ce != nil {
			return nil, ce
		}
		return nil, fmt.Errorf("store: extract %s: %w", rel, err)
	}
	if ff == nil {
		return s.errorFacts(rel, rr.hash, "extractor returned no facts"), nil
	}
	switch ff.Status {
	case sourcefacts.StatusCurrent, sourcefacts.StatusPartial, sourcefacts.StatusError, sourcefacts.StatusSkipped:
	default:
		return s.errorFacts(rel, rr.hash, fmt.Sprintf("extractor returned status %q", ff.Status)), nil
	}
	// The hash is ours, of the exact bytes read, whatever the extractor
	// stamped.
	ff.Provenance.Hash = rr.hash
	ff.Provenance.Path = rel
	ff.Provenance.Project = s.project
	return ff, nil
}

// parallel runs fn(i) for i in [0, n) on up to workers goroutines and
// returns the first error; after an error the remaining calls are skipped.
func parallel(ctx context.Context, workers, n int, fn func(ctx context.Context, i int) error) error {
	if n == 0 {
		return nil
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var (
		next     atomic.Int64
		wg       sync.WaitGroup
		errOnce  sync.Once
		firstErr error
	)
	for range min(workers, n) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := int(next.Add(1) - 1)
				if i >= n || ctx.Err() != nil {
					return
				}
				if err := fn(ctx, i); err != nil {
					errOnce.Do(func() { firstErr = err; cancel() })
					return
				}
			}
		}()
	}
	wg.Wait()
	if firstErr != nil {
		return firstErr
	}
	return ctx.Err()
}

// sizeCap settles the size cap: Options.MaxFileBytes when given (and kept
// in the settings, unless the knowledge base is read-only), else the one
// kept by the last command that gave one, else the default; then bounded
// by sourcefacts.MaxParseBytes (negative: no cap of its own).
// settings is false for a store opened at a schema without them (tests).
func (s *Store) sizeCap(ctx context.Context, settings bool) error {
	const key = "max_file_bytes"
	if s.maxBytes != 0 && settings && !s.readOnly.Load() {
		if _, err := s.db.ExecContext(ctx, `INSERT INTO settings (key, value) VALUES (?, ?)
			ON CONFLICT (key) DO UPDATE SET value = excluded.value`, key, strconv.FormatInt(s.maxBytes, 10)); err != nil {
			return err
		}
	}
	if s.maxBytes == 0 && settings {
		var v string
		err := s.db.QueryRowContext(ctx, `SELECT value FROM settings WHERE key = ?`, key).Scan(&v)
		switch {
		case errors.Is(err, sql.ErrNoRows):
		case err != nil:
			return err
		default:
			s.maxBytes, _ = strconv.ParseInt(v, 10, 64)
		}
	}
	switch {
	case s.maxBytes == 0:
		s.maxBytes = sourcefacts.DefaultMaxFileBytes
	case s.maxBytes < 0 || s.maxBytes > sourcefacts.MaxParseBytes:
		s.maxBytes = sourcefacts.MaxParseBytes
	}
	return nil
}
