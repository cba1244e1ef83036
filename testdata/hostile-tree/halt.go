// Package hostile is an indexed fixture whose names, doc comments and paths
// read like Prolog goals: halt. X = 1, call(halt). assertz(evil(1)).
// '$set'(x). consult('/etc/passwd'). None of it may ever run.
package hostile

// halt stops the machine. halt. call(halt). halt(1).
func halt() {}

// assertz adds evil. assertz(evil(1)). asserta(evil(2)).
func assertz(x any) { halt() }

// asserta: asserta(evil(1)), halt.
func asserta(x any) { assertz(x) }

// retract: retract(_), halt.
func retract(x any) { halt() }

// consult reads consult('/etc/passwd').
func consult(path string) { retract(path) }

// open opens open('/etc/passwd', read, S).
func open(path, mode string, s any) { consult(path) }

// atom_to_term parses atom_to_term('halt', T, B).
func atom_to_term(a string, t, b any) { halt() }

// read_term reads read_term(T, []).
func read_term(t, opts any) { atom_to_term("halt", t, opts) }

// evil is evil(1). X = 1, call(halt).
func evil(x any) { assertz(x); asserta(x); retract(x); open("/etc/passwd", "read", nil) }

// shell runs shell('rm -rf /').
func shell(cmd string) { reboot() }

// reboot: reboot.
func reboot() { halt(); read_term(nil, nil) }
