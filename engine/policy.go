package engine

import (
	"fmt"
	"strconv"
	"strings"
	"sync"
)

// preludeIndicators lists the predicates prelude.pl defines; the prelude
// is read once per process.
var preludeIndicators = sync.OnceValues(func() ([]string, error) {
	f, err := parseSource(Source{Name: "prelude.pl", Path: "engine/prelude.pl", Text: preludeText})
	if err != nil {
		return nil, fmt.Errorf("engine: prelude: %w", err)
	}
	var out []string
	for _, c := range f.clauses {
		out = append(out, c.indicator)
	}
	return out, nil
})

// reservedIndicators returns every predicate indicator a rule file may not
// define, with the reason, and sets e.defined to those a body may call
// (the builtins, the prelude's and the host's predicates).
func (e *Engine) reservedIndicators() (map[string]string, error) {
	r := map[string]string{}
	e.defined = map[string]bool{}
	for _, b := range sandboxBuiltins {
		r[fmt.Sprintf("%s/%d", b.name, b.arity)] = "a builtin"
		e.defined[fmt.Sprintf("%s/%d", b.name, b.arity)] = true
	}
	// term_expansion/2 and goal_expansion/2 are hooks ichiban/prolog calls
	// while compiling, with no budget or deadline, on the clauses as
	// written: a rule file defining them could rewrite clauses past this
	// policy.
	r["term_expansion/2"] = "a compile-time hook the sandbox does not allow"
	r["goal_expansion/2"] = "a compile-time hook the sandbox does not allow"
	for _, n := range []string{"halt/0", "halt/1", "consult/1", "open/3", "open/4", "read_term/2", "read_term/3", "read/1", "read/2", "op/3",
		"asserta/1", "assertz/1", "assert/1", "retract/1", "abolish/1", "set_prolog_flag/2", "clause/2"} {
		r[n] = "a builtin excluded from the sandbox"
	}
	prelude, err := preludeIndicators()
	if err != nil {
		return nil, err
	}
	for _, pi := range prelude {
		r[pi] = "a prelude predicate"
		e.defined[pi] = true
	}
	for _, p := range e.opts.Predicates {
		r[fmt.Sprintf("%s/%d", p.Name, p.Arity)] = "a host (bridge) predicate"
		e.defined[fmt.Sprintf("%s/%d", p.Name, p.Arity)] = true
	}
	return r, nil
}

// mfDeclRef is one multifile declaration of a rule file.
type mfDeclRef struct {
	f      *parsedFile
	offset int
	text   string
}

// validate parses every rule and test file, checks the load policy, and
// runs the load-time checks on the rule files (see the package doc).
func (e *Engine) validate() error {
	reserved, err := e.reservedIndicators()
	if err != nil {
		return err
	}
	e.reserved = reserved
	e.defs = map[string]string{}
	declared := map[string]bool{} // dynamic or multifile in some rule file
	// multifile[file][indicator]: the file declares the predicate multifile.
	// A predicate may be split over files only if every file that defines
	// it says so; ichiban/prolog otherwise replaces the earlier clauses.
	multifile := map[string]map[string]bool{}
	// mfFiles[indicator]: the rule files that declare it multifile, in
	// load order, for the misspelt-hook check below.
	mfFiles := map[string][]mfDeclRef{}
	var rules []*parsedFile
	for _, src := range append(append([]Source(nil), e.sources...), e.tests...) {
		f, err := parseSource(src)
		if err != nil {
			return err
		}
		if err := checkContiguous(f); err != nil {
			return err
		}
		isTest := isTestFile(src)
		if !isTest {
			rules = append(rules, f)
		}
		seen := map[string]bool{}
		mf := map[string]bool{}
		multifile[src.Path] = mf
		for _, c := range f.clauses {
			if c.directive != "" {
				for _, pi := range c.declares {
					if why, ok := reserved[pi]; ok {
						return f.errorAt(c.offset, directiveText(c), fmt.Sprintf("declares %s, which is %s", pi, why))
					}
					if other, ok := e.defs[pi]; ok && c.declKind != "multifile" && !isTest {
						return f.errorAt(c.offset, directiveText(c),
							fmt.Sprintf("declares %s, which %s defines (the declaration would replace its clauses)", pi, other))
					}
					if other, ok := e.defs[pi]; ok && c.declKind == "multifile" && !isTest && !multifile[other][pi] {
						return f.errorAt(c.offset, directiveText(c),
							fmt.Sprintf("declares %s multifile, but %s defines it without declaring it multifile (the declaration would replace its clauses; only hook predicates a file declares multifile can be extended)", pi, other))
					}
					if c.declKind == "multifile" {
						mf[pi] = true
						if !isTest {
							mfFiles[pi] = append(mfFiles[pi], mfDeclRef{f, c.offset, directiveText(c)})
						}
					}
					if !isTest && c.declKind != "discontiguous" {
						declared[pi] = true
					}
				}
				continue
			}
			if why, ok := reserved[c.indicator]; ok {
				return f.errorAt(c.offset, c.indicator, "redefines "+why)
			}
			if isTest || seen[c.indicator] {
				continue
			}
			seen[c.indicator] = true
			if other, ok := e.defs[c.indicator]; ok {
				if !mf[c.indicator] || !multifile[other][c.indicator] {
					return f.errorAt(c.offset, c.indicator, fmt.Sprintf("already defined in %s (a predicate may be split over files only if every file declares :- multifile(%s) before its clauses; to change a default file, override it whole with a file of the same name)", other, c.indicator))
				}
				continue
			}
			e.defs[c.indicator] = src.Path
		}
	}
	for pi := range e.defs {
		e.defined[pi] = true
	}
	for pi := range declared {
		e.defined[pi] = true
	}
	e.called = map[string]bool{}
	for _, f := range rules {
		if err := e.checkCalls(f, nil); err != nil {
			return err
		}
		if err := e.checkVocabulary(f); err != nil {
			return err
		}
	}
	// A multifile declaration shares a predicate with other files. One
	// that a single file of an upper layer makes, for a predicate no rule
	// calls, shares with no one: it is almost always a misspelt hook
	// (extra_clas_rule/4), whose clauses would load and never run.
	for pi, ds := range mfFiles {
		if len(ds) == 1 && ds[0].f.src.Layer > 0 && !e.called[pi] {
			i := strings.LastIndexByte(pi, '/')
			a, _ := strconv.Atoi(pi[i+1:])
			return ds[0].f.errorAt(ds[0].offset, ds[0].text, fmt.Sprintf(
				"declares %s multifile, but no other rule file declares it and no rule calls it: a misspelt hook?%s", pi, e.nearHook(pi[:i], a, mfFiles)))
		}
	}
	e.called = nil
	return nil
}
