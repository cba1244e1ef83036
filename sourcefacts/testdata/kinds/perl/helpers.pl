use strict;
use warnings;

sub helper {
    return 1;
}
