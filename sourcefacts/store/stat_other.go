//go:build !unix

package store

import (
	"io/fs"
	"os"
)

func openNonBlocking(abs string) (*os.File, error) {
	fi, err := os.Stat(abs)
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, errNotRegular
	}
	return os.Open(abs)
}

// statOf has no inode off Unix: size and mtime only.
func statOf(fi fs.FileInfo) statInfo {
	return statInfo{Size: fi.Size(), MtimeNS: fi.ModTime().UnixNano()}
}

func syncDir(string) {}
