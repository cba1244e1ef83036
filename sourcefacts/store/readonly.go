package store

import (
	"errors"
	"io/fs"
	"maps"
	"os"
	"slices"
	"strings"
)

// A knowledge base whose file cannot be written when the Store is opened
// (mode 0444, a read-only mount, another user's file) is still read: validation hashes the files
// as always but publishes nothing; the files whose bytes differ from the
// last generation are kept in memory as pending and reported by
// Snapshot.NotCurrent and Snapshot.Files with Status StatusStale, so that
// RequireCurrent refuses them and answers say what they could not see.

// ReadOnlyReason starts the Error of a file a read-only knowledge base
// could not bring up to date.
const ReadOnlyReason = "the knowledge base is read-only:"

// ReadOnly reports whether the knowledge base file cannot be written: it
// answers from its last published generation (see Snapshot.NotCurrent).
func (s *Store) ReadOnly() bool { return s.readOnly.Load() }

// fileReadOnly reports whether the existing file at path refuses to be
// opened for writing (permission or a read-only file system). A missing
// file is not read-only: it will be created.
func fileReadOnly(path string) bool {
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err == nil {
		f.Close()
		return false
	}
	return errors.Is(err, fs.ErrPermission) || strings.Contains(err.Error(), "read-only file system")
}

// pendingReason is the Error of a pending path: how its bytes differ from
// the last generation.
func pendingReason(row *fileRow, o *obs) string {
	switch {
	case o.gone:
		return ReadOnlyReason + " deleted since its last generation"
	case row == nil || !row.present:
		return ReadOnlyReason + " new since its last generation"
	}
	return ReadOnlyReason + " changed since its last generation"
}

// setPending replaces the pending paths that checked selects with those of
// now (path → reason).
func (s *Store) setPending(checked func(string) bool, now map[string]string) {
	s.pendMu.Lock()
	defer s.pendMu.Unlock()
	maps.DeleteFunc(s.pending, func(p, _ string) bool { return checked(p) })
	if s.pending == nil {
		s.pending = map[string]string{}
	}
	maps.Copy(s.pending, now)
}

// pendingIn returns the pending paths in scope (path → reason).
func (s *Store) pendingIn(scope Scope) map[string]string {
	s.pendMu.Lock()
	defer s.pendMu.Unlock()
	out := map[string]string{}
	for p, why := range s.pending {
		if scope.Match(p) {
			out[p] = why
		}
	}
	return out
}

// markPending sets Status StatusStale and the reason on the files of fs
// that are pending, and returns them with a FileState for each pending path
// fs lacks when add is set (a new file), sorted by Path.
func (sn *Snapshot) markPending(fs []FileState, add bool) []FileState {
	if len(sn.pending) == 0 {
		return fs
	}
	seen := map[string]bool{}
	for i := range fs {
		if why, ok := sn.pending[fs[i].Path]; ok {
			fs[i].Status, fs[i].Error = StatusStale, why
			seen[fs[i].Path] = true
		}
	}
	if add {
		for _, p := range slices.Sorted(maps.Keys(sn.pending)) {
			if !seen[p] {
				fs = append(fs, FileState{Path: p, Snapshot: sn.id, Status: StatusStale, Error: sn.pending[p]})
			}
		}
		slices.SortFunc(fs, func(a, b FileState) int { return strings.Compare(a.Path, b.Path) })
	}
	return fs
}
