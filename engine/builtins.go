package engine

import (
	"strings"

	pl "github.com/ichiban/prolog/engine"
)

// builtin is one Go predicate of ichiban/prolog that the sandbox exposes.
type builtin struct {
	name  string
	arity int
	reg   func(vm *pl.VM, a pl.Atom)
}

func b0(p pl.Predicate0) func(*pl.VM, pl.Atom) {
	return func(vm *pl.VM, a pl.Atom) { vm.Register0(a, p) }
}
func b1(p pl.Predicate1) func(*pl.VM, pl.Atom) {
	return func(vm *pl.VM, a pl.Atom) { vm.Register1(a, p) }
}
func b2(p pl.Predicate2) func(*pl.VM, pl.Atom) {
	return func(vm *pl.VM, a pl.Atom) { vm.Register2(a, p) }
}
func b3(p pl.Predicate3) func(*pl.VM, pl.Atom) {
	return func(vm *pl.VM, a pl.Atom) { vm.Register3(a, p) }
}
func b4(p pl.Predicate4) func(*pl.VM, pl.Atom) {
	return func(vm *pl.VM, a pl.Atom) { vm.Register4(a, p) }
}
func b5(p pl.Predicate5) func(*pl.VM, pl.Atom) {
	return func(vm *pl.VM, a pl.Atom) { vm.Register5(a, p) }
}

// sandboxBuiltins is the whole list of Go builtins a rule or a REPL query can
// reach. Deliberately absent: halt/1, consult/1, open/3,4 and every other
// stream predicate, read_term/2,3, op/3 (used only by the loader, from Go),
// set_prolog_flag/2, char_conversion/2, asserta/1, assertz/1, retract/1,
// abolish/1, clause/2, phrase/2,3 and expand_term/2. Nothing here reads or
// writes files, parses text into clauses, or changes the database.
//
// call/1..8 are present because the control constructs (','/2, ;/2, ->/2),
// \+/1, findall/3 and the higher-order helpers are defined with them. Rule
// files are trusted code; the data they receive is never passed to call/N by
// the default rules, and the hostile-input tests prove it.
var sandboxBuiltins = []builtin{
	{"call", 1, b1(pl.Call)},
	{"call", 2, b2(pl.Call1)},
	{"call", 3, b3(pl.Call2)},
	{"call", 4, b4(pl.Call3)},
	{"call", 5, b5(pl.Call4)},
	{"catch", 3, b3(pl.Catch)},
	{"throw", 1, b1(pl.Throw)},
	{`\+`, 1, b1(pl.Negate)},
	{"=", 2, b2(pl.Unify)},
	{"unify_with_occurs_check", 2, b2(pl.UnifyWithOccursCheck)},
	{"subsumes_term", 2, b2(pl.SubsumesTerm)},
	{"var", 1, b1(pl.TypeVar)},
	{"atom", 1, b1(pl.TypeAtom)},
	{"integer", 1, b1(pl.TypeInteger)},
	{"float", 1, b1(pl.TypeFloat)},
	{"compound", 1, b1(pl.TypeCompound)},
	{"acyclic_term", 1, b1(pl.AcyclicTerm)},
	{"compare", 3, b3(pl.Compare)},
	{"sort", 2, b2(pl.Sort)},
	{"keysort", 2, b2(pl.KeySort)},
	{"functor", 3, b3(pl.Functor)},
	{"arg", 3, b3(pl.Arg)},
	{"=..", 2, b2(pl.Univ)},
	{"copy_term", 2, b2(pl.CopyTerm)},
	{"term_variables", 2, b2(pl.TermVariables)},
	{"is", 2, b2(pl.Is)},
	{"=:=", 2, b2(pl.Equal)},
	{`=\=`, 2, b2(pl.NotEqual)},
	{"<", 2, b2(pl.LessThan)},
	{">", 2, b2(pl.GreaterThan)},
	{"=<", 2, b2(pl.LessThanOrEqual)},
	{">=", 2, b2(pl.GreaterThanOrEqual)},
	{"findall", 3, b3(pl.FindAll)},
	{"bagof", 3, b3(pl.BagOf)},
	{"setof", 3, b3(pl.SetOf)},
	{"current_predicate", 1, b1(pl.CurrentPredicate)},
	{"current_prolog_flag", 2, b2(pl.CurrentPrologFlag)},
	{"atom_length", 2, b2(pl.AtomLength)},
	{"atom_concat", 3, b3(pl.AtomConcat)},
	{"sub_atom", 5, b5(pl.SubAtom)},
	{"atom_chars", 2, b2(pl.AtomChars)},
	{"atom_codes", 2, b2(pl.AtomCodes)},
	{"char_code", 2, b2(pl.CharCode)},
	{"number_chars", 2, b2(pl.NumberChars)},
	{"number_codes", 2, b2(pl.NumberCodes)},
	{"append", 3, b3(pl.Append)},
	{"length", 2, b2(boundedLength)},
	{"between", 3, b3(pl.Between)},
	{"succ", 2, b2(pl.Succ)},
	{"nth0", 3, b3(pl.Nth0)},
	{"nth1", 3, b3(pl.Nth1)},
	{"atomic_list_concat", 2, b2(atomicListConcat2)},
	{"atomic_list_concat", 3, b3(atomicListConcat3)},
}

