/* A C header: no C++ constructs, only extern "C" for C++ callers. */
#ifdef __cplusplus
extern "C" {
#endif

struct point { int x; };

static inline int norm(struct point p) { return scale(p.x); }

#ifdef __cplusplus
}
#endif
