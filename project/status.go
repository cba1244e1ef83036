package project

import (
	"context"
	"fmt"
	"path/filepath"

	"github.com/rlm-dev/rlm/sourcefacts/store"
)

// Status is the knowledge base's state after validation: its file, the
// snapshot's identity, sizes and counts, and every file that is not
// current (stale, partial or error), with its status and error text.
type Status struct {
	DBPath     string
	Snapshot   store.Identity
	Stats      store.Stats
	NotCurrent []store.FileState
}

// ReadStatus validates root's knowledge base against the files' bytes
// (every file is hashed; no watcher) and reports its state, without
// building a search index. opts.DBPath, opts.Files and opts.Progress
// apply.
func ReadStatus(ctx context.Context, root string, opts Options) (*Status, error) {
	abs, err := filepath.Abs(root)
	if err != nil {
		return nil, fmt.Errorf("project: status %s: %w", root, err)
	}
	st, done, err := OpenStore(ctx, abs, opts.DBPath, opts.Files)
	if err != nil {
		return nil, err
	}
	defer done()
	defer st.Close()
	so := store.SnapshotOptions{}
	if opts.Progress != nil {
		so.Progress = func(done, total int) { opts.Progress(Progress{Phase: PhaseCheck, Done: done, Total: total}) }
	}
	sn, err := st.Snapshot(ctx, store.All(), so)
	if err != nil {
		return nil, err
	}
	defer sn.Close()
	s := &Status{DBPath: st.DBPath(), Snapshot: sn.Identity()}
	if s.Stats, err = st.Stats(ctx); err != nil {
		return nil, err
	}
	if s.NotCurrent, err = sn.NotCurrent(ctx); err != nil {
		return nil, err
	}
	return s, nil
}
