package embedded

import (
	"context"
	"database/sql"
	"encoding/binary"
	"encoding/json"
	"math"
	"runtime"
	"sort"
	"sync"

	"github.com/rlm-dev/rlm/retrieval"
)

// The exact search: every vector in one in-memory float32 copy (vindex),
// used while a model's vectors are at most exactMaxFloats floats.

// ---- the in-memory index ----

// vindex holds the unit-length vectors of one (model, dims) at one vector
// generation, in ascending docs.rid order.
type vindex struct {
	gen  int64
	dims int
	rids []int64   // ascending
	ids  []string  // ids[i] is the document of rids[i]
	data []float32 // row i is data[i*dims : (i+1)*dims]

	// The candidate rows of recently used filters at this generation
	// (filters repeat: ExcludeTests, a language, a package).
	filters filterCache
}

// maxCachedFilters bounds vindex.fcache.
const maxCachedFilters = 32

// readGeneration reads the vector generation of tx's snapshot.
func readGeneration(ctx context.Context, tx *sql.Tx) (int64, error) {
	var g int64
	err := tx.QueryRowContext(ctx, "SELECT gen FROM vector_generation WHERE id = 0").Scan(&g)
	return g, err
}

// index returns the in-memory vectors of tx's snapshot, loading them if
// the cached copy is of another generation.
func (b *Backend) index(ctx context.Context, tx *sql.Tx) (*vindex, error) {
	g, err := readGeneration(ctx, tx)
	if err != nil {
		return nil, err
	}
	if ix := b.vcache.Load(); ix != nil && ix.gen == g {
		return ix, nil
	}
	b.vload.Lock()
	defer b.vload.Unlock()
	if ix := b.vcache.Load(); ix != nil && ix.gen == g {
		return ix, nil
	}
	ix, err := b.loadIndex(ctx, tx, g)
	if err != nil {
		return nil, err
	}
	// Generations only grow: keep the newest copy when searches on older
	// snapshots load behind a newer one.
	if old := b.vcache.Load(); old == nil || old.gen < g {
		b.vcache.Store(ix)
	}
	return ix, nil
}

