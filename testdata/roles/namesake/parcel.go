// Package parcel routes parcels to depots.
package parcel

// Handler routes a parcel to its depot.
type Handler interface {
	Route(parcel string) string
}

// Mux holds the handler of each depot.
type Mux struct{ depots map[string]Handler }

// Handler returns the handler of a parcel's depot.
func (m *Mux) Handler(parcel string) Handler { return m.depots[parcel] }
