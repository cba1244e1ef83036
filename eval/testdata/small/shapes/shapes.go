// Package shapes is a small tree for the eval tests.
package shapes

// Square is a square of side S.
type Square struct{ S float64 }

// Circle is a circle of radius R.
type Circle struct{ R float64 }

// Area returns the surface of the square.
func (q Square) Area() float64 { return q.S * q.S }

// Area returns the surface of the circle, approximately.
func (c Circle) Area() float64 { return 3.14159 * c.R * c.R }

// TotalSquares adds up the surfaces of several squares.
func TotalSquares(qs []Square) float64 {
	t := 0.0
	for _, q := range qs {
		t += q.Area()
	}
	return t
}

// Largest finds the circle with the biggest radius in a list.
func Largest(cs []Circle) Circle {
	best := Circle{}
	for _, c := range cs {
		if c.Area() > best.Area() {
			best = c
		}
	}
	return best
}
