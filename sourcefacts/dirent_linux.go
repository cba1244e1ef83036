//go:build linux

package sourcefacts

import (
	"encoding/binary"
	"errors"
	"io/fs"
	"os"
	"syscall"
)

// readDirEntries reads the entries of directory abs as os.ReadDir does —
// the same entries, types and order (by name), the same errors (the
// *fs.PathError of the open, "open", or of a read, "readdirent"; the
// entries read before an error returned with it; an entry of a type the
// file system does not say lstat'ed, left out if gone) — through the
// system calls alone: open (O_DIRECTORY), getdents64 into buf (grown to
// dirBufSize, handed back for reuse), close. No *os.File with its
// finalizer, no fs.DirEntry allocated per entry.
func readDirEntries(abs string, buf []byte) ([]dirEntry, []byte, error) {
	if cap(buf) < dirBufSize {
		buf = make([]byte, dirBufSize)
	}
	buf = buf[:cap(buf)]
	var fd int
	for {
		var err error
		fd, err = syscall.Open(abs, syscall.O_RDONLY|syscall.O_CLOEXEC|syscall.O_DIRECTORY, 0)
		if err == nil {
			break
		}
		if err != syscall.EINTR {
			return nil, buf, &fs.PathError{Op: "open", Path: abs, Err: err}
		}
	}
	defer syscall.Close(fd)
	var out []dirEntry
	for {
		n, err := syscall.Getdents(fd, buf)
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return sortEntries(out), buf, &fs.PathError{Op: "readdirent", Path: abs, Err: err}
		}
		if n <= 0 {
			return sortEntries(out), buf, nil
		}
		if out, err = appendDirents(out, abs, buf[:n]); err != nil {
			return sortEntries(out), buf, err
		}
	}
}

// linux_dirent64: d_ino (8 bytes), d_off (8), d_reclen (2), d_type (1),
// d_name (NUL-terminated).
const (
	direntIno    = 0
	direntReclen = 16
	direntType   = 18
	direntName   = 19
)

// appendDirents appends the entries of the getdents64 records in b, but
// "." and ".." and records of inode 0 (removed entries). An entry of unknown type is lstat'ed: one that is gone is
// left out, any other error of the lstat ends the read (os.File.ReadDir's
// rules).
func appendDirents(out []dirEntry, dir string, b []byte) ([]dirEntry, error) {
	for len(b) >= direntName {
		reclen := int(binary.NativeEndian.Uint16(b[direntReclen:]))
		if reclen < direntName || reclen > len(b) {
			break
		}
		rec := b[:reclen]
		b = b[reclen:]
		if binary.NativeEndian.Uint64(rec[direntIno:]) == 0 {
			continue // a removed entry's record (os.File.ReadDir skips it too)
		}
		name := rec[direntName:]
		for i, c := range name {
			if c == 0 {
				name = name[:i]
				break
			}
		}
		if string(name) == "." || string(name) == ".." {
			continue
		}
		e := dirEntry{name: string(name)}
		switch rec[direntType] {
		case syscall.DT_REG:
		case syscall.DT_DIR:
			e.typ = fs.ModeDir
		case syscall.DT_LNK:
			e.typ = fs.ModeSymlink
		case syscall.DT_FIFO:
			e.typ = fs.ModeNamedPipe
		case syscall.DT_SOCK:
			e.typ = fs.ModeSocket
		case syscall.DT_BLK:
			e.typ = fs.ModeDevice
		case syscall.DT_CHR:
			e.typ = fs.ModeDevice | fs.ModeCharDevice
		default: // DT_UNKNOWN: the file system does not say
			fi, err := os.Lstat(dir + "/" + e.name)
			if errors.Is(err, fs.ErrNotExist) {
				continue // gone since the directory was read
			}
			if err != nil {
				return out, err
			}
			e.typ = fi.Mode().Type()
		}
		out = append(out, e)
	}
	return out, nil
}
