package sourcefacts

import (
	"fmt"
	"math/rand"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// countingTable counts the definitions looked up in the table it wraps.
type countingTable struct {
	ScopeTable
	defs int
}

func (c *countingTable) Def(scope, typ, name string) (DefAt, bool) {
	c.defs++
	return c.ScopeTable.Def(scope, typ, name)
}

// denseBases is a Python file of n classes each naming every other as a
// base, and Root, which defines found; each class calls self.found() and
// self.missing().
func denseBases(n int) string {
	var b strings.Builder
	b.WriteString("class Root:\n    def found(self):\n        pass\n\n\n")
	for i := range n {
		var bases []string
		for j := range n {
			if j != i {
				bases = append(bases, fmt.Sprintf("C%d", j))
			}
		}
		bases = append(bases, "Root")
		fmt.Fprintf(&b, "class C%d(%s):\n    def m(self):\n        self.found()\n        self.missing()\n\n\n", i, strings.Join(bases, ", "))
	}
	return b.String()
}

// TestInheritedMethodLookupIsLinearInTheBasesOfADenseClassGraph: with
// classes whose bases all inherit from each other (a 27 KB file of 40
// such classes kept rlm index busy for minutes), resolving a call looks
// up a number of definitions linear in the classes and their bases, not
// exponential in the search depth, and still finds the inherited method.
func TestInheritedMethodLookupIsLinearInTheBasesOfADenseClassGraph(t *testing.T) {
	const n = 12
	ffs, sc := scopedTree(t, "/lib/pkg", map[string]string{"dense.py": denseBases(n)})
	ct := &countingTable{ScopeTable: sc.Table()}
	sc = NewScopesOver("/lib/pkg", ct)
	found := callTargets(ffs, sc, "dense.py", "found")
	missing := callTargets(ffs, sc, "dense.py", "missing")
	if len(found) != n || len(missing) != n {
		t.Fatalf("calls: %d found, %d missing, want %d each", len(found), len(missing), n)
	}
	for line, got := range found {
		if got != "receiver py:dense Root" {
			t.Errorf("line %d: self.found() resolved to %q, want Root's", line, got)
		}
	}
	for line, got := range missing {
		if got != "  " {
			t.Errorf("line %d: self.missing() resolved to %q, want nothing", line, got)
		}
	}
	// Each type is searched at most once per depth (maxMemberDepth+1),
	// each search one Def for the name and one for the type's alias.
	bound := 2 * n * (n + 1) * 2 * (maxMemberDepth + 1)
	if ct.defs > bound {
		t.Errorf("%d definitions looked up for %d calls, want at most %d", ct.defs, 2*n, bound)
	}
}

// naiveMember is member without its memo: the plain depth-first search
// memoisation must agree with.
func naiveMember(s *Scopes, scope, typ, name string, depth int) (string, string, DefAt, bool) {
	if d, ok := s.def(scope, typ, name); ok {
		return scope, typ, d, true
	}
	if typ == "" || depth >= maxMemberDepth {
		return "", "", DefAt{}, false
	}
	if a, ok := s.def(scope, "", typ); ok && a.Kind == KindType && a.Decl != "" {
		if sc, t, ok := s.typeOf(a, a.Decl); ok && !strings.HasPrefix(sc, extScope) {
			return naiveMember(s, sc, t, name, depth+1)
		}
	}
	for _, e := range s.embeddedOf(scope, typ) {
		if sc, t, d, ok := naiveMember(s, e.scope, e.typ, name, depth+1); ok {
			return sc, t, d, true
		}
	}
	return "", "", DefAt{}, false
}

// TestMemoisedMemberLookupAgreesWithThePlainDepthFirstSearch: over random
// class graphs (cycles, self-bases, diamonds, chains deeper than the
// bound, methods defined on some classes), member names the same
// definition as the unmemoised depth-first search for every class and
// method name.
func TestMemoisedMemberLookupAgreesWithThePlainDepthFirstSearch(t *testing.T) {
	rng := rand.New(rand.NewSource(5))
	for trial := range 30 {
		const classes, methods = 9, 4
		var b strings.Builder
		for i := range classes {
			var bases []string
			for range rng.Intn(4) {
				bases = append(bases, fmt.Sprintf("K%d", rng.Intn(classes)))
			}
			fmt.Fprintf(&b, "class K%d(%s):\n    pass\n", i, strings.Join(bases, ", "))
			for m := range methods {
				if rng.Intn(4) == 0 {
					fmt.Fprintf(&b, "    def m%d(self):\n        pass\n", m)
				}
			}
			b.WriteString("\n\n")
		}
		_, sc := scopedTree(t, "/lib/pkg", map[string]string{"g.py": b.String()})
		for i := range classes {
			for m := range methods {
				typ, name := fmt.Sprintf("K%d", i), fmt.Sprintf("m%d", m)
				type answer struct {
					Scope, Type string
					Def         DefAt
					OK          bool
				}
				var got, want answer
				got.Scope, got.Type, got.Def, got.OK = sc.member("py:g", typ, name, 0)
				want.Scope, want.Type, want.Def, want.OK = naiveMember(sc, "py:g", typ, name, 0)
				if d := cmp.Diff(want, got); d != "" {
					t.Errorf("trial %d %s.%s (-naive +memoised):\n%s\n%s", trial, typ, name, d, b.String())
				}
			}
		}
	}
}
