require_relative "../lib/cost"

# The shipping cost of a parcel weight: shipping cost of each parcel by weight.
def parcel_weight_shipping_cost
  shipping_cost(2) == 8
end
