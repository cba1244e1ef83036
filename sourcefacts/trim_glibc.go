//go:build linux && cgo

package sourcefacts

/*
#include <stdlib.h>
#include <features.h>
#ifdef __GLIBC__
#include <malloc.h>
static int rlm_malloc_trim(void) { return malloc_trim(0); }
#else
static int rlm_malloc_trim(void) { return 0; }
#endif
*/
import "C"

// ReleaseFreedCMemory hands the C heap's free memory back to the system
// (glibc's malloc_trim(0), which trims every malloc arena; nothing with
// another C library). Tree-sitter parses on many threads, and glibc keeps
// what a thread's arena freed for later: after extracting a large tree,
// hundreds of megabytes of resident memory no one uses. It reports
// whether memory was released. Safe to call at any time, from any
// goroutine; it takes the arenas' locks for a few milliseconds.
func ReleaseFreedCMemory() bool { return C.rlm_malloc_trim() != 0 }
