int shipping_cost(int weight);

// Shipping cost of a heavy parcel weight, for the shipping cost checks.
int heavy_parcel_weight_shipping_cost() {
    return shipping_cost(20) == 44;
}
