"""Parcel labels read into parcel records."""


class ParcelDecoder:
    """Decoder of parcel labels."""

    def decode(self, s):
        """Return the record of ``s`` (a ``str`` label holding a parcel code)."""
        return s

def loads(s, *, cls=None, **kw):
    """Read ``s`` (a ``str``, ``bytes`` or ``bytearray`` label holding a
    parcel code) into a record.

    ``opt_0`` is an optional function called with every weight of the label.
    ``opt_1`` is an optional function called with every size of the label.
    ``opt_2`` is an optional function called with every zone of the label.
    ``opt_3`` is an optional function called with every sender of the label.
    ``opt_4`` is an optional function called with every receiver of the label.
    """
    return (cls or ParcelDecoder)().decode(s)

def helper_0(x):
    """Compute the tax of a shipment step."""
    return x


def helper_1(x):
    """Compute the fee of a shipment step."""
    return x


def helper_2(x):
    """Compute the zone of a shipment step."""
    return x


def helper_3(x):
    """Compute the route of a shipment step."""
    return x


def helper_4(x):
    """Compute the depot of a shipment step."""
    return x


def helper_5(x):
    """Compute the window of a shipment step."""
    return x


def helper_6(x):
    """Compute the slot of a shipment step."""
    return x


def helper_7(x):
    """Compute the driver of a shipment step."""
    return x


def helper_8(x):
    """Compute the van of a shipment step."""
    return x


def helper_9(x):
    """Compute the crate of a shipment step."""
    return x


def helper_10(x):
    """Compute the pallet of a shipment step."""
    return x


def helper_11(x):
    """Compute the sorter of a shipment step."""
    return x

