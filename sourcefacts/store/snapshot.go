package store

import (
	"bytes"
	"context"
	"database/sql"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

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
	stored := false // held was read from the database
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
		var gen int64
		var data []byte
		switch err := tx.QueryRowContext(ctx, `SELECT file_gen, data FROM facts WHERE file_id = ?`, f.ID).Scan(&gen, &data); {
		case err == sql.ErrNoRows:
			return nil // no facts
		case err != nil:
			return err
		case gen != f.FileGeneration:
			return fmt.Errorf("%w: %s facts of file generation %d, file has %d", ErrCorrupt, path, gen, f.FileGeneration)
		}
		if held, err = loadFacts(data); err != nil {
			return fmt.Errorf("%w: %s: %v", ErrCorrupt, path, err)
		}
		stored = true
		return nil
	})
	if err != nil {
		return nil, err
	}
	if held != nil {
		want := "" // held facts are this process's own, of the row's identity
		if stored {
			want = path
		}
		if err := held.unpackInto(want, res.Facts); err != nil && stored {
			return nil, fmt.Errorf("store: facts of %s: %w: %v", path, ErrCorrupt, err)
		} else if err != nil {
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
// It reads every file's facts (no index of names: no search asks the
// knowledge base for a name; the search index answers).
func (sn *Snapshot) Symbols(ctx context.Context, name string) ([]SymbolHit, error) {
	qual, base := splitQualified(name)
	var out []SymbolHit
	err := sn.scanFacts(ctx, base, func(f *FileState, ff *sourcefacts.FileFacts) error {
		for _, y := range ff.Symbols {
			if y.Name == base && (qual == "" || y.Receiver == qual) {
				out = append(out, SymbolHit{Snapshot: sn.id, Provenance: f.provenance(sn.project), Status: f.Status, Symbol: y})
			}
		}
		return nil
	})
	return out, err
}

// scanFacts calls fn with every present file in scope whose packed facts
// hold the bytes of needle (a name fn looks for: a file without them has
// no fact of that name, and is not decoded), in path order, and its facts
// (unpackInto's form), within one read of the snapshot. Facts of another
// file generation than the file's, or that do not decode, are ErrCorrupt.
func (sn *Snapshot) scanFacts(ctx context.Context, needle string, fn func(f *FileState, ff *sourcefacts.FileFacts) error) error {
	want := []byte(needle)
	return sn.query(func(tx *sql.Tx) error {
		rows, err := tx.QueryContext(ctx, `SELECT `+fileStateCols+`, x.file_gen, x.data`+fileStateFrom+
			`JOIN facts x ON x.file_id = f.id WHERE f.present = 1 ORDER BY f.path`)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var f FileState
			var h fileScan
			var gen int64
			var data []byte
			if err := rows.Scan(append(sn.fileStateDest(&f, &h), &gen, &data)...); err != nil {
				return err
			}
			if !sn.scope.Match(f.Path) {
				continue
			}
			sn.finishFileState(&f, h)
			if gen != f.FileGeneration {
				return fmt.Errorf("%w: %s facts of file generation %d, file has %d", ErrCorrupt, f.Path, gen, f.FileGeneration)
			}
			p, err := loadFacts(data)
			if err != nil {
				return fmt.Errorf("%w: %s: %v", ErrCorrupt, f.Path, err)
			}
			if !bytes.Contains(p, want) {
				continue
			}
			var ff sourcefacts.FileFacts
			if err := p.unpackInto(f.Path, &ff); err != nil {
				return fmt.Errorf("%w: %s: %v", ErrCorrupt, f.Path, err)
			}
			if err := fn(&f, &ff); err != nil {
				return err
			}
		}
		return rows.Err()
	})
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
// text is X (x.Y() with X = "x", pkg.Y() with X = "pkg"). Like Symbols it
// reads every file's facts (no index of names).
func (sn *Snapshot) Callers(ctx context.Context, name string) ([]CallerHit, error) {
	qual, base := splitQualified(name)
	var out []CallerHit
	err := sn.scanFacts(ctx, base, func(f *FileState, ff *sourcefacts.FileFacts) error {
		for _, r := range ff.References {
			if r.Name != base || r.Kind != sourcefacts.RefCall || qual != "" && r.Receiver != qual {
				continue
			}
			hit := CallerHit{Snapshot: sn.id, Provenance: f.provenance(sn.project), Status: f.Status, Reference: r}
			if r.Enclosing >= 0 && r.Enclosing < len(ff.Symbols) {
				y := ff.Symbols[r.Enclosing]
				hit.Caller = &y
			}
			out = append(out, hit)
		}
		return nil
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
	out, found, err := sn.imports(ctx, path, "")
	if err == nil && !found {
		return nil, fmt.Errorf("%w: %s", ErrNotFound, path)
	}
	return out, err
}

// Importers returns the imports of importPath (e.g. "net/url") by files in
// scope, sorted by file path. It reads every file's facts.
func (sn *Snapshot) Importers(ctx context.Context, importPath string) ([]ImportHit, error) {
	out, _, err := sn.imports(ctx, "", importPath)
	return out, err
}

// imports returns the imports of the file at path (file != ""), or those
// of importPath by every file in scope, in path and source order, and
// whether a present file in scope was read.
func (sn *Snapshot) imports(ctx context.Context, file, importPath string) ([]ImportHit, bool, error) {
	var out []ImportHit
	found := false
	want := []byte(importPath)
	err := sn.query(func(tx *sql.Tx) error {
		rows, err := tx.QueryContext(ctx, `SELECT `+fileStateCols+`, x.file_gen IS NOT NULL, COALESCE(x.file_gen, 0), x.data`+fileStateFrom+
			`LEFT JOIN facts x ON x.file_id = f.id WHERE f.present = 1 AND (?1 = '' OR f.path = ?1) ORDER BY f.path`, file)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var f FileState
			var h fileScan
			var gen int64
			var has bool
			var data []byte
			if err := rows.Scan(append(sn.fileStateDest(&f, &h), &has, &gen, &data)...); err != nil {
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
				return fmt.Errorf("%w: %s facts of file generation %d, file has %d", ErrCorrupt, f.Path, gen, f.FileGeneration)
			}
			p, err := loadFacts(data)
			if err != nil {
				return fmt.Errorf("%w: %s: %v", ErrCorrupt, f.Path, err)
			}
			if file == "" && !bytes.Contains(p, want) {
				continue // no import of importPath (see scanFacts)
			}
			var ff sourcefacts.FileFacts
			if err := p.unpackInto(f.Path, &ff); err != nil {
				return fmt.Errorf("%w: %s: %v", ErrCorrupt, f.Path, err)
			}
			for _, im := range ff.Imports {
				if file != "" || im.Path == importPath {
					out = append(out, ImportHit{Snapshot: sn.id, Provenance: f.provenance(sn.project), Status: f.Status, Import: im})
				}
			}
		}
		return rows.Err()
	})
	return out, found, err
}
