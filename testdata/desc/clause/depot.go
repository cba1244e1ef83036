// Package depot sends parcels from depots.
package depot

// Request is a parcel request.
type Request struct {
	// For server requests, Host is the sending depot.
	Host string
	// Weight is the parcel's weight in kilograms.
	Weight int
}

// ServerRequestDepot names the depot that server requests for a parcel are sent from.
func ServerRequestDepot(r *Request) string { return r.Host }
