#include <stdio.h>

int shipping_cost(int weight);

/* Print the shipping cost of a parcel from its weight: a shipping cost quote for a parcel weight. */
void print_parcel_shipping_cost(int weight) {
    printf("%d\n", shipping_cost(weight));
}
