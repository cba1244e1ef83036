package store

import (
	"context"
	"database/sql"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"
	"unique"

	"github.com/rlm-dev/rlm/sourcefacts"
)

// SnapshotOptions configures Store.Snapshot. The zero value validates the
// whole scope by hashing every file and returns facts whatever their status.
type SnapshotOptions struct {
	// RequireCurrent demands current, complete evidence: after a full
	// validation by exact bytes (TrustStat and Hinted are ignored), any
	// file in scope that is stale (dirty), partial or error makes Snapshot
	// fail with *NotCurrentError (errors.Is ErrNotCurrent) instead of
	// returning old or incomplete facts.
	RequireCurrent bool
	// TrustStat lets validation skip reading a file whose size, mtime and
	// inode equal those recorded when its bytes were last hashed and whose
	// mtime is strictly older than that read (truncated to the second; git's
	// racy-clean rule). Faster, but a file changed with its size, mtime and
	// inode preserved goes unnoticed. Never used with RequireCurrent.
	TrustStat bool
	// Hinted narrows validation to the paths passed to SourceChangeHint
	// since they were last validated. It takes effect only once a full
	// validation of the whole project has run in this Store (before that,
	// unhinted changes are unknown) and never with RequireCurrent.
	Hinted bool
	// SkipValidation returns a view of the last published generation
	// without looking at the files at all: its facts may describe bytes
	// that have since changed. Ignored with RequireCurrent.
	SkipValidation bool
	// Progress, if set, is called as validation checks files: done of
	// total files hashed (and re-extracted if changed). Calls never
	// overlap, but come from the store's worker goroutines.
	Progress func(done, total int)
	// HoldFacts keeps the facts this validation publishes in memory, in
	// their packed form (a few tens of bytes per fact), until the
	// snapshot is closed: Snapshot.Facts of such a file decodes them
	// instead of reading its rows back from the database, and returns the
	// same FileFactsResult. For a caller that reads every changed file's
	// facts right after the check (the search index build); after a cold
	// check of GOROOT/src that is ≈ 60 MB held until Close.
	HoldFacts bool
}

// Identity names the generation a Snapshot shows.
type Identity struct {
	// Generation is the project generation: it increases by one with each
	// publication.
	Generation int64
	// Fingerprint is Fingerprint() of the generation's present files.
	Fingerprint uint64
	// Published is when the generation was committed (zero for the empty
	// generation 0).
	Published time.Time
}

func (id Identity) String() string {
	return fmt.Sprintf("generation %d (fingerprint %016x)", id.Generation, id.Fingerprint)
}

// FileState is a file as a snapshot sees it.
type FileState struct {
	Snapshot Identity
	ID       int64  // stable file id: assigned at first sight of the path, never reused
	Path     string // slash-separated, relative to the root
	Hash     sourcefacts.ContentHash
	// FileGeneration bumps whenever Hash changes; 0 for a dirty path that
	// was never indexed.
	FileGeneration int64
	// ParseGeneration bumps at every extraction of the file.
	ParseGeneration int64
	// PublishedIn is the project generation that last wrote the file.
	PublishedIn int64
	// Status is current, partial (syntax errors: facts may be incomplete),
	// error (unreadable, binary, unparsable: no facts), skipped
	// (sourcefacts.StatusSkipped: deliberately not parsed, Error says why
	// — "not ours: a Perl script", "no language: a bash script", "too
	// large: ..."; no facts, and current evidence all the same: nothing
	// is stale) or stale (dirty: written but not flushed; the facts
	// describe older bytes).
	Status         string
	Dirty          bool
	Error          string
	Parser         string
	Grammar        string
	GrammarVersion string
	Extractor      string
	SchemaVersion  int
	Language       string
	// Role is the file's role (sourcefacts.FileFacts.Role); a row written
	// before roles were stored reads as sourcefacts.RoleTest when Test is
	// set, else sourcefacts.RoleSource.
	Role    string
	Test    bool
	Package string
	// LanguageBy is how the file's language was decided
	// (sourcefacts.Provenance.LanguageBy).
	LanguageBy string
}

// provenance of the facts of f.
func (f *FileState) provenance(project string) sourcefacts.Provenance {
	return sourcefacts.Provenance{
		Project:        project,
		Path:           f.Path,
		Hash:           f.Hash,
		Generation:     f.FileGeneration,
		Parser:         f.Parser,
		Grammar:        f.Grammar,
		GrammarVersion: f.GrammarVersion,
		Extractor:      f.Extractor,
		LanguageBy:     f.LanguageBy,
	}
}

