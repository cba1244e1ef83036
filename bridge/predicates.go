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
//	word_forms(+Word, -Forms)
//	    Forms are the base forms (strings) the inflected English Word
//	    (a string or an atom) may stand for: WordForms.
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
	}, {
		Name:  "word_forms",
		Arity: 2,
		Doc:   "word_forms(+Word, -Forms): the base forms (strings) an inflected English word stands for (WordForms)",
		Fn: func(_ context.Context, in []any) (engine.Term, error) {
			w, ok := engine.Text(in[0])
			if !ok {
				return nil, fmt.Errorf("word_forms: word must be a string or an atom, got %s", engine.Describe(in[0]))
			}
			return engine.Strings(WordForms(w)), nil
		},
	}}
}
