const { shippingCost } = require("./cost");

/** Checks that the shipping cost grows with the parcel weight: shipping cost of a parcel weight. */
function checkParcelShippingCostWeight() {
  return shippingCost(2) < shippingCost(3);
}
