//go:build linux

package store

import (
	"io"
	"io/fs"
	"syscall"
)

// rawSource is a file validation reads through the system calls alone:
// no *os.File, whose open asks the poller to take every regular file (a
// refused epoll_ctl) and sets a finalizer — a quarter of the reads' time
// on GOROOT/src (5,706 files on two goroutines, 43 → 33 ms). Errors are
// the *fs.PathError values an *os.File gives ("open PATH: …").
type rawSource struct {
	fd   int
	path string
}

// openSource opens abs for reading without blocking on a FIFO.
func openSource(abs string) (sourceFile, error) {
	for {
		fd, err := syscall.Open(abs, syscall.O_RDONLY|syscall.O_NONBLOCK|syscall.O_CLOEXEC, 0)
		if err == nil {
			return &rawSource{fd: fd, path: abs}, nil
		}
		if err != syscall.EINTR {
			return nil, &fs.PathError{Op: "open", Path: abs, Err: err}
		}
	}
}

func (f *rawSource) stat() (statInfo, bool, error) {
	var st syscall.Stat_t
	for {
		err := syscall.Fstat(f.fd, &st)
		if err == nil {
			break
		}
		if err != syscall.EINTR {
			return statInfo{}, false, &fs.PathError{Op: "stat", Path: f.path, Err: err}
		}
	}
	// As statOf of the *os.File's FileInfo: size, mtime in ns, inode.
	return statInfo{Size: st.Size, MtimeNS: st.Mtim.Nano(), Ino: int64(st.Ino)}, st.Mode&syscall.S_IFMT == syscall.S_IFREG, nil
}

// Read reads up to len(p) bytes; io.EOF at the end, as an *os.File.
func (f *rawSource) Read(p []byte) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	for {
		n, err := syscall.Read(f.fd, p)
		switch {
		case err == syscall.EINTR:
			continue
		case err != nil:
			return 0, &fs.PathError{Op: "read", Path: f.path, Err: err}
		case n == 0:
			return 0, io.EOF
		}
		return n, nil
	}
}

func (f *rawSource) Close() error { return syscall.Close(f.fd) }
