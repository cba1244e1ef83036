#include "parse.h"

static int parse_value(const char *s);

int parse(const char *s) {
    return parse_value(s);
}

static int parse_value(const char *s) {
    return s[0];
}
