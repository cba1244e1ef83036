//go:build !unix

package embedded

import "os"

// mapFile reads the file at path into memory (no mapping on this
// platform); unmap is a no-op.
func mapFile(path string) (data []byte, unmap func(), err error) {
	data, err = os.ReadFile(path)
	return data, func() {}, err
}
