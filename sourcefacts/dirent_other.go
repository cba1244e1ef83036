//go:build !linux

package sourcefacts

import "os"

// readDirEntries reads the entries of directory abs with os.ReadDir
// (sorted by name; those read before an error returned with it). buf is
// unused here (the Linux reader reads through it).
func readDirEntries(abs string, buf []byte) ([]dirEntry, []byte, error) {
	es, err := os.ReadDir(abs)
	out := make([]dirEntry, len(es))
	for i, e := range es {
		out[i] = dirEntry{name: e.Name(), typ: e.Type()}
	}
	return out, buf, err
}
