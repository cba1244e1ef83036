#!/usr/bin/env perl
# Generate system calls.
use strict;
print "ok\n";
