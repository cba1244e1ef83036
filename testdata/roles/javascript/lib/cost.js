/** Compute the shipping cost of a parcel from its weight in kilograms. */
function shippingCost(weight) {
  return 4 + 2 * weight;
}

/** Return the customs surcharge for a destination country. */
function surcharge(country) {
  return country === "home" ? 0 : 3;
}

module.exports = { shippingCost, surcharge };
