#include "conn.h"
#include "mail.h"

void serve(Conn& c) { c.send(); }

void post(Mail* m) { m->send(); }

Conn dial() { return Conn::open(); }
