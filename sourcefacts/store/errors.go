package store

import (
	"errors"
	"fmt"
	"strings"

	"github.com/rlm-dev/rlm/sourcefacts"
)

// Sentinels. Match them with errors.Is; the structured types below wrap
// them and carry the details (match those with errors.As).
var (
	// ErrConflict: the file's bytes did not hash to the expected hash
	// (ApplyPatch, CommitEdit). Wrapped by *ConflictError.
	ErrConflict = errors.New("store: expected-hash conflict")
	// ErrConcurrentChange: a file kept changing between extraction and
	// publish, MaxPublishAttempts times in a row. Wrapped by *StaleError.
	ErrConcurrentChange = errors.New("store: file changed during publish")
	// ErrNotCurrent: a snapshot that requires current evidence found
	// stale, partial, error or dirty files in scope. Wrapped by
	// *NotCurrentError.
	ErrNotCurrent = errors.New("store: evidence not current")
	// ErrSchemaTooNew: the database was written by a newer build. Wrapped
	// by *SchemaError.
	ErrSchemaTooNew = errors.New("store: database schema newer than this build")
	// ErrBadPatch: a Patch is malformed or does not apply to the expected
	// bytes. Wrapped by *PatchError.
	ErrBadPatch = errors.New("store: bad patch")
	// ErrOutsideRoot: a path is absolute outside the project root, climbs
	// out of it with "..", or is a symbolic link that resolves outside it.
	ErrOutsideRoot = errors.New("store: path outside project root")
	// ErrNotFound: the path is not a present file of the snapshot's scope.
	ErrNotFound = errors.New("store: file not in snapshot")
	// ErrCorrupt: Verify found the database inconsistent, or a snapshot
	// query found facts of another file generation than their file's.
	ErrCorrupt = errors.New("store: database inconsistent")
	// ErrClosed: the Store or Snapshot was closed.
	ErrClosed = errors.New("store: closed")
)

// ConflictError reports that the bytes at Path did not hash to Expected.
// The file was not touched. It wraps ErrConflict.
type ConflictError struct {
	Path     string                  // slash-separated, relative to the root
	Expected sourcefacts.ContentHash // what the caller said the bytes hash to
	Actual   sourcefacts.ContentHash // what they hash to now (zero if Missing)
	Missing  bool                    // the file does not exist
}

func (e *ConflictError) Error() string {
	if e.Missing {
		return fmt.Sprintf("store: %s: expected %s, file does not exist", e.Path, e.Expected)
	}
	return fmt.Sprintf("store: %s: expected %s, file is %s", e.Path, e.Expected, e.Actual)
}

// Unwrap returns ErrConflict.
func (e *ConflictError) Unwrap() error { return ErrConflict }

// StaleError reports that Path no longer hashed to Expected just before
// publish, Attempts times in a row; nothing of that attempt was published.
// It wraps ErrConcurrentChange.
type StaleError struct {
	Path     string
	Expected sourcefacts.ContentHash // hash of the bytes that were extracted
	Actual   sourcefacts.ContentHash // hash found on the re-read (zero if gone)
	Gone     bool                    // the file disappeared (or appeared) meanwhile
	Attempts int
}

func (e *StaleError) Error() string {
	act := e.Actual.String()
	if e.Gone {
		act = "gone"
	}
	return fmt.Sprintf("store: %s kept changing during publish (%d attempts; extracted %s, now %s)",
		e.Path, e.Attempts, e.Expected, act)
}

// Unwrap returns ErrConcurrentChange.
func (e *StaleError) Unwrap() error { return ErrConcurrentChange }

// NotCurrentError lists every file in a snapshot's scope whose facts are not
// current evidence: Status stale (dirty: written but not flushed), partial
// (parsed with syntax errors) or error (unreadable, unparsable, too large).
// No snapshot is returned with it. It wraps ErrNotCurrent.
type NotCurrentError struct {
	Snapshot Identity
	Files    []FileState // sorted by Path
}

func (e *NotCurrentError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "store: %d file(s) in scope not current at %s:", len(e.Files), e.Snapshot)
	for i, f := range e.Files {
		if i == 5 {
			fmt.Fprintf(&b, " … and %d more", len(e.Files)-i)
			break
		}
		fmt.Fprintf(&b, " %s (%s)", f.Path, f.Status)
	}
	return b.String()
}

// Unwrap returns ErrNotCurrent.
func (e *NotCurrentError) Unwrap() error { return ErrNotCurrent }

// SchemaError reports a database whose schema version (PRAGMA user_version)
// is newer than this build knows. It wraps ErrSchemaTooNew.
type SchemaError struct {
	Path string
	Have int // the database's version
	Want int // the newest this build knows (SchemaVersion)
}

func (e *SchemaError) Error() string {
	return fmt.Sprintf("store: %s has schema version %d, this build knows up to %d", e.Path, e.Have, e.Want)
}

// Unwrap returns ErrSchemaTooNew.
func (e *SchemaError) Unwrap() error { return ErrSchemaTooNew }

// PatchError reports a Patch that is malformed or does not apply. The file
// was not touched. It wraps ErrBadPatch and, when there is one, the
// underlying error (e.g. a *gitdiff.ApplyError).
type PatchError struct {
	Path   string
	Reason string
	Err    error
}

func (e *PatchError) Error() string {
	if e.Err != nil {
		return fmt.Sprintf("store: %s: bad patch: %s: %v", e.Path, e.Reason, e.Err)
	}
	return fmt.Sprintf("store: %s: bad patch: %s", e.Path, e.Reason)
}

// Unwrap returns ErrBadPatch and the underlying error, if any.
func (e *PatchError) Unwrap() []error {
	if e.Err != nil {
		return []error{ErrBadPatch, e.Err}
	}
	return []error{ErrBadPatch}
}
