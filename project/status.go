package project

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/rlm-dev/rlm/sourcefacts"
	"github.com/rlm-dev/rlm/sourcefacts/store"
)

// ErrNoKnowledgeBase: the tree has no knowledge base yet.
var ErrNoKnowledgeBase = errors.New("project: no knowledge base")

// Status is the knowledge base's state after validation: its file, the
// snapshot's identity, sizes and counts, every file that is not current
// (stale, partial or error), with its status and error text, and every
// file skipped (over the size cap, not ours, no language), with its
// reason in Error and how its language was decided in LanguageBy.
// ByContent lists the files read in a language their extension did not
// settle (LanguageBy not "extension ..."): .h headers read as C or C++,
// scripts by their #! line or mode line. Faults are the paths the walk
// could not see (a directory it could not read, a special file, a link it
// could not resolve), each with its cause; the rest of the tree is in the
// snapshot.
type Status struct {
	DBPath     string
	Snapshot   store.Identity
	Stats      store.Stats
	NotCurrent []store.FileState
	Skipped    []store.FileState
	ByContent  []store.FileState
	Faults     []sourcefacts.PathFault
	// ReadOnly: the knowledge base file cannot be written; the snapshot is
	// its last generation and NotCurrent includes the files whose bytes
	// differ from it (Error starting with store.ReadOnlyReason).
	ReadOnly bool
	// VectorFailure is the recorded failure of an embedder on a snapshot
	// (see VectorFailure), nil without one.
	VectorFailure *VectorFailure
	// SearchIndexBytes is the size on disk, in bytes, of the search index
	// files beside the knowledge base (every generation's still there,
	// with their quantised vector bases and write-ahead logs); 0 when
	// there are none.
	SearchIndexBytes int64
}

// ReadStatus validates root's existing knowledge base against the files'
// bytes (every file is hashed; no watcher; a changed file is re-extracted
// and published like any command does) and reports its state, without
// building a search index. It creates no knowledge base: without one it
// returns an error wrapping ErrNoKnowledgeBase. opts.DBPath, opts.Files,
// opts.MaxFileBytes and opts.Progress apply.
func ReadStatus(ctx context.Context, root string, opts Options) (*Status, error) {
	abs, err := filepath.Abs(root)
	if err != nil {
		return nil, fmt.Errorf("project: status %s: %w", root, err)
	}
	db, looked := opts.DBPath, opts.DBPath
	if db == "" {
		db = existingDBPath(abs)
		looked = filepath.Join(abs, ".rlm", "kb.sqlite") + " and " + cacheDBPath(abs)
	}
	if _, err := os.Stat(db); err != nil {
		return nil, fmt.Errorf("%w for %s (looked for %s); index it first", ErrNoKnowledgeBase, root, looked)
	}
	st, done, err := OpenStore(ctx, abs, db, opts.Files, opts.MaxFileBytes)
	if err != nil {
		return nil, err
	}
	defer done()
	defer st.Close()
	return readStatus(ctx, st, opts.Progress)
}

// Status validates the open knowledge base against the files' bytes, as
// ReadStatus does (a changed file is re-extracted and published; the
// search index moves at the next Refresh), and reports its state. After
// Close it returns an error wrapping store.ErrClosed.
func (p *Project) Status(ctx context.Context) (*Status, error) {
	p.refreshMu.Lock()
	defer p.refreshMu.Unlock()
	if p.closed {
		return nil, fmt.Errorf("project: status %s: %w", p.root, store.ErrClosed)
	}
	return readStatus(ctx, p.st, nil)
}

func readStatus(ctx context.Context, st *store.Store, progress func(Progress)) (*Status, error) {
	so := store.SnapshotOptions{}
	if progress != nil {
		so.Progress = func(done, total int) { progress(Progress{Phase: PhaseCheck, Done: done, Total: total}) }
	}
	sn, err := st.Snapshot(ctx, store.All(), so)
	if err != nil {
		return nil, err
	}
	defer sn.Close()
	s := &Status{DBPath: st.DBPath(), Snapshot: sn.Identity(), Faults: sn.Faults(), ReadOnly: st.ReadOnly(),
		VectorFailure: readVectorFailure(st.DBPath()), SearchIndexBytes: searchIndexBytes(st.DBPath())}
	if s.Stats, err = st.Stats(ctx); err != nil {
		return nil, err
	}
	if s.NotCurrent, err = sn.NotCurrent(ctx); err != nil {
		return nil, err
	}
	if s.Skipped, err = sn.Skipped(ctx); err != nil {
		return nil, err
	}
	files, err := sn.Files(ctx)
	if err != nil {
		return nil, err
	}
	for _, f := range files {
		if f.Language != "" && !strings.HasPrefix(f.LanguageBy, "extension ") {
			s.ByContent = append(s.ByContent, f)
		}
	}
	return s, nil
}

// searchIndexBytes sums the sizes of the search index files (named
// searchIndexPrefix…) in the knowledge base's directory.
func searchIndexBytes(dbPath string) int64 {
	entries, err := os.ReadDir(filepath.Dir(dbPath))
	if err != nil {
		return 0
	}
	var n int64
	for _, e := range entries {
		if !e.Type().IsRegular() || !strings.HasPrefix(e.Name(), searchIndexPrefix) {
			continue
		}
		if info, err := e.Info(); err == nil {
			n += info.Size()
		}
	}
	return n
}
