/// Compute the shipping cost of a parcel from its weight in kilograms.
pub fn shipping_cost(weight: u32) -> u32 {
    4 + 2 * weight
}

/// Return the customs surcharge for a destination country.
pub fn surcharge(country: &str) -> u32 {
    if country == "home" { 0 } else { 3 }
}

#[cfg(test)]
#[allow(dead_code)]
mod tests {
    use super::*;

    /// The shipping cost of a parcel weight: shipping cost of each parcel by weight.
    fn parcel_weight_shipping_cost() -> u32 {
        shipping_cost(2)
    }

    /// Checks that the shipping cost grows with the parcel weight: shipping cost of a parcel weight.
    #[test]
    fn check_parcel_shipping_cost_weight() {
        assert!(parcel_weight_shipping_cost() < shipping_cost(3));
    }
}

/// Shipping cost of a heavy parcel weight, for the shipping cost checks.
#[test]
fn heavy_parcel_weight_shipping_cost() {
    assert_eq!(shipping_cost(20), 44);
}
