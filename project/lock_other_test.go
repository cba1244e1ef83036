//go:build !unix

package project_test

import "testing"

// lockExclusive: without flock(2) the search index files are not locked
// (see lock_other.go), so there is nothing to hold.
func lockExclusive(t *testing.T, path string) func() {
	t.Skip("search index files are not locked on this system")
	return func() {}
}
