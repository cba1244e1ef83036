# A depot of crates, without docstrings (after Python email's message.py
# and generator.py with theirs stripped): special methods whose names share
# no word with the sentences that describe them.


class Shelf:
    def __init__(self, crates, policy=None):
        self._crates = list(crates)
        self.policy = policy

    def __len__(self):
        return len(self._crates)

    def __iter__(self):
        return iter(self._crates)

    def stack_crates(self, crates):
        for crate in crates:
            self._crates.append(crate)

    def crate_labels(self):
        return [crate.label for crate in self._crates]


class Ledger:
    def __init__(self, shelf):
        self.shelf = shelf
        self.entries = []

    def record(self, crate):
        self.entries.append(crate.label)
