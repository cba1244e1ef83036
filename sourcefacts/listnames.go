package sourcefacts

import (
	"strings"
	"unicode/utf8"
)

// dirNames says which of the names the listing probes for (probedNames)
// a directory may hold, one bit each: a probe (an lstat of the name in
// the directory) can only find a name the directory's entries hold. An
// entry matches a probed name with ASCII letters of either case (a file
// system that ignores case finds ".GitIgnore" for ".gitignore"); a name
// with a byte past ASCII (which such a file system may fold to one of
// them) may be any of them. allNames, for a directory whose entries are
// not all known, makes every probe.
type dirNames uint32

const allNames = ^dirNames(0)

// probedNames are the names Lister looks for in a directory: its ignore
// files, the marks of a virtual environment and of build output, and the
// build manifests.
var probedNames = func() map[string]dirNames {
	names := append([]string{"pyvenv.cfg", "conda-meta", "CACHEDIR.TAG", "CMakeCache.txt"}, ignoreFiles...)
	names = append(names, buildManifests...)
	m := make(map[string]dirNames, len(names))
	for i, n := range names {
		m[strings.ToLower(n)] = 1 << i
	}
	return m
}()

// maxProbedName is the length of the longest probed name, in bytes.
const maxProbedName = len("build.gradle.kts")

// namesOf returns the probed names a directory with entries may hold.
func namesOf(entries []dirEntry) dirNames {
	var n dirNames
	var buf [maxProbedName]byte
	for _, e := range entries {
		name := e.name
		for i := 0; i < len(name); i++ {
			if name[i] >= utf8.RuneSelf {
				return allNames
			}
		}
		if len(name) > maxProbedName {
			continue
		}
		lower := buf[:len(name)]
		for i := 0; i < len(name); i++ {
			c := name[i]
			if 'A' <= c && c <= 'Z' {
				c += 'a' - 'A'
			}
			lower[i] = c
		}
		n |= probedNames[string(lower)]
	}
	return n
}

// may reports whether the directory may hold name, one of probedNames.
func (n dirNames) may(name string) bool {
	b, ok := probedNames[strings.ToLower(name)]
	return !ok || n&b != 0
}