// Snapshot is an immutable view of one published generation. It holds a
// read transaction on its own database connection, so every query sees the
// same generation whatever is published meanwhile. Queries see only files in
// the snapshot's scope. Close it promptly: while it is open the WAL cannot
// be checkpointed past it. Safe for concurrent use.
type Snapshot struct {
	id       Identity
	scope    Scope
	project  string
	includes func(string) bool
	faults   []sourcefacts.PathFault
	pending  map[string]string // read-only store: path → why it is not current
	cache    *filesCache       // the Store's: see allFiles

	mu   sync.Mutex
	conn *sql.Conn
	tx   *sql.Tx
	held map[string]heldFacts // see SnapshotOptions.HoldFacts; guarded by mu
}

// Snapshot validates scope (see SnapshotOptions) and returns a view of the
// resulting generation. Errors: ctx's; *StaleError (ErrConcurrentChange)
// when a file kept changing during publish; *NotCurrentError
// (ErrNotCurrent) with RequireCurrent; ErrClosed.
func (s *Store) Snapshot(ctx context.Context, scope Scope, opts SnapshotOptions) (*Snapshot, error) {
	if s.closed.Load() {
		return nil, ErrClosed
	}
	var held map[string]heldFacts
	if !opts.SkipValidation || opts.RequireCurrent {
		var err error
		if held, err = s.validateFor(ctx, scope, opts); err != nil {
			return nil, err
		}
	}
	snap, err := s.openSnapshot(ctx, scope)
	if err != nil {
		return nil, err
	}
	snap.held = held
	if opts.RequireCurrent {
		bad, err := snap.NotCurrent(ctx)
		if err != nil {
			snap.Close()
			return nil, err
		}
		if len(bad) > 0 {
			snap.Close()
			return nil, &NotCurrentError{Snapshot: snap.id, Files: bad}
		}
	}
	return snap, nil
}

// validateFor validates scope as opts ask and returns, with HoldFacts,
// the packed facts the validation published (nil if none).
func (s *Store) validateFor(ctx context.Context, scope Scope, opts SnapshotOptions) (map[string]heldFacts, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed.Load() {
		return nil, ErrClosed
	}
	s.hold, s.held = opts.HoldFacts, nil
	defer func() { s.hold, s.held = false, nil }()
	fast := !opts.RequireCurrent
	// Whatever kind of validation runs, it covers the hints in scope.
	hints, primed := s.takeHints(scope)
	var hinted []string
	if opts.Hinted && fast && primed {
		hinted = hints
		if hinted == nil {
			hinted = []string{}
		}
	}
	if err := s.validate(ctx, scope, hinted, opts.TrustStat && fast, opts.Progress); err != nil {
		s.restoreHints(hints)
		return nil, err
	}
	if hinted == nil && scope.IsAll() {
		s.hintMu.Lock()
		s.primed = true
		s.hintMu.Unlock()
	}
	return s.held, nil
}

func (s *Store) openSnapshot(ctx context.Context, scope Scope) (*Snapshot, error) {
	conn, err := s.db.Conn(ctx)
	if err != nil {
		return nil, fmt.Errorf("store: snapshot: %w", err)
	}
	// The transaction outlives ctx: database/sql would roll it back when
	// the BeginTx context ends.
	tx, err := conn.BeginTx(context.WithoutCancel(ctx), &sql.TxOptions{ReadOnly: true})
	if err != nil {
		conn.Close()
		return nil, fmt.Errorf("store: snapshot: %w", err)
	}
	var gen, fp, pub int64
	// The first read pins the WAL snapshot.
	if err := tx.QueryRowContext(ctx, `SELECT g.gen, g.fingerprint, g.published_ns
		FROM current_generation c JOIN generations g ON g.gen = c.gen WHERE c.id = 1`).Scan(&gen, &fp, &pub); err != nil {
		tx.Rollback()
		conn.Close()
		return nil, fmt.Errorf("store: snapshot: %w", err)
	}
	id := Identity{Generation: gen, Fingerprint: uint64(fp)}
	if pub != 0 {
		id.Published = time.Unix(0, pub)
	}
	s.faultMu.Lock()
	faults := slices.DeleteFunc(slices.Clone(s.faults), func(f sourcefacts.PathFault) bool { return !scope.Match(f.Path) && !scope.covers(f.Path) })
	s.faultMu.Unlock()
	return &Snapshot{id: id, scope: scope, project: s.project, includes: func(p string) bool { return s.lister.Includes(s.root, p) },
		faults: faults, pending: s.pendingIn(scope), cache: &s.files, conn: conn, tx: tx}, nil
}

