#include <stdio.h>
#include "util.h"

#define MAX(a, b) ((a) > (b) ? (a) : (b))
#define LIMIT 10

/* A point. */
struct point {
    int x;
};

typedef struct point point_t;

enum color { RED, GREEN };

int helper(int x);

/* area computes. */
static int area(const struct point *p)
{
    return helper(p->x) + MAX(1, 2);
}

int *make(void) {
    printf("%d\n", area(NULL));
    return 0;
}
