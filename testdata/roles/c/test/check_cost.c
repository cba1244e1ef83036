int shipping_cost(int weight);

/* The shipping cost of a parcel weight: shipping cost of each parcel by weight. */
int parcel_weight_shipping_cost(void) {
    return shipping_cost(2) == 8;
}
