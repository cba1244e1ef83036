#ifndef UTIL_H
#define UTIL_H
int helper(int x);
#endif
