int parse(const char *s);
extern int verbose;
typedef int (*parse_fn)(const char *s);
