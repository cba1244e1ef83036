package retrieval

import (
	"sort"
)

// DefaultRRFK is the reciprocal rank fusion constant used when FuseRRF is
// given k <= 0. Sixty is the value Cormack, Clarke and Büttcher found robust.
const DefaultRRFK = 60

// FuseRRF merges ranked hit lists by reciprocal rank fusion (G. V. Cormack,
// C. L. A. Clarke and S. Büttcher, "Reciprocal Rank Fusion outperforms
// Condorcet and individual Rank Learning Methods", SIGIR 2009):
//
//	score(d) = Σ over lists containing d of 1 / (k + rank_list(d))
//
// with k = DefaultRRFK (60) when k <= 0.
//
// Each list is taken best first: a hit's rank is its 1-based position in its
// list (Hit.Rank and Hit.Score are not read, so lists with unlike score kinds —
// BM25, cosine similarity, L2 distance, counts — fuse without any rescaling;
// only the order of each list matters). Hits are keyed by Document.ID; a hit
// with an empty ID is ignored, and a document repeated within one list
// counts only at its best position. The Document kept for a key is the one
// from the first list (in argument order) that contains it; the Lines of all
// its hits are merged, sorted and deduplicated.
//
// The result holds every distinct document once, ordered by fused score
// (higher is better), ties broken by ascending Document.ID, so the output
// is deterministic for the same input. Each result hit has ScoreKind
// ScoreRank, Strategy Hybrid and Rank 1..n. FuseRRF returns nil when no
// list holds a hit with an ID. It does not truncate; callers apply their own
// limit. The input lists are not modified.
func FuseRRF(k int, lists ...[]Hit) []Hit {
	if k <= 0 {
		k = DefaultRRFK
	}
	type acc struct {
		hit   Hit
		ranks []int // one rank per list containing the document
		lines map[int]struct{}
	}
	byID := make(map[string]*acc)
	var order []string
	for _, list := range lists {
		seen := make(map[string]struct{}, len(list))
		for i, h := range list {
			id := h.Document.ID
			if id == "" {
				continue
			}
			a, ok := byID[id]
			if !ok {
				a = &acc{hit: h}
				byID[id] = a
				order = append(order, id)
			}
			for _, l := range h.Lines {
				if a.lines == nil {
					a.lines = make(map[int]struct{})
				}
				a.lines[l] = struct{}{}
			}
			if _, dup := seen[id]; dup {
				continue
			}
			seen[id] = struct{}{}
			a.ranks = append(a.ranks, i+1)
		}
	}
	if len(order) == 0 {
		return nil
	}
	out := make([]Hit, 0, len(order))
	for _, id := range order {
		a := byID[id]
		// Sum in a canonical order (best rank first) so that documents with
		// the same multiset of ranks get bit-identical scores whatever the
		// order of the lists.
		sort.Ints(a.ranks)
		var score float64
		for _, r := range a.ranks {
			score += 1 / float64(k+r)
		}
		h := Hit{
			Document:  a.hit.Document,
			Score:     score,
			ScoreKind: ScoreRank,
			Strategy:  Hybrid,
		}
		if len(a.lines) > 0 {
			h.Lines = make([]int, 0, len(a.lines))
			for l := range a.lines {
				h.Lines = append(h.Lines, l)
			}
			sort.Ints(h.Lines)
		}
		out = append(out, h)
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Score != out[j].Score {
			return out[i].Score > out[j].Score
		}
		return out[i].Document.ID < out[j].Document.ID
	})
	for i := range out {
		out[i].Rank = i + 1
	}
	return out
}
