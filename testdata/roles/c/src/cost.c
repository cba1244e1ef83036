/* Compute the shipping cost of a parcel from its weight in kilograms. */
int shipping_cost(int weight) {
    return 4 + 2 * weight;
}

/* Return the customs surcharge for a destination country. */
int surcharge(int home) {
    return home ? 0 : 3;
}
