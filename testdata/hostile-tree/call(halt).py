"""call(halt). X = 1, call(halt). assertz(evil(1))."""


def halt():
    """halt. halt(1). call(halt)."""
    return None


def read_term(t, opts):
    """read_term(T, []), halt."""
    return halt()


def atom_to_term(a, t, b):
    """atom_to_term('halt', T, B)."""
    return read_term(t, b)


def shell(cmd):
    """shell('rm -rf /')."""
    return atom_to_term(cmd, None, None)
