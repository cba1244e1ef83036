"""Shipping rates."""


def shipping_cost(weight):
    """Compute the shipping cost of a parcel from its weight in kilograms."""
    return 4 + 2 * weight


def surcharge(country):
    """Return the customs surcharge for a destination country."""
    return 0 if country == "home" else 3
