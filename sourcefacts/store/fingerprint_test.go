package store

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/rlm-dev/rlm/sourcefacts"
)

// fingerprintOfMap is the definition fingerprintAfter computes without a
// map or a sort: Fingerprint of the present rows of st with work written
// over them.
func fingerprintOfMap(st *dbState, work []*workItem) (uint64, int) {
	hashes := map[string]sourcefacts.ContentHash{}
	for p, r := range st.rows {
		if r.present {
			hashes[p] = r.hash
		}
	}
	for _, w := range work {
		if w.gone {
			delete(hashes, w.path)
		} else {
			hashes[w.path] = w.c.hash
		}
	}
	var entries []PathHash
	for p, h := range hashes {
		entries = append(entries, PathHash{Path: p, Hash: h})
	}
	return Fingerprint(entries), len(entries)
}

// The fingerprint a publish records is that of the present files once its
// work is written: rows present or gone, work that changes, adds (before,
// between and after the stored paths), removes and brings back files,
// paths that are prefixes of each other, and work given out of order.
func TestTheFingerprintAfterAPublishIsThatOfThePresentFiles(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 2497))
	names := []string{"a", "a/b.go", "a.go", "a/b/c.go", "ab.go", "b.go", "b/a.go", "z.go", "é.go", "a-b.go", "A.go", "a/b.go2"}
	hash := func() sourcefacts.ContentHash {
		return sourcefacts.ContentHash{XXH64: rng.Uint64(), Len: rng.Int64N(1 << 20)}
	}
	for round := range 400 {
		st := &dbState{rows: map[string]*fileRow{}}
		var rest []string
		for _, n := range names {
			if rng.IntN(2) == 0 {
				st.rows[n] = &fileRow{path: n, present: rng.IntN(4) != 0, hash: hash()}
				st.order = append(st.order, n)
			} else {
				rest = append(rest, n)
			}
		}
		slices.Sort(st.order)
		var work []*workItem
		for _, n := range names {
			switch rng.IntN(3) {
			case 0: // left alone
			case 1:
				work = append(work, &workItem{path: n, row: st.rows[n], gone: true})
			default:
				work = append(work, &workItem{path: n, row: st.rows[n], c: &cand{obs: obs{hash: hash()}}})
			}
		}
		if rng.IntN(2) == 0 {
			slices.SortFunc(work, func(a, b *workItem) int { return strings.Compare(a.path, b.path) })
		} else {
			rng.Shuffle(len(work), func(i, j int) { work[i], work[j] = work[j], work[i] })
		}
		given := slices.Clone(work)
		gotFP, gotN := fingerprintAfter(st, work)
		wantFP, wantN := fingerprintOfMap(st, work)
		if gotFP != wantFP || gotN != wantN {
			t.Fatalf("round %d (stored %v, new %v, work %s): fingerprint %016x of %d files, want %016x of %d",
				round, st.order, rest, workString(work), gotFP, gotN, wantFP, wantN)
		}
		if !slices.Equal(work, given) {
			t.Fatalf("round %d: fingerprintAfter reordered its work", round)
		}
	}
}

func workString(work []*workItem) string {
	var b strings.Builder
	for _, w := range work {
		fmt.Fprintf(&b, "%s(gone %v) ", w.path, w.gone)
	}
	return b.String()
}
