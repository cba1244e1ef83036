package rlm_test

import (
	"context"
	"testing"

	"github.com/rlm-dev/rlm"
	"github.com/rlm-dev/rlm/bridge"
	"github.com/rlm-dev/rlm/engine"
)

// BenchmarkPlanRulesOnly measures plan_features/2 on prebuilt features.
func BenchmarkPlanRulesOnly(b *testing.B) {
	x, err := rlm.NewExpert(rlm.ExpertOptions{})
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
