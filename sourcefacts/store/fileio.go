package store

import (
	"bytes"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/cespare/xxhash/v2"
	"github.com/rlm-dev/rlm/sourcefacts"
)

// statInfo is the stat cache used by SnapshotOptions.TrustStat.
type statInfo struct {
	Size, MtimeNS, Ino int64
}

// readResult is one read of a file's bytes.
type readResult struct {
	src      []byte // the bytes; for tooLarge only the first sourcefacts.SniffBytes
	hash     sourcefacts.ContentHash
	st       statInfo
	stOK     bool  // the stat did not change during the read
	checked  int64 // unix ns just before the file was opened
	tooLarge bool
	missing  bool  // does not exist, or is not a regular file
	err      error // any other read error
}

// readSource reads the file at abs: at most max bytes are kept, a larger
// file is hashed by streaming. It never blocks on FIFOs or devices: those
// count as missing.
// readListed reads the project file rel as readSource does, but a path the
// lister no longer includes (an ignore rule or an option changed since it
// was indexed) reads as missing: it leaves the project even though its
// bytes are still on disk.
func (s *Store) readListed(rel string) *readResult {
	if !s.lister.Includes(s.root, rel) {
		return &readResult{checked: time.Now().UnixNano(), missing: true}
	}
	return readSource(s.abs(rel), s.maxBytes)
}

func readSource(abs string, max int64) *readResult {
	return readSourceInto(abs, max, new(bytes.Buffer))
}

// readSourceInto is readSource reading into buf, which must be empty: the
// result's src aliases buf's bytes while buf is not reused.
func readSourceInto(abs string, max int64, buf *bytes.Buffer) *readResult {
	r := &readResult{checked: time.Now().UnixNano()}
	f, err := openNonBlocking(abs)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) || errors.Is(err, errNotRegular) {
			r.missing = true
		} else {
			r.err = err
		}
		return r
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		r.err = err
		return r
	}
	if !fi.Mode().IsRegular() {
		r.missing = true
		return r
	}
	before := statOf(fi)
	if sz := fi.Size(); sz > 0 && sz <= max {
		buf.Grow(int(sz) + 1)
	}
	if _, err := buf.ReadFrom(io.LimitReader(f, max+1)); err != nil {
		r.err = err
		return r
	}
	r.src = buf.Bytes()
	if int64(len(r.src)) <= max {
		r.hash = sourcefacts.HashBytes(r.src)
	} else {
		d := xxhash.New()
		d.Write(r.src)
		rest, err := io.Copy(d, f)
		if err != nil {
			r.err = err
			return r
		}
		r.hash = sourcefacts.ContentHash{XXH64: d.Sum64(), Len: int64(len(r.src)) + rest}
		r.tooLarge = true
		// Keep what language detection reads, not the whole buffer.
		r.src = bytes.Clone(r.src[:min(len(r.src), sourcefacts.SniffBytes)])
	}
	if fi2, err := f.Stat(); err == nil && statOf(fi2) == before && before.Size == r.hash.Len {
		r.st, r.stOK = before, true
	}
	return r
}

var errNotRegular = errors.New("not a regular file")

// statTrusted reports whether the stat cache proves the file unchanged
// since its bytes were last hashed: size, mtime and inode equal, and the
// mtime strictly older than the time of that read truncated to the second
// (git's racy-clean rule, made safe for file systems with 1 s timestamps: a
// file modified in the same second as it was read is always re-hashed).
func statTrusted(abs string, r *fileRow) bool {
	if r == nil || !r.present || r.st.Size < 0 || r.stChecked == 0 {
		return false
	}
	fi, err := os.Stat(abs)
	if err != nil || !fi.Mode().IsRegular() {
		return false
	}
	st := statOf(fi)
	racyLimit := r.stChecked - r.stChecked%int64(time.Second)
	return st == r.st && st.MtimeNS < racyLimit
}

// writeAtomic replaces the file at abs with data: a temporary file in the
// same directory (hidden, so no lister picks it up), written, fsynced,
// given mode, renamed over abs, and the directory fsynced.
func writeAtomic(abs string, data []byte, mode fs.FileMode) (err error) {
	dir := filepath.Dir(abs)
	f, err := os.CreateTemp(dir, "."+filepath.Base(abs)+".rlm-*")
	if err != nil {
		return err
	}
	tmp := f.Name()
	defer func() {
		if err != nil {
			f.Close()
			os.Remove(tmp)
		}
	}()
	if err = f.Chmod(mode); err != nil {
		return err
	}
	if _, err = f.Write(data); err != nil {
		return err
	}
	if err = f.Sync(); err != nil {
		return err
	}
	if err = f.Close(); err != nil {
		return err
	}
	if err = os.Rename(tmp, abs); err != nil {
		return err
	}
	syncDir(dir)
	return nil
}
