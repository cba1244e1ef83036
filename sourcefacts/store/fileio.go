package store

import (
	"bytes"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sync"
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
	r, _ := readSourceInto(abs, max, nil)
	return r
}

// sourceFile is a source file opened by openSource: its stat (statOf's
// fields, and whether it is a regular file) and its bytes (Read as an
// *os.File's: io.EOF at the end).
type sourceFile interface {
	io.Reader
	stat() (st statInfo, regular bool, err error)
	Close() error
}

// readSourceInto is readSource reading into buf's capacity (grown when
// the file needs more): the result's src aliases the returned buffer,
// which the caller may reuse once it no longer needs src.
func readSourceInto(abs string, max int64, buf []byte) (*readResult, []byte) {
	r, f, before := openRegular(abs)
	if f == nil {
		return r, buf
	}
	defer f.Close()
	// At most max+1 bytes are kept: one more than the cap tells a file
	// over it. Room for one byte past the size the stat gave, so that the
	// read after the last byte, which sees the end, needs no new buffer.
	limit := max + 1
	if want := min(before.Size+1, limit); int64(cap(buf)) < want {
		buf = make([]byte, 0, want)
	}
	buf = buf[:0]
	for int64(len(buf)) < limit {
		if len(buf) == cap(buf) { // the file grew since the stat
			buf = slices.Grow(buf, int(min(int64(cap(buf)), limit-int64(len(buf)))))
		}
		n, err := f.Read(buf[len(buf):int(min(int64(cap(buf)), limit))])
		buf = buf[:len(buf)+n]
		if err == io.EOF {
			break
		}
		if err != nil {
			r.err = err
			return r, buf
		}
	}
	r.src = buf
	if int64(len(r.src)) <= max {
		r.hash = sourcefacts.HashBytes(r.src)
	} else {
		d := xxhash.New()
		d.Write(r.src)
		rest, err := io.Copy(d, f)
		if err != nil {
			r.err = err
			return r, buf
		}
		r.hash = sourcefacts.ContentHash{XXH64: d.Sum64(), Len: int64(len(r.src)) + rest}
		r.tooLarge = true
		// Keep what language detection reads, not the whole buffer.
		r.src = bytes.Clone(r.src[:min(len(r.src), sourcefacts.SniffBytes)])
	}
	r.statAfter(f, before)
	return r, buf
}

// openRegular opens the file at abs for a read and takes its stat: f is
// nil when there is nothing to read, r saying why (missing: absent or not
// a regular file; err: any other error). r.checked is the time just
// before the open.
func openRegular(abs string) (r *readResult, f sourceFile, before statInfo) {
	r = &readResult{checked: time.Now().UnixNano()}
	f, err := openSource(abs)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) || errors.Is(err, errNotRegular) {
			r.missing = true
		} else {
			r.err = err
		}
		return r, nil, statInfo{}
	}
	before, regular, err := f.stat()
	if err != nil || !regular {
		f.Close()
		r.err, r.missing = err, err == nil
		return r, nil, statInfo{}
	}
	return r, f, before
}

// statAfter keeps before as the stat of the bytes r hashed when the file
// still has it after the read and its size is the length hashed.
func (r *readResult) statAfter(f sourceFile, before statInfo) {
	if after, _, err := f.stat(); err == nil && after == before && before.Size == r.hash.Len {
		r.st, r.stOK = before, true
	}
}

// hashChunk is the least buffer hashSourceInto reads through.
const hashChunk = 64 << 10

// hashSourceInto is readSourceInto for a file whose bytes are wanted only
// if they changed: it hashes every byte of the file through buf's
// capacity (at least hashChunk bytes), one read at a time, and keeps none
// of them (src is nil, tooLarge unset). The hash, stat, missing and err
// are what readSourceInto would give for the same file; the buffer it
// returns, which the caller may reuse, is never larger than the one given
// (or hashChunk): a large file needs no buffer of its size.
func hashSourceInto(abs string, buf []byte) (*readResult, []byte) {
	r, f, before := openRegular(abs)
	if f == nil {
		return r, buf
	}
	defer f.Close()
	if cap(buf) < hashChunk {
		buf = make([]byte, 0, hashChunk)
	}
	d := xxhash.New()
	n := int64(0)
	for {
		m, err := f.Read(buf[:cap(buf)])
		d.Write(buf[:m])
		n += int64(m)
		if err == io.EOF {
			break
		}
		if err != nil {
			r.err = err
			return r, buf[:0]
		}
	}
	r.hash = sourcefacts.ContentHash{XXH64: d.Sum64(), Len: n}
	r.statAfter(f, before)
	return r, buf[:0]
}

// bufPool keeps the buffers of validation's reads: a file whose bytes
// match its row gives its buffer back, so a warm check of an unchanged
// tree allocates no file-sized buffers. Unlike a sync.Pool it keeps them
// across garbage collections, up to maxPooledBytes in all; a buffer over
// maxPooledRead is never kept.
type bufPool struct {
	mu    sync.Mutex
	free  [][]byte
	bytes int
}

const (
	// maxPooledRead is the largest buffer kept for reuse: bigger files
	// (rare) get a buffer of their own each time rather than pinning their
	// size.
	maxPooledRead = 1 << 20
	// maxPooledBytes bounds the capacity of the kept buffers together.
	maxPooledBytes = 8 << 20
)

// get returns a kept buffer (empty, any capacity) or nil.
func (p *bufPool) get() []byte {
	p.mu.Lock()
	defer p.mu.Unlock()
	n := len(p.free)
	if n == 0 {
		return nil
	}
	b := p.free[n-1]
	p.free[n-1] = nil
	p.free = p.free[:n-1]
	p.bytes -= cap(b)
	return b[:0]
}

// put keeps b for a later get if it is small enough and there is room.
func (p *bufPool) put(b []byte) {
	if cap(b) == 0 || cap(b) > maxPooledRead {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.bytes+cap(b) > maxPooledBytes {
		return
	}
	p.free = append(p.free, b)
	p.bytes += cap(b)
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
