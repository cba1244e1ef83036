package project

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/rlm-dev/rlm/sourcefacts"
)

// ErrStale: a file's bytes are no longer those a fact (a hit, a citation)
// was read from.
var ErrStale = errors.New("project: source changed since it was indexed")

// MaxSourceBytes bounds ReadSource under the default size cap; a project
// opened with another Options.MaxFileBytes reads files up to that cap.
const MaxSourceBytes = sourcefacts.DefaultMaxFileBytes

// sourceLimit is the largest file ReadSource returns: the size cap.
func (p *Project) sourceLimit() int64 {
	switch m := p.opts.MaxFileBytes; {
	case m == 0:
		return MaxSourceBytes
	case m < 0 || m > sourcefacts.MaxParseBytes:
		return sourcefacts.MaxParseBytes
	default:
		return m
	}
}

// ReadSource returns the bytes of the project file at the slash path rel
// (relative to the root; it may not leave the root, through ".." or a
// symbolic link) if they are exactly those whose content hash is want
// (sourcefacts.ContentHash's string form, as hits carry it): exact bytes,
// not mtimes, decide. Otherwise it returns an error wrapping ErrStale (the
// file changed or is gone), or the read error.
//
// Only a file of the project can be read: one Options.Files includes
// (not ignored, not under .git or another skipped directory), that is
// not the knowledge base or a search index, and — for a symbolic link —
// whose target is such a file too. Any other path, existing or not, gets
// the error of a file that is gone (wrapping ErrStale), so that neither
// its existence nor its bytes are revealed. A path that is not a regular
// file (a FIFO, a device) reads as gone as well, and opening it never
// blocks.
func (p *Project) ReadSource(ctx context.Context, rel, want string) ([]byte, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	b, err := p.readProjectFile(rel)
	if err != nil {
		return nil, err
	}
	if got := sourcefacts.HashBytes(b).String(); got != want {
		return nil, fmt.Errorf("project: read %s: %w (hash %s, indexed %s)", rel, ErrStale, got, want)
	}
	return b, nil
}

// errGone is ReadSource's error for a path that is not a readable project
// file: absent, not listed, or not a regular file.
func errGone(rel string) error { return fmt.Errorf("project: read %s: %w (gone)", rel, ErrStale) }

// readProjectFile returns the bytes of the project file rel (see
// ReadSource), at most MaxSourceBytes of them.
func (p *Project) readProjectFile(rel string) ([]byte, error) {
	if !p.Listed(rel) {
		return nil, errGone(rel)
	}
	r, err := os.OpenRoot(p.root)
	if err != nil {
		return nil, fmt.Errorf("project: read %s: %w", rel, err)
	}
	defer r.Close()
	f, err := openRegular(r, filepath.FromSlash(rel))
	if errors.Is(err, fs.ErrNotExist) || errors.Is(err, errNotRegular) {
		return nil, errGone(rel)
	}
	if err != nil {
		return nil, fmt.Errorf("project: read %s: %w", rel, err)
	}
	defer f.Close()
	limit := p.sourceLimit()
	b, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, fmt.Errorf("project: read %s: %w", rel, err)
	}
	if int64(len(b)) > limit {
		return nil, fmt.Errorf("project: read %s: over %d bytes", rel, limit)
	}
	return b, nil
}

// errNotRegular: openRegular's error for a FIFO, socket, device or
// directory.
var errNotRegular = errors.New("not a regular file")

// openFile opens name under r for reading without blocking (see
// open_unix.go and open_other.go) and refuses anything but a regular file.
func openRegular(r *os.Root, name string) (*os.File, error) {
	f, err := openNoBlock(r, name)
	if err != nil {
		return nil, err
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		f.Close()
		return nil, errNotRegular
	}
	return f, nil
}

// Listed reports whether the slash path rel is a file of the project that
// ReadSource may read and ApplyPatch may write: a clean relative path
// (fs.ValidPath) that Options.Files includes (sourcefacts.Lister.Includes:
// not ignored, not under .git, .rlm or another skipped directory; an absent
// path counts if it would be listed), that is not the knowledge base, its
// journal files or a search index beside it, and, if rel is a symbolic
// link, whose target is inside the root and listed by the same rules.
func (p *Project) Listed(rel string) bool {
	if !p.listedName(rel) {
		return false
	}
	abs := filepath.Join(p.root, filepath.FromSlash(rel))
	real, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return errors.Is(err, fs.ErrNotExist) // absent: the lister's answer stands
	}
	if real == abs || real == filepath.Join(p.realRoot, filepath.FromSlash(rel)) {
		return true
	}
	t, err := filepath.Rel(p.realRoot, real)
	if err != nil || !filepath.IsLocal(t) {
		return false
	}
	return p.listedName(filepath.ToSlash(t))
}

// listedName is Listed without following symbolic links.
func (p *Project) listedName(rel string) bool {
	if !fs.ValidPath(rel) || !p.opts.Files.Includes(p.root, rel) {
		return false
	}
	dir, name := filepath.Split(filepath.Join(p.root, filepath.FromSlash(rel)))
	if filepath.Clean(dir) != p.kbDir {
		return true
	}
	return !strings.HasPrefix(name, p.kbName) && !strings.HasPrefix(name, searchIndexPrefix)
}
