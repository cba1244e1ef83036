int parse(const char *s);
extern int verbose;
