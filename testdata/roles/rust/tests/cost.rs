/// An integration check of the shipping cost of a parcel weight: shipping cost per parcel weight.
fn integration_parcel_weight_shipping_cost() -> u32 {
    shipping::shipping_cost(3)
}

/// An integration test of the customs surcharge.
#[test]
fn surcharge_abroad() {
    assert_eq!(shipping::surcharge("abroad"), 3);
}
