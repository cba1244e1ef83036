//go:build !unix

package project

import "os"

// fileLock is a no-op where flock(2) is not available: there, removing an
// old search index while another process reads it is left to the OS
// (Windows refuses to delete an open file).
type fileLock struct{}

func lockShared(path string) (*fileLock, error) {
	if _, err := os.Stat(path); err != nil {
		return nil, err
	}
	return &fileLock{}, nil
}

func tryLockExclusive(path string) (*fileLock, bool) { return &fileLock{}, true }

func (l *fileLock) unlock() {}
