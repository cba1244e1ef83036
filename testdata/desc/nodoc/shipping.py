# A shipping module without docstrings but one (after Python email as
# rlm eval's description_nodoc task strips it): what its definitions do
# is written only in their code.


class Depot:
    capacity = 40

    def stow(self, crate):
        # stack the heaviest crates at the bottom of the pallet
        pallet = sorted(crate.items, key=len)
        return pallet


def fold(text, width):
    out = []
    for line in text.splitlines():
        # wrap long lines at the column limit
        while len(line) > width:
            out.append(line[:width])
            line = line[width:]
        out.append(line)
    return out


def limit_columns(columns):
    return columns[:80]


def wrap_label(label):
    return "[" + label + "]"


def long_lines(rows):
    return [r for r in rows if r]


def pack(crate):
    """Seal a crate for shipping."""
    # shrinkwrap the crate onto a pallet
    crate.sealed = True
    return crate
