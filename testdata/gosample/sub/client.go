package sub

import "example.com/sample"

// Fetch parses a multipart form boundary and calls the server.
func Fetch(s *sample.Server, w sample.Writer) {
	s.ServeHTTP(w, "/fetch")
}

// Retry calls Fetch twice.
func Retry(s *sample.Server, w sample.Writer) {
	Fetch(s, w)
	Fetch(s, w)
}
