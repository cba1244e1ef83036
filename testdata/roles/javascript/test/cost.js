const { shippingCost } = require("../lib/cost");

/** The shipping cost of a parcel weight: shipping cost of each parcel by weight. */
function parcelWeightShippingCost() {
  return shippingCost(2) === 8;
}
