//go:build unix

package project_test

import (
	"os"
	"syscall"
	"testing"
)

// lockExclusive holds an exclusive flock(2) on path, as a build under way
// does on its temporary file, until the returned function is called.
func lockExclusive(t *testing.T, path string) func() {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX); err != nil {
		t.Fatal(err)
	}
	return func() { f.Close() }
}
