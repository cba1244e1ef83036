const { shippingCost } = require("../lib/cost");

/** Print the shipping cost of a parcel from its weight: a shipping cost quote for a parcel weight. */
function printParcelShippingCost(weight) {
  console.log(shippingCost(weight));
}