// Faults lists the paths in scope that the last walk of the tree (by this
// Store, before the snapshot was opened) could not see, sorted by path: a
// directory that could not be read, a special file, a link that could not
// be resolved (see sourcefacts.PathFault). Files the knowledge base held
// under such a path were read directly instead (they are among NotCurrent
// if that failed too); files never seen there are not in the snapshot.
func (sn *Snapshot) Faults() []sourcefacts.PathFault { return slices.Clone(sn.faults) }

// Identity is the generation this snapshot shows.
func (sn *Snapshot) Identity() Identity { return sn.id }

// Scope is the scope the snapshot was taken for.
func (sn *Snapshot) Scope() Scope { return sn.scope }

// Close releases the read transaction and its connection. Idempotent.
func (sn *Snapshot) Close() error {
	sn.mu.Lock()
	defer sn.mu.Unlock()
	if sn.tx == nil {
		return nil
	}
	err := sn.tx.Rollback()
	sn.conn.Close()
	sn.tx, sn.conn, sn.held = nil, nil, nil
	return err
}

// query runs fn with the transaction under the lock.
func (sn *Snapshot) query(fn func(tx *sql.Tx) error) error {
	sn.mu.Lock()
	defer sn.mu.Unlock()
	if sn.tx == nil {
		return ErrClosed
	}
	if err := fn(sn.tx); err != nil {
		return fmt.Errorf("store: snapshot query: %w", err)
	}
	return nil
}

const fileStateCols = `f.id, f.path, f.hash, f.len, f.file_gen, f.parse_gen, f.published_gen, f.status, f.error,
	f.parser, f.grammar, f.grammar_version, f.extractor, f.schema_version, f.language, f.test, f.package,
	d.path IS NOT NULL, f.skipped, f.language_by, f.role`

const fileStateFrom = ` FROM files f LEFT JOIN dirty d ON d.path = f.path `

// fileScan holds the columns of fileStateCols that FileState does not
// hold as they are.
type fileScan struct {
	hash    int64
	skipped string
}

func (sn *Snapshot) fileStateDest(f *FileState, h *fileScan) []any {
	return []any{&f.ID, &f.Path, &h.hash, &f.Hash.Len, &f.FileGeneration, &f.ParseGeneration, &f.PublishedIn, &f.Status, &f.Error,
		&f.Parser, &f.Grammar, &f.GrammarVersion, &f.Extractor, &f.SchemaVersion, &f.Language, &f.Test, &f.Package,
		&f.Dirty, &h.skipped, &f.LanguageBy, &f.Role}
}

func (sn *Snapshot) finishFileState(f *FileState, h fileScan) {
	f.Hash.XXH64 = uint64(h.hash)
	f.Snapshot = sn.id
	if f.Role == "" {
		f.Role = sourcefacts.RoleSource
		if f.Test {
			f.Role = sourcefacts.RoleTest
		}
	}
	switch {
	case f.Dirty:
		f.Status = StatusStale
	case h.skipped != "":
		f.Status, f.Error = sourcefacts.StatusSkipped, h.skipped
	}
}

// Files lists the present files in scope, sorted by Path.
func (sn *Snapshot) Files(ctx context.Context) ([]FileState, error) {
	var out []FileState
	err := sn.query(func(tx *sql.Tx) error {
		all, err := sn.allFiles(ctx, tx)
		if out = slices.DeleteFunc(all, func(f FileState) bool { return !sn.scope.Match(f.Path) }); len(out) == 0 {
			out = nil
		}
		return err
	})
	return sn.markPending(out, false), err
}

