// Package shipping prices parcels.
package shipping

// ShippingCost computes the shipping cost of a parcel from its weight in kilograms.
func ShippingCost(weight int) int {
	return 4 + 2*weight
}

// Surcharge returns the customs surcharge for a destination country.
func Surcharge(country string) int {
	if country == "home" {
		return 0
	}
	return 3
}