func (b *Backend) loadIndex(ctx context.Context, tx *sql.Tx, gen int64) (*vindex, error) {
	dims := b.opts.dims
	var n int
	if err := tx.QueryRowContext(ctx, "SELECT COUNT(*) FROM vectors WHERE "+modelSQL, b.opts.model, dims).Scan(&n); err != nil {
		return nil, err
	}
	rids := make([]int64, 0, n)
	ids := make([]string, 0, n)
	data := make([]float32, 0, n*dims)
	// One pass over this model's rows with their documents' ids: doc_rid
	// is kept in step with docs by write.
	rows, err := tx.QueryContext(ctx, "SELECT v.doc_rid, d.id, v.vec FROM vectors v JOIN docs d ON d.rid = v.doc_rid WHERE v."+modelSQL, b.opts.model, dims)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var blob []byte
	for rows.Next() {
		var rid int64
		var id string
		if err := rows.Scan(&rid, &id, &blob); err != nil {
			return nil, err
		}
		k := len(data)
		data = data[:k+dims]
		if err := decodeStored(data[k:], blob, id); err != nil {
			return nil, err
		}
		rids = append(rids, rid)
		ids = append(ids, id)
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	ix := &vindex{gen: gen, dims: dims, rids: rids, ids: ids, data: data}
	if !sort.SliceIsSorted(rids, func(i, j int) bool { return rids[i] < rids[j] }) {
		ix.sortByRID()
	}
	return ix, nil
}

// decodeNormalized decodes the BLOB of a stored vector (encodeVector's
// binary16 values, 2·len(dst) bytes) into dst scaled to unit length;
// false if the vector is zero or not finite.
func decodeNormalized(dst []float32, blob []byte) bool {
	var sum float64
	for j := range dst {
		x := halfToFloat32(binary.LittleEndian.Uint16(blob[2*j:]))
		dst[j] = x
		sum += float64(x) * float64(x)
	}
	if sum == 0 || math.IsNaN(sum) || math.IsInf(sum, 0) {
		return false
	}
	inv := 1 / math.Sqrt(sum)
	for j, x := range dst {
		dst[j] = float32(float64(x) * inv)
	}
	return true
}

// sortByRID puts the rows in ascending rid order.
func (ix *vindex) sortByRID() {
	n, d := len(ix.rids), ix.dims
	perm := make([]int, n)
	for i := range perm {
		perm[i] = i
	}
	sort.Slice(perm, func(i, j int) bool { return ix.rids[perm[i]] < ix.rids[perm[j]] })
	rids := make([]int64, n)
	ids := make([]string, n)
	data := make([]float32, n*d)
	for i, p := range perm {
		rids[i], ids[i] = ix.rids[p], ix.ids[p]
		copy(data[i*d:(i+1)*d], ix.data[p*d:(p+1)*d])
	}
	ix.rids, ix.ids, ix.data = rids, ids, data
}

// ---- search ----

// scored is one candidate: its score and its row in the index.
type scored struct {
	sim float32
	pos int32
}

// topK keeps the k best candidates in a min-heap whose root is the worst
// kept one. "Better" is a higher score, then a smaller document id (ids[pos])
// or, when ids is nil, a smaller position.
type topK struct {
	k   int
	ids []string
	h   []scored
}

func (t *topK) worse(a, b scored) bool {
	if a.sim != b.sim {
		return a.sim < b.sim
	}
	if t.ids == nil {
		return a.pos > b.pos
	}
	return t.ids[a.pos] > t.ids[b.pos]
}

func (t *topK) push(c scored) {
	if len(t.h) < t.k {
		t.h = append(t.h, c)
		i := len(t.h) - 1
		for i > 0 {
			p := (i - 1) / 2
			if !t.worse(t.h[i], t.h[p]) {
				break
			}
			t.h[i], t.h[p] = t.h[p], t.h[i]
			i = p
		}
		return
	}
	if !t.worse(t.h[0], c) {
		return
	}
	t.h[0] = c
	i := 0
	for {
		l, m := 2*i+1, i
		if l < len(t.h) && t.worse(t.h[l], t.h[m]) {
			m = l
		}
		if r := l + 1; r < len(t.h) && t.worse(t.h[r], t.h[m]) {
			m = r
		}
		if m == i {
			return
		}
		t.h[i], t.h[m] = t.h[m], t.h[i]
		i = m
	}
}

// threshold is the score a candidate must reach to be considered: -Inf
// until the heap is full, then the worst kept score (a candidate equal to
// it may still win on id).
func (t *topK) threshold() float32 {
	if len(t.h) < t.k {
		return float32(math.Inf(-1))
	}
	return t.h[0].sim
}

// dot is the dot product of a and b (len(b) >= len(a)), with four
// independent accumulators so the loop is not one long dependency chain.
func dot(a, b []float32) float32 {
	b = b[:len(a)]
	var s0, s1, s2, s3 float32
	i := 0
	for ; i+8 <= len(a); i += 8 {
		s0 += a[i]*b[i] + a[i+4]*b[i+4]
		s1 += a[i+1]*b[i+1] + a[i+5]*b[i+5]
		s2 += a[i+2]*b[i+2] + a[i+6]*b[i+6]
		s3 += a[i+3]*b[i+3] + a[i+7]*b[i+7]
	}
	for ; i < len(a); i++ {
		s0 += a[i] * b[i]
	}
	return (s0 + s1) + (s2 + s3)
}

// scan scores rows lo..hi-1 of the index (or, when cand is non-nil, the rows
// cand[lo:hi]) against q into t.
func (ix *vindex) scan(q []float32, cand []int32, lo, hi int, t *topK) {
	d := ix.dims
	thr := t.threshold()
	if cand == nil {
		for i := lo; i < hi; i++ {
			s := dot(q, ix.data[i*d:])
			if s >= thr {
				t.push(scored{s, int32(i)})
				thr = t.threshold()
			}
		}
		return
	}
	for _, p := range cand[lo:hi] {
		s := dot(q, ix.data[int(p)*d:])
		if s >= thr {
			t.push(scored{s, p})
			thr = t.threshold()
		}
	}
}

// search returns the k best rows for the unit vector q, best first, among
// all rows or, when cand is non-nil, among the rows it lists. Large scans
// are split across goroutines.
func (ix *vindex) search(q []float32, k int, cand []int32) []scored {
	n := len(ix.rids)
	if cand != nil {
		n = len(cand)
	}
	if n == 0 || k <= 0 {
		return nil
	}
	workers := 1
	if n*ix.dims >= parallelMinFloats {
		workers = min(runtime.GOMAXPROCS(0), maxSearchWorkers, n*ix.dims/parallelMinFloats*2)
	}
	parts := make([]topK, workers)
	if workers == 1 {
		parts[0] = topK{k: k, ids: ix.ids}
		ix.scan(q, cand, 0, n, &parts[0])
	} else {
		var wg sync.WaitGroup
		for w := range parts {
			parts[w] = topK{k: k, ids: ix.ids}
			lo, hi := n*w/workers, n*(w+1)/workers
			wg.Add(1)
			go func(t *topK) {
				defer wg.Done()
				ix.scan(q, cand, lo, hi, t)
			}(&parts[w])
		}
		wg.Wait()
		for w := 1; w < workers; w++ {
			for _, c := range parts[w].h {
				parts[0].push(c)
			}
		}
	}
	t := &parts[0]
	out := t.h
	sort.Slice(out, func(i, j int) bool { return t.worse(out[j], out[i]) })
	return out
}

// filterActive reports whether f narrows anything.
func filterActive(f retrieval.Filter) bool {
	where, _ := filterSQL(f)
	return where != ""
}

// candidates returns the index rows of the documents passing f, in
// ascending order, remembered for this generation (filterCache). The
// result must not be modified.
func (ix *vindex) candidates(ctx context.Context, tx *sql.Tx, f retrieval.Filter) ([]int32, error) {
	return ix.filters.get(ctx, tx, f, func(rids []int64) []int32 {
		cand := []int32{}
		i := 0
		for _, rid := range rids {
			// Both lists ascend: merge.
			for i < len(ix.rids) && ix.rids[i] < rid {
				i++
			}
			if i < len(ix.rids) && ix.rids[i] == rid {
				cand = append(cand, int32(i))
			}
		}
		return cand
	})
}

// filterCache remembers the candidate rows of recently used filters for
// one generation of an index (filters repeat: ExcludeTests, a language, a
// package); at most maxCachedFilters of them.
type filterCache struct {
	mu sync.Mutex
	m  map[string][]int32
}

// get returns the rows of the documents passing f: rows(rids) of the rids
// filteredRIDs finds inside tx, the first time f is asked.
func (c *filterCache) get(ctx context.Context, tx *sql.Tx, f retrieval.Filter, rows func(rids []int64) []int32) ([]int32, error) {
	key, err := json.Marshal(f)
	if err != nil {
		return nil, err
	}
	c.mu.Lock()
	cand, ok := c.m[string(key)]
	c.mu.Unlock()
	if ok {
		return cand, nil
	}
	rids, err := filteredRIDs(ctx, tx, f)
	if err != nil {
		return nil, err
	}
	cand = rows(rids)
	c.mu.Lock()
	if c.m == nil || len(c.m) >= maxCachedFilters {
		c.m = make(map[string][]int32)
	}
	c.m[string(key)] = cand
	c.mu.Unlock()
	return cand, nil
}

// filteredRIDs returns the rids of the documents passing f, ascending,
// evaluated by SQL (filterSQL, the same conditions as every other
// strategy) inside tx.
func filteredRIDs(ctx context.Context, tx *sql.Tx, f retrieval.Filter) ([]int64, error) {
	where, args := filterSQL(f)
	rows, err := tx.QueryContext(ctx, "SELECT d.rid FROM docs d WHERE 1"+where+" ORDER BY d.rid", args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var rids []int64
	for rows.Next() {
		var rid int64
		if err := rows.Scan(&rid); err != nil {
			return nil, err
		}
		rids = append(rids, rid)
	}
	return rids, rows.Err()
}
