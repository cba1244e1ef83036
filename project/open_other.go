//go:build !unix

package project

import "os"

// openNoBlock opens name under r read-only, after checking that it is a
// regular file (there is no O_NONBLOCK here).
func openNoBlock(r *os.Root, name string) (*os.File, error) {
	fi, err := r.Stat(name)
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, errNotRegular
	}
	return r.Open(name)
}
