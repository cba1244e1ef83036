#include "mail.h"

void Mail::send() {}
