//go:build unix

package project

import (
	"errors"
	"os"
	"syscall"
)

// fileLock is an advisory flock(2) on a search index file: every open
// project holds a shared one on the index it reads, and an index is only
// removed under an exclusive one, so one process's (or one Project's)
// cleanup never deletes an index another still reads.
type fileLock struct{ f *os.File }

// lockShared takes a shared lock on path, waiting for an exclusive holder
// (a remover) to finish. It returns fs.ErrNotExist if path is gone by then.
func lockShared(path string) (*fileLock, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_SH); err != nil {
		f.Close()
		return nil, err
	}
	// The file may have been removed (and another created in its place)
	// while we waited: the lock must be on the file that path names.
	st1, err1 := f.Stat()
	st2, err2 := os.Stat(path)
	if err := errors.Join(err1, err2); err != nil || !os.SameFile(st1, st2) {
		f.Close()
		if err == nil {
			err = os.ErrNotExist
		}
		return nil, err
	}
	return &fileLock{f}, nil
}

// tryLockExclusive takes an exclusive lock on path if no one holds a lock
// on it; ok is false if someone does.
func tryLockExclusive(path string) (l *fileLock, ok bool) {
	f, err := os.Open(path)
	if err != nil {
		return nil, false
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		f.Close()
		return nil, false
	}
	return &fileLock{f}, true
}

func (l *fileLock) unlock() {
	if l != nil && l.f != nil {
		l.f.Close() // closing the descriptor releases the flock
		l.f = nil
	}
}
