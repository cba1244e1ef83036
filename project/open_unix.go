//go:build unix

package project

import (
	"os"
	"syscall"
)

// openNoBlock opens name under r read-only with O_NONBLOCK, so that a FIFO
// without a writer (or a device) never blocks the open; the caller refuses
// what is not a regular file.
func openNoBlock(r *os.Root, name string) (*os.File, error) {
	return r.OpenFile(name, os.O_RDONLY|syscall.O_NONBLOCK, 0)
}