// fileStates returns the files in scope that the SQL condition where (on
// files f and dirty d, constant text of this package) selects, by path.
func (sn *Snapshot) fileStates(ctx context.Context, tx *sql.Tx, where string) ([]FileState, error) {
	rows, err := tx.QueryContext(ctx, `SELECT `+fileStateCols+fileStateFrom+`WHERE `+where+` ORDER BY f.path`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []FileState
	for rows.Next() {
		var f FileState
		var h fileScan
		if err := rows.Scan(sn.fileStateDest(&f, &h)...); err != nil {
			return nil, err
		}
		if sn.scope.Match(f.Path) {
			sn.finishFileState(&f, h)
			out = append(out, f)
		}
	}
	return out, rows.Err()
}

// Skipped lists the present files in scope that were deliberately not
// parsed (Status sourcefacts.StatusSkipped, Error the reason), sorted by
// Path. They are not among NotCurrent: a skipped file is current.
func (sn *Snapshot) Skipped(ctx context.Context) ([]FileState, error) {
	var out []FileState
	err := sn.query(func(tx *sql.Tx) (err error) {
		out, err = sn.fileStates(ctx, tx, `f.present = 1 AND f.skipped != ''`)
		return err
	})
	return out, err
}

// NotCurrent lists the files in scope whose facts are not current
// evidence: present files with status stale, partial or error, and dirty
// paths not yet indexed (Status stale, FileGeneration 0). Sorted by Path.
func (sn *Snapshot) NotCurrent(ctx context.Context) ([]FileState, error) {
	var out []FileState
	err := sn.query(func(tx *sql.Tx) error {
		var err error
		if out, err = sn.fileStates(ctx, tx, `f.present = 1 AND (f.status != 'current' OR d.path IS NOT NULL)`); err != nil {
			return err
		}
		rows, err := tx.QueryContext(ctx, `SELECT d.path, COALESCE(f.id, 0) FROM dirty d LEFT JOIN files f ON f.path = d.path
			WHERE f.id IS NULL OR f.present = 0`)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			f := FileState{Snapshot: sn.id, Status: StatusStale, Dirty: true}
			if err := rows.Scan(&f.Path, &f.ID); err != nil {
				return err
			}
			if sn.scope.Match(f.Path) && sn.includes(f.Path) {
				out = append(out, f)
			}
		}
		return rows.Err()
	})
	slices.SortFunc(out, func(a, b FileState) int { return strings.Compare(a.Path, b.Path) })
	return sn.markPending(out, true), err
}

// FileFactsResult is one file's facts in a snapshot.
type FileFactsResult struct {
	Snapshot Identity
	File     FileState
	// Facts carries the file's Provenance (Generation is the file
	// generation) and Status = File.Status, so a dirty file's facts say
	// stale.
	Facts *sourcefacts.FileFacts
}

