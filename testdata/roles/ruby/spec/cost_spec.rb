require_relative "../lib/cost"

# Checks that the shipping cost grows with the parcel weight: shipping cost of a parcel weight.
def check_parcel_shipping_cost_weight
  shipping_cost(2) < shipping_cost(3)
end
