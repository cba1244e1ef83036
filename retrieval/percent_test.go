package retrieval

import (
	"math/rand/v2"
	"testing"
)

// TestTheBestScoreIsOneHundredPercentOfItself: for any best score the
// best is 100 (a plain int(100*s/s) gives 99 for about one score in 15),
// and the others are rounded, clamped percentages.
func TestTheBestScoreIsOneHundredPercentOfItself(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for range 10000 {
		s := r.Float64()*50 + 0.01
		if got := PercentOfBest(s, s); got != 100 {
			t.Fatalf("PercentOfBest(%v, itself) = %d, want 100", s, got)
		}
	}
	for _, c := range []struct {
		score, best float64
		want        int
	}{
		{0.6828223348102751, 0.6828223348102751, 100},
		{5, 10, 50},
		{2, 3, 67},
		{1, 3, 33},
		{0, 10, 0},
		{-1, 10, 0},
		{3, 0, 100},
		{11, 10, 100},
	} {
		if got := PercentOfBest(c.score, c.best); got != c.want {
			t.Errorf("PercentOfBest(%v, %v) = %d, want %d", c.score, c.best, got, c.want)
		}
	}
}
