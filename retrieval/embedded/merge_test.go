package embedded

import (
	"testing"
	"unsafe"

	"github.com/google/go-cmp/cmp"
)

// TestAFirstBaseIsTheDeltaNotACopyOfIt: after a bulk build every vector
// is in the delta; the first base holds its rows as they are (no second
// copy of the tree's codes while it is written), at the new generation,
// and a later merge still copies base and delta rows in rid order.
func TestAFirstBaseIsTheDeltaNotACopyOfIt(t *testing.T) {
	const dims = 8
	stride := paddedDims(dims)
	seg := func(gen int64, rids ...int64) *segment {
		s := &segment{gen: gen, stride: stride}
		for _, r := range rids {
			u := make([]float32, dims)
			u[int(r)%dims] = 1
			s.add(r, u)
		}
		return s
	}
	empty := &segment{gen: -1, stride: stride}
	delta := seg(0, 1, 2, 5)
	first := merge(empty, nil, delta, 3)
	if first.gen != 3 || !cmp.Equal(first.rids, delta.rids) || unsafe.SliceData(first.codes) != unsafe.SliceData(delta.codes) {
		t.Errorf("first base: generation %d, rids %v, codes shared %v; want generation 3, rids %v, the delta's codes",
			first.gen, first.rids, unsafe.SliceData(first.codes) == unsafe.SliceData(delta.codes), delta.rids)
	}
	later := merge(first, []bool{false, true, false}, seg(3, 3, 5), 4)
	if want := []int64{1, 3, 5}; later.gen != 4 || !cmp.Equal(later.rids, want) {
		t.Errorf("later base: generation %d, rids %v; want 4, %v", later.gen, later.rids, want)
	}
	if unsafe.SliceData(later.codes) == unsafe.SliceData(first.codes) {
		t.Error("a merge with a base wrote into the base's codes")
	}
}