// Facts returns all facts of the file at path (slash-separated, relative to
// the root). A path that is not a present file in scope is ErrNotFound.
// Facts of another file generation than the file's are ErrCorrupt (never
// expected: they are written in one transaction).
func (sn *Snapshot) Facts(ctx context.Context, path string) (*FileFactsResult, error) {
	if !sn.scope.Match(path) {
		return nil, fmt.Errorf("%w: %s (out of scope)", ErrNotFound, path)
	}
	var res *FileFactsResult
	var held packedFacts
	err := sn.query(func(tx *sql.Tx) error {
		var f FileState
		var h fileScan
		err := tx.QueryRowContext(ctx, `SELECT `+fileStateCols+fileStateFrom+`WHERE f.path = ? AND f.present = 1`, path).
			Scan(sn.fileStateDest(&f, &h)...)
		if err == sql.ErrNoRows {
			return fmt.Errorf("%w: %s", ErrNotFound, path)
		}
		if err != nil {
			return err
		}
		sn.finishFileState(&f, h)
		ff := &sourcefacts.FileFacts{
			Provenance: f.provenance(sn.project),
			Language:   f.Language,
			Role:       f.Role,
			Test:       f.Test,
			Status:     f.Status,
			Error:      f.Error,
			Package:    f.Package,
			Symbols:    []sourcefacts.Symbol{},
			References: []sourcefacts.Reference{},
			Imports:    []sourcefacts.Import{},
		}
		res = &FileFactsResult{Snapshot: sn.id, File: f, Facts: ff}
		if hf, ok := sn.held[path]; ok && hf.matches(&f) {
			held = hf.facts // decoded below, outside the lock
			return nil
		}
		if ff.Symbols, err = readFacts(ctx, tx, f, path, "symbol", `SELECT idx, file_gen, `+symbolCols("")+` FROM symbols WHERE file_id = ? ORDER BY idx`, symbolDest); err != nil {
			return err
		}
		if ff.References, err = readFacts(ctx, tx, f, path, "reference", `SELECT idx, file_gen, `+refCols("")+` FROM refs WHERE file_id = ? ORDER BY idx`, refDest); err != nil {
			return err
		}
		if ff.Imports, err = readFacts(ctx, tx, f, path, "import", `SELECT idx, file_gen, `+importCols("")+` FROM imports WHERE file_id = ? ORDER BY idx`, importDest); err != nil {
			return err
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	if held != nil {
		if err := held.unpackInto(res.Facts); err != nil {
			return nil, fmt.Errorf("store: facts of %s: %w", path, err)
		}
	}
	return res, nil
}

// ReleaseFacts drops the facts of path held for the snapshot (see
// SnapshotOptions.HoldFacts), for a caller that has read them for the
// last time: a later Facts of path reads them from the database.
func (sn *Snapshot) ReleaseFacts(path string) {
	sn.mu.Lock()
	defer sn.mu.Unlock()
	delete(sn.held, path)
}

// readFacts reads one fact table's rows of file f, (idx, file_gen, cols...)
// in idx order, and checks that every row belongs to the file's generation
// and that the indexes run 0, 1, 2, ... (ErrCorrupt otherwise). The slice
// it returns has no spare capacity: a caller holding every file's facts
// (the search index resolving calls across the tree) holds no more than
// the facts.
func readFacts[T any](ctx context.Context, tx *sql.Tx, f FileState, path, table, query string, dest func(*T) []any) ([]T, error) {
	rows, err := tx.QueryContext(ctx, query, f.ID)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := []T{}
	for rows.Next() {
		var idx int
		var gen int64
		var v T
		if err := rows.Scan(append([]any{&idx, &gen}, dest(&v)...)...); err != nil {
			return nil, err
		}
		if gen != f.FileGeneration || idx != len(out) {
			return nil, fmt.Errorf("%w: %s %s row %d has file generation %d, file has %d", ErrCorrupt, path, table, idx, gen, f.FileGeneration)
		}
		out = append(out, v)
	}
	if cap(out) > len(out) {
		out = append(make([]T, 0, len(out)), out...)
	}
	return out, rows.Err()
}

// interned scans a TEXT column into the string at p as the canonical copy
// of its value (unique.Make): the names, kinds, receivers and types that
// repeat across a tree's facts are kept once, however many files' facts
// a caller holds.
type interned struct{ p *string }

func (s interned) Scan(src any) error {
	switch v := src.(type) {
	case string:
		*s.p = unique.Make(v).Value()
	case []byte:
		*s.p = unique.Make(string(v)).Value()
	default:
		return fmt.Errorf("%w: a text column holds %T, not text", ErrCorrupt, src)
	}
	return nil
}

func prefixed(p, cols string) string {
	if p == "" {
		return cols
	}
	parts := strings.Split(cols, ", ")
	for i := range parts {
		parts[i] = p + "." + parts[i]
	}
	return strings.Join(parts, ", ")
}

func symbolCols(p string) string {
	return prefixed(p, "name, kind, receiver, container, signature, doc, sb, eb, sl, el, sc, ec, nsb, neb, nsl, nel, nsc, nec, role, type")
}

func symbolDest(y *sourcefacts.Symbol) []any {
	g, n := &y.Range, &y.NameRange
	return []any{interned{&y.Name}, interned{&y.Kind}, interned{&y.Receiver}, interned{&y.Container}, &y.Signature, &y.Doc,
		&g.StartByte, &g.EndByte, &g.StartLine, &g.EndLine, &g.StartCol, &g.EndCol,
		&n.StartByte, &n.EndByte, &n.StartLine, &n.EndLine, &n.StartCol, &n.EndCol, interned{&y.Role}, interned{&y.Type}}
}

func refCols(p string) string {
	return prefixed(p, "name, kind, receiver, enclosing, sb, eb, sl, el, sc, ec, via, module, type, path")
}

func refDest(r *sourcefacts.Reference) []any {
	g := &r.Range
	return []any{interned{&r.Name}, interned{&r.Kind}, interned{&r.Receiver}, &r.Enclosing,
		&g.StartByte, &g.EndByte, &g.StartLine, &g.EndLine, &g.StartCol, &g.EndCol, interned{&r.Via}, interned{&r.Module}, interned{&r.Type}, interned{&r.Path}}
}

func importCols(p string) string {
	return prefixed(p, "path, alias, sb, eb, sl, el, sc, ec")
}

func importDest(im *sourcefacts.Import) []any {
	g := &im.Range
	return []any{interned{&im.Path}, interned{&im.Alias}, &g.StartByte, &g.EndByte, &g.StartLine, &g.EndLine, &g.StartCol, &g.EndCol}
}

// SymbolHit is a definition found in a snapshot.
type SymbolHit struct {
	Snapshot   Identity
	Provenance sourcefacts.Provenance // Generation is the file generation
	Status     string                 // the file's status (see FileState.Status)
	Symbol     sourcefacts.Symbol
}

// splitQualified splits "X.Y" into ("X", "Y"); a plain name has no
// qualifier.
func splitQualified(name string) (qual, base string) {
	if i := strings.LastIndexByte(name, '.'); i > 0 && i < len(name)-1 {
		return name[:i], name[i+1:]
	}
	return "", name
}

// Symbols returns the definitions named name in scope, sorted by path and
// position. "Recv.Name" matches methods Name with receiver type Recv.
func (sn *Snapshot) Symbols(ctx context.Context, name string) ([]SymbolHit, error) {
	qual, base := splitQualified(name)
	q := `SELECT ` + fileStateCols + `, s.file_gen, ` + symbolCols("s") +
		` FROM symbols s JOIN files f ON f.id = s.file_id LEFT JOIN dirty d ON d.path = f.path
		WHERE s.name = ? AND f.present = 1`
	args := []any{base}
	if qual != "" {
		q += ` AND s.receiver = ?`
		args = append(args, qual)
	}
	q += ` ORDER BY f.path, s.idx`
	var out []SymbolHit
	err := sn.query(func(tx *sql.Tx) error {
		rows, err := tx.QueryContext(ctx, q, args...)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var f FileState
			var h fileScan
			var gen int64
			var y sourcefacts.Symbol
			dest := append(sn.fileStateDest(&f, &h), &gen)
			if err := rows.Scan(append(dest, symbolDest(&y)...)...); err != nil {
				return err
			}
			if !sn.scope.Match(f.Path) {
				continue
			}
			sn.finishFileState(&f, h)
			if gen != f.FileGeneration {
				return fmt.Errorf("%w: %s symbol %s of file generation %d, file has %d", ErrCorrupt, f.Path, y.Name, gen, f.FileGeneration)
			}
			out = append(out, SymbolHit{Snapshot: sn.id, Provenance: f.provenance(sn.project), Status: f.Status, Symbol: y})
		}
		return rows.Err()
	})
	return out, err
}

// CallerHit is a call reference found in a snapshot, with the definition
// that encloses it.
type CallerHit struct {
	Snapshot   Identity
	Provenance sourcefacts.Provenance
	Status     string
	Reference  sourcefacts.Reference
	// Caller is the innermost function or method (else any definition)
	// containing the call; nil at file level.
	Caller *sourcefacts.Symbol
}

// Callers returns the call references to name in scope, sorted by path and
// position. Matching is syntactic: "X.Y" matches calls of Y whose receiver
// text is X (x.Y() with X = "x", pkg.Y() with X = "pkg").
func (sn *Snapshot) Callers(ctx context.Context, name string) ([]CallerHit, error) {
	qual, base := splitQualified(name)
	q := `SELECT ` + fileStateCols + `, r.file_gen, ` + refCols("r") + `, e.idx IS NOT NULL, COALESCE(e.file_gen, 0),
		COALESCE(e.name, ''), COALESCE(e.kind, ''), COALESCE(e.receiver, ''), COALESCE(e.container, ''),
		COALESCE(e.signature, ''), COALESCE(e.doc, ''),
		COALESCE(e.sb, 0), COALESCE(e.eb, 0), COALESCE(e.sl, 0), COALESCE(e.el, 0), COALESCE(e.sc, 0), COALESCE(e.ec, 0),
		COALESCE(e.nsb, 0), COALESCE(e.neb, 0), COALESCE(e.nsl, 0), COALESCE(e.nel, 0), COALESCE(e.nsc, 0), COALESCE(e.nec, 0),
		COALESCE(e.role, ''), COALESCE(e.type, '')
		FROM refs r JOIN files f ON f.id = r.file_id LEFT JOIN dirty d ON d.path = f.path
		LEFT JOIN symbols e ON e.file_id = r.file_id AND e.idx = r.enclosing
		WHERE r.name = ? AND r.kind = 'call' AND f.present = 1`
	args := []any{base}
	if qual != "" {
		q += ` AND r.receiver = ?`
		args = append(args, qual)
	}
	q += ` ORDER BY f.path, r.idx`
	var out []CallerHit
	err := sn.query(func(tx *sql.Tx) error {
		rows, err := tx.QueryContext(ctx, q, args...)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var f FileState
			var h fileScan
			var gen, egen int64
			var r sourcefacts.Reference
			var y sourcefacts.Symbol
			var hasCaller bool
			dest := append(sn.fileStateDest(&f, &h), &gen)
			dest = append(dest, refDest(&r)...)
			dest = append(dest, &hasCaller, &egen)
			if err := rows.Scan(append(dest, symbolDest(&y)...)...); err != nil {
				return err
			}
			if !sn.scope.Match(f.Path) {
				continue
			}
			sn.finishFileState(&f, h)
			if gen != f.FileGeneration || hasCaller && egen != f.FileGeneration {
				return fmt.Errorf("%w: %s reference %s of file generation %d/%d, file has %d", ErrCorrupt, f.Path, r.Name, gen, egen, f.FileGeneration)
			}
			hit := CallerHit{Snapshot: sn.id, Provenance: f.provenance(sn.project), Status: f.Status, Reference: r}
			if hasCaller {
				hit.Caller = &y
			}
			out = append(out, hit)
		}
		return rows.Err()
	})
	return out, err
}

// ImportHit is an import declaration found in a snapshot.
type ImportHit struct {
	Snapshot   Identity
	Provenance sourcefacts.Provenance
	Status     string
	Import     sourcefacts.Import
}

// Imports returns the imports declared by the file at path, in source
// order. A path that is not a present file in scope is ErrNotFound.
func (sn *Snapshot) Imports(ctx context.Context, path string) ([]ImportHit, error) {
	if !sn.scope.Match(path) {
		return nil, fmt.Errorf("%w: %s (out of scope)", ErrNotFound, path)
	}
	out, found, err := sn.imports(ctx, `f.path = ?`, path)
	if err == nil && !found {
		return nil, fmt.Errorf("%w: %s", ErrNotFound, path)
	}
	return out, err
}

// Importers returns the imports of importPath (e.g. "net/url") by files in
// scope, sorted by file path.
func (sn *Snapshot) Importers(ctx context.Context, importPath string) ([]ImportHit, error) {
	out, _, err := sn.imports(ctx, `i.path = ?`, importPath)
	return out, err
}

func (sn *Snapshot) imports(ctx context.Context, where string, arg string) ([]ImportHit, bool, error) {
	q := `SELECT ` + fileStateCols + `, i.file_gen IS NOT NULL, COALESCE(i.file_gen, 0),
		COALESCE(i.path, ''), COALESCE(i.alias, ''), COALESCE(i.sb, 0), COALESCE(i.eb, 0), COALESCE(i.sl, 0),
		COALESCE(i.el, 0), COALESCE(i.sc, 0), COALESCE(i.ec, 0)
		FROM files f LEFT JOIN dirty d ON d.path = f.path LEFT JOIN imports i ON i.file_id = f.id
		WHERE f.present = 1 AND ` + where + ` ORDER BY f.path, i.idx`
	var out []ImportHit
	found := false
	err := sn.query(func(tx *sql.Tx) error {
		rows, err := tx.QueryContext(ctx, q, arg)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var f FileState
			var h fileScan
			var gen int64
			var has bool
			var im sourcefacts.Import
			dest := append(sn.fileStateDest(&f, &h), &has, &gen)
			if err := rows.Scan(append(dest, importDest(&im)...)...); err != nil {
				return err
			}
			if !sn.scope.Match(f.Path) {
				continue
			}
			found = true
			if !has {
				continue
			}
			sn.finishFileState(&f, h)
			if gen != f.FileGeneration {
				return fmt.Errorf("%w: %s import %s of file generation %d, file has %d", ErrCorrupt, f.Path, im.Path, gen, f.FileGeneration)
			}
			out = append(out, ImportHit{Snapshot: sn.id, Provenance: f.provenance(sn.project), Status: f.Status, Import: im})
		}
		return rows.Err()
	})
	return out, found, err
}
