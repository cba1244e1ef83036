// Package plsyntax is rlm's one reading of Prolog syntax, shared by the
// rule engine (engine) and the source-facts reader (sourcefacts/prologsrc):
// the ISO operator table, a clause scanner that knows where every clause
// and token is, reading one clause's text into a term with ichiban/prolog's
// parser (so that a syntax error belongs to one clause and has a position),
// locating a head or goal token inside a clause, and walking the goals a
// clause body calls through control constructs and meta-predicates.
//
// ichiban/prolog's parser reports no positions. The scanner follows the
// lexical rules of that parser's lexer (ISO syntax), so the clause
// boundaries it finds are the ones the parser would find; each clause is
// then read on its own.
//
// Nothing here runs Prolog: a parser VM has only the operator table and
// flags, and reading a term never calls a goal.
package plsyntax

import (
	"context"
	"fmt"

	pl "github.com/ichiban/prolog/engine"
)

// Op is one row of an operator table: Names are operators of type Spec
// (xfx, fy, ...) at Priority (1..1200).
type Op struct {
	Priority int
	Spec     string
	Names    []string
}

// isoOps is the ISO operator table, as ichiban/prolog's bootstrap.pl sets
// it up. Rule files cannot change it (op/3 is not in the engine's sandbox).
var isoOps = []Op{
	{1200, "xfx", []string{":-", "-->"}},
	{1200, "fx", []string{":-", "?-"}},
	{1105, "xfy", []string{"|"}},
	{1100, "xfy", []string{";"}},
	{1050, "xfy", []string{"->"}},
	{1000, "xfy", []string{","}},
	{900, "fy", []string{`\+`}},
	{700, "xfx", []string{"=", `\=`, "==", `\==`, "@<", "@=<", "@>", "@>=", "=..", "is", "=:=", `=\=`, "<", "=<", ">", ">="}},
	{600, "xfy", []string{":"}},
	{500, "yfx", []string{"+", "-", `/\`, `\/`}},
	{400, "yfx", []string{"*", "/", "//", "div", "rem", "mod", "<<", ">>"}},
	{200, "xfx", []string{"**"}},
	{200, "xfy", []string{"^"}},
	{200, "fy", []string{"+", "-", `\`}},
}

// ISOOps returns a copy of the ISO operator table that InstallOps installs.
func ISOOps() []Op {
	out := make([]Op, len(isoOps))
	for i, o := range isoOps {
		out[i] = Op{o.Priority, o.Spec, append([]string(nil), o.Names...)}
	}
	return out
}

// InstallOps gives vm the ISO operator table and sets the flag
// double_quotes to chars ("abc" reads as [a,b,c], as rlm's engine passes
// text). It is how the engine's interpreters and every parser VM are set
// up; nothing else changes the table.
func InstallOps(vm *pl.VM) error {
	ctx := context.Background()
	for _, o := range isoOps {
		names := make([]pl.Term, len(o.Names))
		for i, n := range o.Names {
			names[i] = pl.NewAtom(n)
		}
		if _, err := pl.Op(vm, pl.Integer(o.Priority), pl.NewAtom(o.Spec), pl.List(names...), pl.Success, nil).Force(ctx); err != nil {
			return fmt.Errorf("plsyntax: operator table: %w", err)
		}
	}
	if _, err := pl.SetPrologFlag(vm, pl.NewAtom("double_quotes"), pl.NewAtom("chars"), pl.Success, nil).Force(ctx); err != nil {
		return fmt.Errorf("plsyntax: double_quotes flag: %w", err)
	}
	return nil
}

// NewParserVM returns a VM for reading terms only: the ISO operator table
// and double_quotes=chars (see InstallOps), no builtins, no clauses. Its
// operator table may be extended by the caller (prologsrc honours a text's
// op/3 directives this way).
func NewParserVM() (*pl.VM, error) {
	vm := &pl.VM{}
	if err := InstallOps(vm); err != nil {
		return nil, err
	}
	return vm, nil
}

// isOperator reports whether name is an operator of the ISO table.
func isOperator(name string) bool {
	for _, o := range isoOps {
		for _, n := range o.Names {
			if n == name {
				return true
			}
		}
	}
	return false
}
