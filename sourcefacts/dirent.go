package sourcefacts

import (
	"io/fs"
	"slices"
	"strings"
)

// dirEntry is one entry of a directory as the listing reads it: its name
// and its type bits (fs.FileMode.Type: 0 for a regular file, ModeDir,
// ModeSymlink, ModeNamedPipe, ModeSocket, ModeDevice with or without
// ModeCharDevice), as fs.DirEntry's Name and Type give them.
type dirEntry struct {
	name string
	typ  fs.FileMode
}

func (e dirEntry) IsDir() bool { return e.typ.IsDir() }

// dirBufSize is the size of the buffer a directory is read through.
const dirBufSize = 32 << 10

// sortEntries sorts es by name, as os.ReadDir does: directories are
// listed, and Match called, in name order.
func sortEntries(es []dirEntry) []dirEntry {
	slices.SortFunc(es, func(a, b dirEntry) int { return strings.Compare(a.name, b.name) })
	return es
}
