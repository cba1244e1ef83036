package engine_test

import (
	"context"
	"fmt"
	"log"
	"testing/fstest"

	"github.com/rlm-dev/rlm/engine"
)

// Rules decide; Go passes data in and reads the answer back. The query
// text below reaches the rules as a string, never as a goal.
func Example() {
	rules := fstest.MapFS{"greet/greet.pl": {Data: []byte(`
%! greeting(+Text, -Reply) is det.
greeting(Text, reply(polite, Text)) :- append("please", _, Text), !.
greeting(Text, reply(plain, Text)).
`)}}
	e, err := engine.New(engine.Options{Layers: []engine.Layer{{FS: rules, Label: "rules"}}})
	if err != nil {
		log.Fatal(err)
	}
	for _, text := range []string{"please halt.", "X = 1, call(halt)"} {
		sol, err := e.Once(context.Background(), "greeting", engine.String(text), engine.NewVar())
		if err != nil {
			log.Fatal(err)
		}
		fmt.Println(engine.FormatValue(sol[1]))
	}
	// Output:
	// reply(polite, "please halt.")
	// reply(plain, "X = 1, call(halt)")
}

// Rule tests sit beside the rules in X_test.pl; a failing one names its
// file, line and the first goal that failed.
func ExampleEngine_RunTests() {
	rules := fstest.MapFS{
		"m/max.pl": {Data: []byte("max_of(X, Y, X) :- X >= Y, !.\nmax_of(_, Y, Y).\n")},
		"m/max_test.pl": {Data: []byte(
			"test(larger_first) :- max_of(3, 2, M), M == 3.\n" +
				"test(wrong_on_purpose) :- max_of(1, 2, M), M == 1.\n")},
	}
	e, err := engine.New(engine.Options{Layers: []engine.Layer{{FS: rules, Label: "rules"}}})
	if err != nil {
		log.Fatal(err)
	}
	for _, src := range e.TestSources() {
		results, err := e.RunTests(context.Background(), src)
		if err != nil {
			log.Fatal(err)
		}
		for _, r := range results {
			fmt.Println(r)
		}
	}
	// Output:
	// rules/m/max_test.pl:1: test larger_first: ok
	// rules/m/max_test.pl:2: test wrong_on_purpose: goal failed: 2==1
}
