//go:build !(linux && cgo)

package sourcefacts

// ReleaseFreedCMemory: see trim_glibc.go; a no-op here.
func ReleaseFreedCMemory() bool { return false }
