def loads(s):
    """Parse JSON text."""
    return s


class Decoder:
    def decode(self, s):
        return loads(s)
