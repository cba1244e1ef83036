require_relative "../lib/cost"

# Print the shipping cost of a parcel from its weight: a shipping cost quote for a parcel weight.
def print_parcel_shipping_cost(weight)
  puts shipping_cost(weight)
end
