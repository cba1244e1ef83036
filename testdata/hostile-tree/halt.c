/* halt. call(halt). assertz(evil(1)). */

/* halt: halt. */
void halt(void) {}

/* reboot: reboot, halt. */
int reboot(void) {
  halt();
  return 0;
}

/* evil: evil(1). */
int evil(int x) { return reboot() + x; }
