//go:build !linux

package store

import "os"

// osSource is a file validation reads, as an *os.File.
type osSource struct{ *os.File }

// openSource opens abs for reading; not a regular file: errNotRegular.
func openSource(abs string) (sourceFile, error) {
	f, err := openNonBlocking(abs)
	if err != nil {
		return nil, err
	}
	return osSource{f}, nil
}

func (f osSource) stat() (statInfo, bool, error) {
	fi, err := f.Stat()
	if err != nil {
		return statInfo{}, false, err
	}
	return statOf(fi), fi.Mode().IsRegular(), nil
}
