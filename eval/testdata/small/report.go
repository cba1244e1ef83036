package small

import "example.com/small/shapes"

// Summary prints a line describing the total surface of the squares.
func Summary(qs []shapes.Square) string {
	if shapes.TotalSquares(qs) > 10 {
		return "big"
	}
	return describe(qs)
}

func describe(qs []shapes.Square) string {
	_ = shapes.Largest(nil)
	return "small"
}
