//go:build unix

package store

import (
	"io/fs"
	"os"
	"syscall"
)

// openNonBlocking opens abs for reading without blocking on a FIFO.
func openNonBlocking(abs string) (*os.File, error) {
	return os.OpenFile(abs, os.O_RDONLY|syscall.O_NONBLOCK, 0)
}

func statOf(fi fs.FileInfo) statInfo {
	st := statInfo{Size: fi.Size(), MtimeNS: fi.ModTime().UnixNano()}
	if sys, ok := fi.Sys().(*syscall.Stat_t); ok {
		st.Ino = int64(sys.Ino)
	}
	return st
}

func syncDir(dir string) {
	if d, err := os.Open(dir); err == nil {
		d.Sync()
		d.Close()
	}
}
