def heavy_parcel_weight_shipping_cost():
    """Shipping cost of a heavy parcel weight, for the shipping cost checks."""
    return 40
