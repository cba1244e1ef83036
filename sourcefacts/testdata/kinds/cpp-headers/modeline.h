// -*- C++ -*-
#define SHOUT 1
int shout(int x);
