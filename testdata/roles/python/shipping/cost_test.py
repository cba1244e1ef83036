from shipping.cost import shipping_cost


def check_parcel_shipping_cost_weight():
    """Checks that the shipping cost grows with the parcel weight: shipping cost of a parcel weight."""
    assert shipping_cost(2) < shipping_cost(3)
