#include "parse.h"

static int parse_value(const char *s);

int parse(const char *s) {
#ifdef TRACE
    int depth = 0;
#endif
    return parse_value(s);
}

#ifdef TRACE
static int trace_level = 1;
#endif

static int parse_value(const char *s) {
    return s[0];
}
