const { shippingCost } = require("../lib/cost");

/** Shipping cost of a heavy parcel weight, for the shipping cost checks. */
function heavyParcelWeightShippingCost() {
  return shippingCost(20) === 44;
}
