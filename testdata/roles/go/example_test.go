package shipping

import "fmt"

// ExampleShippingCost prints the shipping cost of a parcel from its weight: a shipping cost quote for a parcel weight.
func ExampleShippingCost() {
	fmt.Println(ShippingCost(2))
	// Output: 8
}

// Example_parcelWeight shows the shipping cost of a heavy parcel weight.
func Example_parcelWeight() {
	fmt.Println(ShippingCost(20))
	// Output: 44
}

// Examplesweight is a helper of the examples, not an example: its name goes on in lower case.
func Examplesweight() int { return 2 }
