package retrieval

import "math"

// PercentOfBest is score as a whole percentage of best, the first score
// of a ranking whose scores are higher-is-better and non-negative (BM25,
// counts): round(100 × score / best), clamped to 0..100, so that best
// itself is exactly 100 whatever floating-point rounding does to the
// quotient. A best of zero or less (no signal) gives 100 for every score.
func PercentOfBest(score, best float64) int {
	if best <= 0 || score >= best {
		return 100
	}
	return max(0, min(100, int(math.Round(100*score/best))))
}
