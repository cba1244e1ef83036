const { shippingCost } = require("./cost");

/** Shipping cost of a parcel weight: the shipping cost grows with the parcel weight. */
function checkParcelShippingCostWeight() {
  return shippingCost(2) < shippingCost(3);
}
