// Package sample is a small Go tree for CLI tests.
package sample

import "fmt"

// Server answers requests.
type Server struct {
	Addr string
}

// ServeHTTP handles one request.
func (s *Server) ServeHTTP(w Writer, path string) {
	handle(w, path)
}

// handle writes a greeting for path.
func handle(w Writer, path string) {
	fmt.Fprintf(w, "hello %s", path)
}

// Writer receives output.
type Writer interface {
	Write(p []byte) (int, error)
}
