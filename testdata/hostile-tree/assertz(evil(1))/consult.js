// consult('/etc/passwd'). assertz(evil(1)). halt.

/** consult loads consult('/etc/passwd'), then halt. */
function consult(file) {
  return open(file, "read", null);
}

/** open is open('/etc/passwd', read, S). */
function open(path, mode, s) {
  return retract(path);
}

/** retract: retract(_), halt. */
function retract(x) {
  return halt();
}

function halt() {
  return null;
}
