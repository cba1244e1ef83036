int shipping_cost(int weight);

/* Checks that the shipping cost grows with the parcel weight: shipping cost of a parcel weight. */
int check_parcel_shipping_cost_weight(void) {
    return shipping_cost(2) < shipping_cost(3);
}
