package sourcefacts

// The Go binding of tree-sitter routes every allocation of the C library
// through Go callbacks (go_malloc, go_free, ...) that merely call libc's
// malloc and free. Each C→Go callback costs about a microsecond, and
// parsing and querying allocate constantly: profiles showed a fifth of the
// extraction time spent there. The C library's own defaults are the same
// libc functions called directly, so this package restores them once, at
// init (after the binding's init has installed its callbacks). Memory
// allocated either way is libc memory, so switching is safe at any time;
// a later call to tree_sitter.SetAllocator takes over again as usual.

/*
#include <stddef.h>
void ts_set_allocator(
	void *(*new_malloc)(size_t),
	void *(*new_calloc)(size_t, size_t),
	void *(*new_realloc)(void *, size_t),
	void (*new_free)(void *));
static void rlm_ts_default_allocator(void) { ts_set_allocator(NULL, NULL, NULL, NULL); }
*/
import "C"

func init() { C.rlm_ts_default_allocator() }
