package bridge

import (
	"context"
	"fmt"

	"github.com/rlm-dev/rlm/engine"
)

// Predicates returns the host predicates the default rules call:
//
//	query_features(+Text, -Features)
//	    Features is the property list of QueryFeatures(Text) (see
//	    rules/classify.pl). Text must be a string or an atom.
func Predicates() []engine.Predicate {
	return []engine.Predicate{{
		Name:  "query_features",
		Arity: 2,
		Doc:   "query_features(+Text, -Features): the feature list Go computes for query Text",
		Fn: func(_ context.Context, in []any) (engine.Term, error) {
			text, ok := engine.Text(in[0])
			if !ok {
				return nil, fmt.Errorf("query_features: text must be a string or an atom, got %s", engine.Describe(in[0]))
			}
			return QueryFeatures(text).Term(), nil
		},
	}}
}
