int shipping_cost(int weight);

/* Shipping cost of a parcel weight: the shipping cost grows with the parcel weight. */
int check_parcel_shipping_cost_weight(void) {
    return shipping_cost(2) < shipping_cost(3);
}
