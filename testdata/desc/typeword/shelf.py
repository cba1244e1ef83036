class Ledger:
    def __init__(self):
        self._crates = []

    def add_crate(self, crate):
        self._crates.append(crate)

    def remove_crate(self, crate):
        self._crates.remove(crate)

    def count_crates(self):
        return len(self._crates)

    def crates_by_weight(self):
        return sorted(self._crates, key=crate_weight)


def crate_weight(crate):
    return crate.weight


def crate_label(crate):
    return "crate %s" % crate.name


class Dock:
    def moor(self, boat):
        return boat.rope
