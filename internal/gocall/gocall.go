// Package gocall finds the function a Go call expression calls, with
// go/types' answers: shared by the go/types gold of `rlm eval` (package
// eval) and the callers oracle of the root package's tests.
package gocall

import (
	"go/ast"
	"go/types"
)

// Callee is the function or method call calls, through a generic
// instantiation (f[T](...), f[K, V](...)) and parentheses, as info (from
// a type check with Uses recorded) resolved it: nil for a call of a
// function value, a conversion or a builtin.
func Callee(info *types.Info, call *ast.CallExpr) *types.Func {
	fun := ast.Unparen(call.Fun)
	switch f := fun.(type) {
	case *ast.IndexExpr:
		fun = f.X
	case *ast.IndexListExpr:
		fun = f.X
	}
	var id *ast.Ident
	switch f := fun.(type) {
	case *ast.Ident:
		id = f
	case *ast.SelectorExpr:
		id = f.Sel
	}
	if id == nil {
		return nil
	}
	fn, _ := info.Uses[id].(*types.Func)
	return fn
}
