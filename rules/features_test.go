package rules_test

import (
	"io/fs"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	pl "github.com/ichiban/prolog/engine"

	"github.com/rlm-dev/rlm/bridge"
	"github.com/rlm-dev/rlm/engine"
	"github.com/rlm-dev/rlm/internal/plsyntax"
	"github.com/rlm-dev/rlm/rules"
)

// featureArgs are the properties of a features/14 term, in argument order
// (rules/retrieval/classify.pl, feature/2).
var featureArgs = []string{"tokens", "content", "idents", "paths", "quoted", "relation",
	"relation_object", "cue", "text", "words", "constraints", "source_names", "opening", "acronyms"}

// featureTerm is one features_from_list([...]) written in a rule test
// whose list has text(Q): the properties the test wrote, decoded.
type featureTerm struct {
	file  string
	line  int
	text  string
	props map[string]any
}

// TestHandWrittenFeaturesAreWhatGoComputes: every features_from_list/2
// term in the rule tests that gives the query's text(Q) claims to be what
// Go computes for Q; each property it writes must equal the same property
// of bridge.QueryFeatures(Q).Term(). (Properties it leaves out take their
// empty values; such a test is about the properties it wrote.)
func TestHandWrittenFeaturesAreWhatGoComputes(t *testing.T) {
	terms := handWrittenFeatures(t)
	if len(terms) < 10 {
		t.Fatalf("only %d features_from_list terms with text(Q) found in the rule tests", len(terms))
	}
	for _, ft := range terms {
		goTerm, ok := bridge.QueryFeatures(ft.text).Term().(pl.Compound)
		if !ok || goTerm.Arity() != len(featureArgs) {
			t.Fatalf("bridge.QueryFeatures(%q).Term() is not features/%d", ft.text, len(featureArgs))
		}
		for i, name := range featureArgs {
			wrote, ok := ft.props[name]
			if !ok {
				continue
			}
			computed, err := engine.Decode(goTerm.Arg(i), nil)
			if err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(computed, wrote); d != "" {
				t.Errorf("%s:%d: features of %q: %s(...) is not what Go computes (-go +test):\n%s", ft.file, ft.line, ft.text, name, d)
			}
		}
	}
}

// handWrittenFeatures reads every *_test.pl of the default rules with the
// engine's reader and returns its features_from_list/2 terms that have a
// text(Q) property.
func handWrittenFeatures(t *testing.T) []featureTerm {
	t.Helper()
	vm, err := plsyntax.NewParserVM()
	if err != nil {
		t.Fatal(err)
	}
	var out []featureTerm
	err = fs.WalkDir(rules.FS, ".", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, "_test.pl") {
			return err
		}
		b, err := fs.ReadFile(rules.FS, path)
		if err != nil {
			return err
		}
		src := string(b)
		lines := plsyntax.NewLines(src)
		sc := plsyntax.NewScanner(src)
		for {
			c, ok := sc.Next()
			if !ok {
				break
			}
			terms, err := plsyntax.ReadClause(vm, src, &c)
			if err != nil {
				t.Fatalf("%s: %v", path, err)
			}
			line, _ := lines.Pos(c.Start)
			for _, term := range terms {
				walkTerm(term, func(list pl.Term) {
					if ft, ok := decodeFeatureList(t, list); ok {
						ft.file, ft.line = path, line
						out = append(out, ft)
					}
				})
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// walkTerm calls yield with the first argument of every
// features_from_list/2 inside t.
func walkTerm(t pl.Term, yield func(pl.Term)) {
	c, ok := t.(pl.Compound)
	if !ok {
		return
	}
	if c.Functor() == pl.NewAtom("features_from_list") && c.Arity() == 2 {
		yield(c.Arg(0))
		return
	}
	for i := range c.Arity() {
		walkTerm(c.Arg(i), yield)
	}
}

// decodeFeatureList decodes a property list; ok is false when it has no
// text(Q).
func decodeFeatureList(t *testing.T, list pl.Term) (featureTerm, bool) {
	v, err := engine.Decode(list, nil)
	if err != nil {
		t.Fatal(err)
	}
	items, isList := v.([]any)
	if !isList {
		return featureTerm{}, false
	}
	ft := featureTerm{props: map[string]any{}}
	hasText := false
	for _, it := range items {
		p, ok := it.(engine.CompoundValue)
		if !ok || len(p.Args) != 1 {
			t.Fatalf("features_from_list property %v is not name(Value)", it)
		}
		ft.props[p.Functor] = p.Args[0]
		if p.Functor == "text" {
			switch s := p.Args[0].(type) {
			case engine.StringValue:
				ft.text = string(s)
			case []any: // "" reads as []
				if len(s) != 0 {
					t.Fatalf("text(%v) is not a string", s)
				}
			default:
				t.Fatalf("text(%v) is not a string", s)
			}
			hasText = true
		}
	}
	return ft, hasText
}
