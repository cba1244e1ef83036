require_relative "cost"

# Shipping cost of a heavy parcel weight, for the shipping cost checks.
def heavy_parcel_weight_shipping_cost
  shipping_cost(20) == 44
end