// textOfAtomic returns the text of an atomic term or a string (char list).
func textOfAtomic(t pl.Term, env *pl.Env) (string, bool) {
	switch v := env.Resolve(t).(type) {
	case pl.Atom:
		return v.String(), true
	case pl.Integer, pl.Float:
		var b strings.Builder
		_ = v.WriteTerm(&b, &pl.WriteOptions{}, env)
		return b.String(), true
	case pl.Compound:
		d, err := Decode(v, env)
		if err != nil {
			return "", false
		}
		s, ok := Text(d)
		return s, ok
	}
	return "", false
}

func atomicListConcat2(vm *pl.VM, list, atom pl.Term, k pl.Cont, env *pl.Env) *pl.Promise {
	return atomicListConcat3(vm, list, pl.NewAtom(""), atom, k, env)
}

// atomicListConcat3 implements atomic_list_concat/3 in join mode (List
// ground) and, with a non-empty separator, split mode (Atom bound).
func atomicListConcat3(vm *pl.VM, list, sep, atom pl.Term, k pl.Cont, env *pl.Env) *pl.Promise {
	s, ok := textOfAtomic(sep, env)
	if !ok {
		return pl.Error(pl.InstantiationError(env))
	}
	var parts []string
	iter := pl.ListIterator{List: list, Env: env}
	joinable := true
	for iter.Next() {
		p, ok := textOfAtomic(iter.Current(), env)
		if !ok {
			joinable = false
			break
		}
		parts = append(parts, p)
	}
	if joinable && iter.Err() == nil {
		return pl.Unify(vm, atom, pl.NewAtom(strings.Join(parts, s)), k, env)
	}
	whole, ok := textOfAtomic(atom, env)
	if !ok || s == "" {
		return pl.Error(pl.InstantiationError(env))
	}
	split := strings.Split(whole, s)
	ts := make([]pl.Term, len(split))
	for i, p := range split {
		ts[i] = pl.NewAtom(p)
	}
	return pl.Unify(vm, list, pl.List(ts...), k, env)
}

// MaxListLength bounds the list length/2 may build: ichiban/prolog
// allocates the whole list in one step, which neither the inference budget
// nor a deadline can interrupt.
const MaxListLength = 1 << 20

// boundedLength is length/2 that raises resource_error(list_length) instead
// of building a list longer than MaxListLength.
func boundedLength(vm *pl.VM, list, n pl.Term, k pl.Cont, env *pl.Env) *pl.Promise {
	if i, ok := env.Resolve(n).(pl.Integer); ok && i > MaxListLength {
		if _, isVar := env.Resolve(list).(pl.Variable); isVar {
			return pl.Error(pl.NewException(pl.NewAtom("error").Apply(
				pl.NewAtom("resource_error").Apply(pl.NewAtom("list_length")), pl.NewVariable()), env))
		}
	}
	return pl.Length(vm, list, n, k, env)
}
