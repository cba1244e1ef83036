from shipping.cost import shipping_cost


def print_parcel_shipping_cost(weight):
    """Print the shipping cost of a parcel from its weight: a shipping cost quote for a parcel weight."""
    print(shipping_cost(weight))
