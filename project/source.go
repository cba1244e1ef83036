package project

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

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
func (p *Project) ReadSource(ctx context.Context, rel, want string) ([]byte, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if !filepath.IsLocal(filepath.FromSlash(rel)) {
		return nil, fmt.Errorf("project: read %q: not a path inside the project", rel)
	}
	r, err := os.OpenRoot(p.root)
	if err != nil {
		return nil, fmt.Errorf("project: read %s: %w", rel, err)
	}
	defer r.Close()
	f, err := r.Open(filepath.FromSlash(rel))
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return nil, fmt.Errorf("project: read %s: %w (gone)", rel, ErrStale)
		}
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
	if got := sourcefacts.HashBytes(b).String(); got != want {
		return nil, fmt.Errorf("project: read %s: %w (hash %s, indexed %s)", rel, ErrStale, got, want)
	}
	return b, nil
}
