package rlm_test

import (
	"context"
	"os"
	"strings"
	"testing"

	"github.com/rlm-dev/rlm"
	"github.com/rlm-dev/rlm/bridge"
	"github.com/rlm-dev/rlm/engine"
)

// BenchmarkPlanRulesOnly measures plan_features/2 on prebuilt features.
func BenchmarkPlanRulesOnly(b *testing.B) {
	x, err := rlm.NewPlanner(rlm.Options{})
	if err != nil {
		b.Fatal(err)
	}
	for _, q := range []string{"what calls ServeHTTP?", "where is Server defined?", "parse multipart form boundaries"} {
		ft := bridge.QueryFeatures(q).Term()
		b.Run(q, func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				if _, err := x.Engine().Once(context.Background(), "plan_features", ft, engine.NewVar()); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkSearchByClass measures whole searches (plan, steps, judgement)
// over the net/http index, one sub-benchmark per query class of
// bench/queries.txt; each iteration runs every query of the class once and
// reports ns/query.
func BenchmarkSearchByClass(b *testing.B) {
	x := netHTTP(b)
	data, err := os.ReadFile("bench/queries.txt")
	if err != nil {
		b.Fatal(err)
	}
	byClass := map[string][]string{}
	var classes []string
	for _, l := range strings.Split(string(data), "\n") {
		c, q, ok := strings.Cut(l, "\t")
		if !ok || strings.HasPrefix(l, "#") {
			continue
		}
		if byClass[c] == nil {
			classes = append(classes, c)
		}
		byClass[c] = append(byClass[c], q)
	}
	for _, c := range classes {
		qs := byClass[c]
		b.Run(c, func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				for _, q := range qs {
					if _, err := x.Search(context.Background(), q, 10); err != nil {
						b.Fatal(err)
					}
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(qs)), "ns/query")
		})
	}
}
