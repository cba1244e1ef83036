//go:build unix

package project

import (
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// TestOpeningAFIFONeverBlocks: openRegular refuses a named pipe with no
// writer at once (errNotRegular) instead of blocking in open, which would
// leak a goroutine and a descriptor per read.
func TestOpeningAFIFONeverBlocks(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo.go")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skip("no FIFOs:", err)
	}
	r, err := os.OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	done := make(chan error, 1)
	go func() {
		f, err := openRegular(r, "fifo.go")
		if err == nil {
			f.Close()
		}
		done <- err
	}()
	select {
	case err := <-done:
		if !errors.Is(err, errNotRegular) {
			t.Fatalf("openRegular(FIFO) = %v, want errNotRegular", err)
		}
	case <-time.After(5 * time.Second):
		// Release the blocked open: a writer makes it return.
		if w, err := os.OpenFile(fifo, os.O_WRONLY|syscall.O_NONBLOCK, 0); err == nil {
			defer w.Close()
		}
		t.Fatal("openRegular blocked on a FIFO")
	}
}
