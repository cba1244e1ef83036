package project

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"github.com/rlm-dev/rlm/retrieval/embedded"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"modernc.org/sqlite"

	"github.com/rlm-dev/rlm/internal/sqlitefile"
)

// A search index file is derived data: it is built in a temporary file,
// sealed (checkpointed, verified, synced) and only then renamed into
// place; a file found damaged at open is rebuilt from the knowledge base.

// ErrCorruptIndex is matched (errors.Is) by the error of a search index
// file that is not a whole SQLite database: truncated (a full disk during
// a build that was renamed into place), overwritten, or refused by SQLite
// as corrupt. Open rebuilds such a file; the error surfaces only when the
// rebuild fails too.
var ErrCorruptIndex = errors.New("project: search index file is damaged")

// sqliteHeader is the first 16 bytes of every SQLite database file.
const sqliteHeader = "SQLite format 3\x00"

// checkIndexFile reads the 100-byte header of the SQLite file at path and
// checks that the file is as long as the header says (page size times
// page count). It returns an error wrapping ErrCorruptIndex when it is not,
// fs.ErrNotExist when there is no file, or the read error.
func checkIndexFile(path string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return err
	}
	var h [100]byte
	if _, err := io.ReadFull(f, h[:]); err != nil {
		return fmt.Errorf("%w: %s: %d bytes, shorter than a header", ErrCorruptIndex, filepath.Base(path), fi.Size())
	}
	if string(h[:16]) != sqliteHeader {
		return fmt.Errorf("%w: %s: not a SQLite database", ErrCorruptIndex, filepath.Base(path))
	}
	pageSize := int64(binary.BigEndian.Uint16(h[16:18]))
	if pageSize == 1 {
		pageSize = 65536
	}
	pages := int64(binary.BigEndian.Uint32(h[28:32]))
	// The in-header page count is valid only when the change counter
	// matches version-valid-for (SQLite 3.7.0 and later write both).
	valid := binary.BigEndian.Uint32(h[24:28]) == binary.BigEndian.Uint32(h[92:96])
	if pageSize < 512 || fi.Size()%pageSize != 0 || valid && fi.Size() < pages*pageSize {
		return fmt.Errorf("%w: %s: %d bytes, the header says %d pages of %d", ErrCorruptIndex, filepath.Base(path), fi.Size(), pages, pageSize)
	}
	return nil
}

// asCorrupt wraps err with ErrCorruptIndex when SQLite reported the file
// corrupt or not a database (SQLITE_CORRUPT, SQLITE_NOTADB) or the
// embedded backend read data it never writes (embedded.ErrDamaged);
// other errors are returned as they are.
func asCorrupt(err error) error {
	if errors.Is(err, embedded.ErrDamaged) && !errors.Is(err, ErrCorruptIndex) {
		return fmt.Errorf("%w: %w", ErrCorruptIndex, err)
	}
	var se *sqlite.Error
	if errors.As(err, &se) {
		switch se.Code() & 0xff {
		case 11, 26: // SQLITE_CORRUPT, SQLITE_NOTADB
			return fmt.Errorf("%w: %w", ErrCorruptIndex, err)
		}
	}
	return err
}

// sealIndexFile makes the closed, freshly built SQLite file at path whole
// on its own: every WAL frame checkpointed into it and the WAL truncated,
// with verify PRAGMA quick_check "ok" (it reads the whole file; an
// incremental update skips it, see deriveSearchIndex), the header's length
// checked, the file synced to disk. A full disk shows here as an error,
// never as a short file.
func sealIndexFile(ctx context.Context, path string, verify bool) error {
	db, err := sqlitefile.Open(path)
	if err != nil {
		return err
	}
	var busy, logFrames, done int
	if err := db.QueryRowContext(ctx, `PRAGMA wal_checkpoint(TRUNCATE)`).Scan(&busy, &logFrames, &done); err != nil {
		db.Close()
		return fmt.Errorf("checkpoint: %w", err)
	}
	if busy != 0 || logFrames != done {
		db.Close()
		return fmt.Errorf("checkpoint: %d of %d WAL frames copied (busy %d)", done, logFrames, busy)
	}
	check := "ok"
	if verify {
		if err := db.QueryRowContext(ctx, `PRAGMA quick_check(1)`).Scan(&check); err != nil {
			db.Close()
			return fmt.Errorf("quick_check: %w", err)
		}
	}
	if err := db.Close(); err != nil {
		return err
	}
	if check != "ok" {
		return fmt.Errorf("%w: quick_check: %s", ErrCorruptIndex, check)
	}
	if err := checkIndexFile(path); err != nil {
		return err
	}
	return syncPath(path)
}

// syncPath fsyncs the file or directory at path.
func syncPath(path string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	err = f.Sync()
	return errors.Join(err, f.Close())
}

// isIndexTemp reports whether the file name n is a search index build's
// temporary file or its -wal/-shm/-journal, and returns the temporary
// file's own name.
func isIndexTemp(n string) (base string, ok bool) {
	if !strings.HasPrefix(n, "search-") || !strings.Contains(n, ".tmp") {
		return "", false
	}
	for _, s := range []string{"-wal", "-shm", "-journal"} {
		n = strings.TrimSuffix(n, s)
	}
	return n, true
}

// tempGrace is how long a search index build's temporary file is left
// alone after it last changed, whether or not it is locked.
const tempGrace = 5 * time.Second

// removeStaleTemps removes from dir the temporary files of search index
// builds that are no longer under way: a build holds an exclusive lock on
// its temporary file until it is renamed (see buildSearchIndex), so a
// temporary file that can be locked, or whose -wal/-shm outlived it, is
// left over from a build that failed or was killed. Files changed in the
// last tempGrace are left alone: a build creates its file an instant
// before it locks it.
func removeStaleTemps(dir string) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	seen := map[string]bool{}
	for _, e := range ents {
		base, ok := isIndexTemp(e.Name())
		if !ok || seen[base] {
			continue
		}
		if fi, err := e.Info(); err != nil || time.Since(fi.ModTime()) < tempGrace {
			continue
		}
		seen[base] = true
		path := filepath.Join(dir, base)
		if _, err := os.Lstat(path); errors.Is(err, os.ErrNotExist) {
			removeIndexFiles(path)
			continue
		}
		if l, ok := tryLockExclusive(path); ok {
			removeIndexFiles(path)
			l.unlock()
		}
	}
}
