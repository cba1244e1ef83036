// Command quote prints a shipping cost.
package main

import "fmt"

// printParcelShippingCost prints the shipping cost of a parcel from its weight: a shipping cost quote for a parcel weight.
func printParcelShippingCost(weight int) {
	fmt.Println(4 + 2*weight)
}

func main() { printParcelShippingCost(2) }
