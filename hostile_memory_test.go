package rlm_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/rlm-dev/rlm"
	"github.com/rlm-dev/rlm/internal/hostile"
	"github.com/rlm-dev/rlm/internal/testfixture"
)

// TestHostileTextIsOnlyDataToTheExpertsMemory feeds every hostile query
// through the entry points of truth maintenance, case reuse and the
// explanations — Search twice (an answer kept and served, a case retained
// and offered to the reuse rules), Why, WhyNot with the text as the query
// and as the symbol, WhatIf with it as a path — and proves that none
// executes: no tripwire fires and every call ends with an answer or a
// structured error.
func TestHostileTextIsOnlyDataToTheExpertsMemory(t *testing.T) {
	tw := &hostile.Tripwires{}
	root := testfixture.WriteTree(t, caseTree)
	x, err := rlm.Open(context.Background(), root, rlm.Options{InMemory: true, Memory: true, Cases: true, HostPredicates: tw.Predicates()})
	if err != nil {
		t.Fatal(err)
	}
	defer x.Close()
	for i, q := range hostileQueries(t) {
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		_, e1 := x.Search(ctx, q, 5)
		_, e2 := x.Search(ctx, q, 5)
		_, e3 := x.Why(ctx, q, 5)
		_, e4 := x.WhyNot(ctx, q, "graph")
		_, e5 := x.WhyNot(ctx, "what calls servehttp", q)
		_, e6 := x.WhatIf(ctx, q)
		cancel()
		for _, err := range []error{e1, e2, e3, e4, e5, e6} {
			if err != nil && !errors.Is(err, rlm.ErrQueryTooLarge) {
				t.Errorf("query %d (%d bytes): unexpected error %v", i, len(q), err)
			}
		}
	}
	if f := tw.Fired(); len(f) > 0 {
		t.Fatalf("goals built from input ran: %v", f)
	}
	if a, err := x.Search(context.Background(), "who calls ServeHttp?", 5); err != nil || len(a.Hits) == 0 {
		t.Fatalf("broken after hostile input: %v %+v", err, a)
	}
}
