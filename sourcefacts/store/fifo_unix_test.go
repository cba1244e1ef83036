//go:build unix

package store

import (
	"os"
	"syscall"
)

func mkfifo(path string) error { return syscall.Mkfifo(path, 0o644) }

// canSIGKILL: processes can be killed with SIGKILL and the wait status
// says so.
const canSIGKILL = true

// diedOfSIGKILL reports whether the process ended by SIGKILL.
func diedOfSIGKILL(ps *os.ProcessState) bool {
	ws, ok := ps.Sys().(syscall.WaitStatus)
	return ok && ws.Signaled() && ws.Signal() == syscall.SIGKILL
}
