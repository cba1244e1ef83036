# Compute the shipping cost of a parcel from its weight in kilograms.
def shipping_cost(weight)
  4 + 2 * weight
end

# Return the customs surcharge for a destination country.
def surcharge(country)
  country == "home" ? 0 : 3
end
