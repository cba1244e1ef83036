from shipping.cost import shipping_cost


def check_parcel_shipping_cost_weight():
    """Shipping cost of a parcel weight: the shipping cost grows with the parcel weight."""
    assert shipping_cost(2) < shipping_cost(3)
