from shipping.cost import shipping_cost


def test_shipping_cost_of_parcel_weight(parcel_weight):
    """The shipping cost of a parcel weight: shipping cost of each parcel by weight."""
    assert shipping_cost(parcel_weight) == 8
