package rlm

import (
	"context"
	"fmt"

	"github.com/rlm-dev/rlm/sourcefacts"
	"github.com/rlm-dev/rlm/sourcefacts/store"
)

// Hash-checked edits (ApplyPatch), with types from package
// sourcefacts/store.
type (
	Patch         = store.Patch         // one file's change: byte Edits, or one UnifiedDiff (exactly one set)
	PatchEdit     = store.Edit          // replace bytes [Start, End) of the original with Text
	ConflictError = store.ConflictError // the file was not the expected bytes (or is gone); it is untouched
)

// ApplyPatch applies patch to the file at path (a slash path relative to
// the root) only if its bytes hash to expectedHash (a content hash as hits
// carry it), publishes the edit and moves to the new snapshot, so that the
// next Search sees it; it returns the new bytes' content hash. The write
// is atomic and journaled (project.Project.ApplyPatch: only a file of the
// project — not ignored, not under .git or the knowledge base — can be
// written; any other path is reported as missing, and a diff must name
// path in its headers). Errors: *ConflictError and ErrBadPatch (the file
// is untouched), a malformed expectedHash; an error after the write (the
// new hash is returned with it) leaves the file stale until the next
// successful ApplyPatch publishes it.
func (p *Project) ApplyPatch(ctx context.Context, path, expectedHash string, patch Patch) (string, error) {
	want, err := sourcefacts.ParseContentHash(expectedHash)
	if err != nil {
		return "", fmt.Errorf("rlm: apply patch to %s: %w", path, err)
	}
	got, err := p.proj.ApplyPatch(ctx, path, want, patch)
	if err != nil {
		if got == (sourcefacts.ContentHash{}) {
			return "", err
		}
		return got.String(), err
	}
	if _, err := p.proj.Store().Flush(ctx); err != nil {
		return got.String(), fmt.Errorf("rlm: %s written (%s), not yet published: %w", path, got, err)
	}
	if _, err := p.Refresh(ctx); err != nil {
		return got.String(), fmt.Errorf("rlm: %s written (%s), not yet searchable: %w", path, got, err)
	}
	return got.String(), nil
}
