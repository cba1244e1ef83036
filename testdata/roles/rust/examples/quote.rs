/// Print the shipping cost of a parcel from its weight: a shipping cost quote for a parcel weight.
fn print_parcel_shipping_cost(weight: u32) {
    println!("{}", shipping::shipping_cost(weight));
}

fn main() {
    print_parcel_shipping_cost(2);
}
