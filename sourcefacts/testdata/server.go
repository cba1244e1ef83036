// Copyright notice: not a doc comment.

// Package server is a small fixture for the extractor tests.
package server

import (
	_ "embed"
	"fmt"
	h "net/http"
	. "strings"
)

// MaxConns caps the connections.
const MaxConns = 10

const (
	// A is documented.
	A = iota
	B // trails code: not B's doc

	C
)

var (
	// Default is the default server.
	Default = New()
	x, y    = 1, 2
)

// Handler responds to a request.
type Handler interface {
	// ServeHTTP serves one request.
	ServeHTTP(w h.ResponseWriter, r *h.Request)
}

// HandlerFunc adapts a function to Handler.
type HandlerFunc func(h.ResponseWriter, *h.Request)

// ServeHTTP calls f(w, r).
func (f HandlerFunc) ServeHTTP(w h.ResponseWriter, r *h.Request) {
	f(w, r)
}

// Server serves.
//
// It has two paragraphs.
type Server struct {
	Addr    string // the address
	Handler Handler
	count   int
}

/*
New returns a Server.
*/
func New() *Server {
	return &Server{Addr: ":80"}
}

// ServeHTTP dispatches to s.Handler.
func (s *Server) ServeHTTP(w h.ResponseWriter, r *h.Request) {
	s.count++
	s.Handler.ServeHTTP(w, r)
	fmt.Println(ToUpper(r.URL.Path))
}

// List is a generic list.
type List[T any] struct {
	items []T
}

// Push appends v.
func (l *List[T]) Push(v T) { l.items = append(l.items, v) }

// Alias is another name for Server.
type Alias = Server

func helper() int {
	type local struct{ n int }
	v := local{n: 1}
	return (v.get)() + len(fmt.Sprint(v))
}

func (l local) get() int { return l.n }

// Directive is documented.
//
//go:noinline
func Directive() {}
