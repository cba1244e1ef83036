package shipping

import "testing"

// parcelWeightShippingCost is the shipping cost of a parcel weight: shipping cost of each parcel by weight.
func parcelWeightShippingCost(weight int) int {
	return ShippingCost(weight)
}

// TestShippingCostParcelWeight checks the shipping cost of a parcel weight.
func TestShippingCostParcelWeight(t *testing.T) {
	if parcelWeightShippingCost(2) != 8 {
		t.Fatal("shipping cost")
	}
}
