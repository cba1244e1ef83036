package embedded

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"runtime"
	"sort"
	"sync"
	"time"

	"github.com/rlm-dev/rlm/retrieval"
)

// The quantised vector index, used once a model's vectors outgrow exact
// search (exactMaxFloats); see the package doc and searchQuantized.
//
// Storage. The vectors table stays the source of truth: one row per
// document and model holding the vector as given (float32), stamped with
// the vector generation that wrote it (vectors.gen); deleting a vector row
// records its doc rid in vector_tombstones with the deleting generation.
// Derived from it:
//   - the base: the codes (quant.go) of every vector of one generation G,
//     in a file beside the database (segmentFile), memory-mapped, so a
//     process's first search reads no vectors through SQLite;
//   - the delta: the rows written after G, read from SQLite and quantised
//     per search generation; the base rows tombstoned after G are skipped.
// When the delta and the tombstones together exceed compactAt rows, the
// search merges them into a new base of its own generation (rewriting the
// file: sequential, no vector is read through SQLite) — so an edit costs
// its own rows, never a rebuild, and a search never quantises more than
// compactAt rows.
//
// Why this and not a graph. The targets (issue 13, GOROOT/src: 236,777
// vectors of 384 dimensions, p50 ≤ 50 ms, RSS ≤ 300 MB, recall@10 ≥ 0.95,
// a CLI process per query) rule out the alternatives measured here:
// github.com/coder/hnsw keeps every vector as float32 in memory (363 MB
// before the graph) and its Import reads the whole graph per process;
// codes kept in SQLite rows or blobs take 0.23–0.7 s to read per process
// (modernc.org/sqlite), so the base is a plain file, mapped; sign-bit
// codes found 13% of the exact top 10 in a pool of 1,000 on these
// (feature-hashed, sparse) vectors, while 7-bit codes found 100% in a
// pool of 20; IVF needs a k-means pass over n × lists × dims per build.
// The exhaustive scan of 7-bit codes is one 64-bit multiply per four
// dimensions (≈ 100 ns per 384-dimension vector here), linear in n: at
// ten times GOROOT it is the first thing to outgrow the latency target.
//
// Consistency. Each search reads inside one read transaction (generation
// S) and uses a base of generation ≤ S; a base of a later generation (a
// compaction that finished after the transaction began) is not used.
// Whatever the base, every candidate is re-ranked from its stored vector
// read in the same transaction, and a candidate whose row is gone is
// dropped: a stale, damaged or foreign base can cost recall, never return
// a deleted document or a wrong score.

// exactMaxFloats is the largest vectors × dimensions searched exactly
// (the in-memory float32 copy of vector.go, 16 MiB): 10,922 vectors of 384
// dimensions. Larger sets use the quantised index. A variable so tests can
// exercise the quantised path on small sets.
var exactMaxFloats = 1 << 22

// compactAt is the number of delta rows plus tombstones past which a
// search writes a new base.
var compactAt = 2048

// poolSize is how many of the best approximate candidates are re-ranked
// exactly for a top-k search: max(4k, minPool).
func poolSize(k int) int { return max(4*k, minPool) }

// minPool is the least re-ranking pool (measured: the best 20 codes held
// the exact top 10 for all 300 GOROOT/src queries).
const minPool = 64

// qindex is the quantised vectors of one (model, dims) at generation gen:
// the base less its dead rows, plus the delta.
type qindex struct {
	gen   int64
	base  *segment
	dead  []bool // dead[i]: base row i was deleted after base.gen; nil if none
	delta *segment

	filters filterCache
}

// baseState is the base a Backend last used, and the file state it was
// read from (to notice another process's compaction).
type baseState struct {
	seg     *segment
	modTime time.Time
	size    int64
}

// quantIndex returns the quantised index at tx's generation g, loading
// (and, past compactAt, compacting) it if the cached one is of another
// generation.
func (b *Backend) quantIndex(ctx context.Context, tx *sql.Tx, g int64) (*qindex, error) {
	if ix := b.qcache.Load(); ix != nil && ix.gen == g {
		return ix, nil
	}
	b.vload.Lock()
	defer b.vload.Unlock()
	if ix := b.qcache.Load(); ix != nil && ix.gen == g {
		return ix, nil
	}
	base := b.currentBase(g)
	delta, tombs, err := b.loadDelta(ctx, tx, base.gen, 0)
	if err != nil {
		return nil, err
	}
	dead := markDead(base, tombs)
	if delta.len()+len(tombs) > compactAt || (base.gen < 0 && delta.len() > 0) {
		base = b.compact(merge(base, dead, delta, g))
		delta, dead = &segment{gen: g, stride: base.stride}, nil
	}
	ix := &qindex{gen: g, base: base, dead: dead, delta: delta}
	if old := b.qcache.Load(); old == nil || old.gen < g {
		b.qcache.Store(ix)
	}
	return ix, nil
}

// currentBase is the newest base of generation ≤ g: the file's, if another
// process (or this one) wrote a newer valid one, else the one in use, else
// an empty one (generation -1). Called with vload held.
func (b *Backend) currentBase(g int64) *segment {
	empty := &segment{gen: -1, stride: paddedDims(b.opts.dims)}
	cur := b.qbase
	if b.path != "" {
		path := segmentFile(b.path, b.opts.model, b.opts.dims)
		fi, err := os.Stat(path)
		if err == nil && (cur.seg == nil || !fi.ModTime().Equal(cur.modTime) || fi.Size() != cur.size) {
			if s, err := readSegment(path, b.segmentKey(), b.opts.dims); err == nil && s.gen <= g {
				cur = baseState{seg: s, modTime: fi.ModTime(), size: fi.Size()}
				if b.qbase.seg == nil || b.qbase.seg.gen < s.gen {
					b.qbase = cur
				}
			}
		}
	}
	if cur.seg == nil || cur.seg.gen > g {
		return empty
	}
	return cur.seg
}

func (b *Backend) segmentKey() segmentKey {
	return segmentKey{model: b.opts.model, dims: b.opts.dims, uid: b.uid}
}

// loadDelta reads and quantises the vectors written after generation
// since, and the rids of vector rows deleted after it; n, if not 0, is
// how many vectors to make room for at once (a count of them).
func (b *Backend) loadDelta(ctx context.Context, tx *sql.Tx, since int64, n int) (*segment, []int64, error) {
	dims := b.opts.dims
	delta := &segment{gen: since, stride: paddedDims(dims)}
	if n > 0 { // room for them at once: no copies left behind by growth
		delta.rids, delta.scales, delta.sums = make([]int64, 0, n), make([]float32, 0, n), make([]int32, 0, n)
		delta.codes = make([]byte, 0, n*delta.stride)
	}
	rows, err := tx.QueryContext(ctx, "SELECT v.doc_rid, d.id, v.vec FROM vectors v JOIN docs d ON d.rid = v.doc_rid WHERE v."+modelSQL+" AND v.gen > ? ORDER BY v.doc_rid", b.opts.model, dims, since)
	if err != nil {
		return nil, nil, err
	}
	defer rows.Close()
	u := make([]float32, dims)
	var blob sql.RawBytes
	for rows.Next() {
		var rid int64
		var id string
		if err := rows.Scan(&rid, &id, &blob); err != nil {
			return nil, nil, err
		}
		if err := decodeStored(u, blob, id); err != nil {
			return nil, nil, err
		}
		delta.add(rid, u)
	}
	if err := rows.Err(); err != nil {
		return nil, nil, err
	}
	trows, err := tx.QueryContext(ctx, "SELECT doc_rid FROM vector_tombstones WHERE gen > ?", since)
	if err != nil {
		return nil, nil, err
	}
	defer trows.Close()
	var tombs []int64
	for trows.Next() {
		var rid int64
		if err := trows.Scan(&rid); err != nil {
			return nil, nil, err
		}
		tombs = append(tombs, rid)
	}
	return delta, tombs, trows.Err()
}

// ErrDamaged is matched (errors.Is) by the error of a read that found
// stored data this package never writes: a vector BLOB of the wrong
// length, zero or not finite, a body of unknown flags or bad deflate
// data — a damaged file. (SQLite reports damage it detects itself as
// SQLITE_CORRUPT.)
var ErrDamaged = errors.New("embedded: stored data is damaged")

// decodeStored decodes a stored vector BLOB of document id into u, scaled
// to unit length; the error names the document when the BLOB is of the
// wrong length, zero or not finite.
func decodeStored(u []float32, blob []byte, id string) error {
	if len(blob) != 2*len(u) {
		return fmt.Errorf("%w: document %q: stored vector of %d bytes, want %d", ErrDamaged, id, len(blob), 2*len(u))
	}
	if !decodeNormalized(u, blob) {
		return fmt.Errorf("%w: document %q: stored vector is zero or not finite", ErrDamaged, id)
	}
	return nil
}

// markDead flags the base rows whose rid is in tombs.
func markDead(base *segment, tombs []int64) []bool {
	var dead []bool
	for _, rid := range tombs {
		i := sort.Search(base.len(), func(i int) bool { return base.rids[i] >= rid })
		if i < base.len() && base.rids[i] == rid {
			if dead == nil {
				dead = make([]bool, base.len())
			}
			dead[i] = true
		}
	}
	return dead
}

// merge is the base of generation g holding base's live rows and delta's,
// in rid order (a rid in both is delta's: its row was rewritten).
func merge(base *segment, dead []bool, delta *segment, g int64) *segment {
	if base.len() == 0 {
		// A first base (a bulk build): the delta's rows, not a copy.
		out := *delta
		out.gen = g
		return &out
	}
	out := &segment{gen: g, stride: base.stride}
	n := base.len() + delta.len()
	out.rids = make([]int64, 0, n)
	out.scales = make([]float32, 0, n)
	out.sums = make([]int32, 0, n)
	out.codes = make([]byte, 0, n*base.stride)
	i, j := 0, 0
	for i < base.len() || j < delta.len() {
		switch {
		case i < base.len() && dead != nil && dead[i]:
			i++
		case j == delta.len() || (i < base.len() && base.rids[i] < delta.rids[j]):
			out.appendRow(base, i)
			i++
		default:
			if i < base.len() && base.rids[i] == delta.rids[j] {
				i++
			}
			out.appendRow(delta, j)
			j++
		}
	}
	runtime.KeepAlive(base)
	return out
}

// compact makes s the backend's base: written to its file and mapped back
// when the database is a file (so its codes leave the heap), kept on the
// heap otherwise or if the file cannot be written. A file already holding
// a base of generation ≥ s's is left alone. Called with vload held.
func (b *Backend) compact(s *segment) *segment {
	b.qbase = baseState{seg: s}
	if b.path == "" {
		b.persisted.Store(s.gen)
		return s
	}
	path := segmentFile(b.path, b.opts.model, b.opts.dims)
	if old, err := readSegment(path, b.segmentKey(), b.opts.dims); err == nil && old.gen >= s.gen {
		return s
	}
	if err := writeSegment(path, s, b.segmentKey(), b.opts.dims); err != nil {
		return s
	}
	fi, err1 := os.Stat(path)
	m, err2 := readSegment(path, b.segmentKey(), b.opts.dims)
	if err := errors.Join(err1, err2); err != nil || m.gen != s.gen {
		return s
	}
	b.qbase = baseState{seg: m, modTime: fi.ModTime(), size: fi.Size()}
	b.persisted.Store(s.gen)
	return m
}

// CompactVectors writes the quantised base of the current generation (see
// the package doc) now, so that the first vector search of the next
// process maps it instead of building it: for callers that have just
// written many vectors (a bulk build). A no-op without a vector model or
// while the vectors are few enough to be searched exactly. Errors are
// those of reading the database; a base that cannot be written is kept in
// memory for this Backend.
func (b *Backend) CompactVectors(ctx context.Context) error {
	if b.opts.model == "" {
		return nil
	}
	tx, err := b.db.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return fmt.Errorf("embedded: compact vectors: %w", err)
	}
	defer tx.Rollback()
	g, err := readGeneration(ctx, tx)
	if err != nil {
		return fmt.Errorf("embedded: compact vectors: %w", err)
	}
	if quant, err := b.useQuantized(ctx, tx, g); err != nil || !quant {
		return err
	}
	b.vload.Lock()
	defer b.vload.Unlock()
	base := b.currentBase(g)
	if base.gen == g {
		return nil
	}
	var rows int // all of them, after a bulk build: read in one allocation
	if err := tx.QueryRowContext(ctx, "SELECT COUNT(*) FROM vectors WHERE "+modelSQL+" AND gen > ?", b.opts.model, b.opts.dims, base.gen).Scan(&rows); err != nil {
		return fmt.Errorf("embedded: compact vectors: %w", err)
	}
	delta, tombs, err := b.loadDelta(ctx, tx, base.gen, rows)
	if err != nil {
		return fmt.Errorf("embedded: compact vectors: %w", err)
	}
	base = b.compact(merge(base, markDead(base, tombs), delta, g))
	if old := b.qcache.Load(); old == nil || old.gen <= g {
		b.qcache.Store(&qindex{gen: g, base: base, delta: &segment{gen: g, stride: base.stride}})
	}
	return nil
}

// useQuantized reports whether the vectors at generation g are searched
// through the quantised index: more than exactMaxFloats / dims of them.
// The answer is remembered per generation.
func (b *Backend) useQuantized(ctx context.Context, tx *sql.Tx, g int64) (bool, error) {
	if b.opts.exact {
		return false, nil
	}
	if m := b.vmode.Load(); m != nil && m.gen == g {
		return m.quant, nil
	}
	limit := exactMaxFloats/b.opts.dims + 1
	var n int
	err := tx.QueryRowContext(ctx, "SELECT COUNT(*) FROM (SELECT 1 FROM vectors WHERE "+modelSQL+" LIMIT ?)", b.opts.model, b.opts.dims, limit).Scan(&n)
	if err != nil {
		return false, err
	}
	m := &vmode{gen: g, quant: n >= limit}
	b.vmode.Store(m)
	return m.quant, nil
}

// vmode is the search path chosen at one generation.
type vmode struct {
	gen   int64
	quant bool
}

// ---- search ----

// search returns the pool best rows (positions: base rows, then delta rows
// at base.len()+i) for q by approximate score, among all live rows or the
// positions in cand; ties by position.
func (ix *qindex) search(q *query, pool int, cand []int32) []scored {
	nb := ix.base.len()
	n := nb + ix.delta.len()
	if cand != nil {
		n = len(cand)
	}
	if n == 0 {
		return nil
	}
	scan := func(lo, hi int, t *topK) {
		if cand != nil {
			for _, p := range cand[lo:hi] {
				seg, i := ix.base, int(p)
				if i >= nb {
					seg, i = ix.delta, i-nb
				} else if ix.dead != nil && ix.dead[i] {
					continue
				}
				if s := q.approx(seg.row(i), seg.scales[i], seg.sums[i]); s >= t.threshold() {
					t.push(scored{s, p})
				}
			}
			return
		}
		// Base rows lo..min(hi, nb), then delta rows: one tight loop each.
		for _, part := range []struct {
			seg    *segment
			lo, hi int
			off    int
			dead   []bool
		}{{ix.base, lo, min(hi, nb), 0, ix.dead}, {ix.delta, max(lo, nb) - nb, hi - nb, nb, nil}} {
			seg, stride, thr := part.seg, part.seg.stride, t.threshold()
			for i := part.lo; i < part.hi; i++ {
				if part.dead != nil && part.dead[i] {
					continue
				}
				s := seg.scales[i] * float32(dot7(q.words, seg.codes[i*stride:(i+1)*stride])-q.bias-queryOffset*int64(seg.sums[i]))
				if s >= thr {
					t.push(scored{s, int32(part.off + i)})
					thr = t.threshold()
				}
			}
		}
	}
	workers := 1
	if n*ix.base.stride >= parallelMinFloats {
		workers = min(runtime.GOMAXPROCS(0), maxSearchWorkers, n*ix.base.stride/parallelMinFloats*2)
	}
	parts := make([]topK, workers)
	var wg sync.WaitGroup
	for w := range parts {
		parts[w] = topK{k: pool}
		lo, hi := n*w/workers, n*(w+1)/workers
		wg.Add(1)
		go func(t *topK) {
			defer wg.Done()
			scan(lo, hi, t)
		}(&parts[w])
	}
	wg.Wait()
	for w := 1; w < workers; w++ {
		for _, c := range parts[w].h {
			parts[0].push(c)
		}
	}
	runtime.KeepAlive(ix)
	return parts[0].h
}

// rid is the doc rid of position p.
func (ix *qindex) rid(p int32) int64 {
	if nb := ix.base.len(); int(p) >= nb {
		return ix.delta.rids[int(p)-nb]
	}
	return ix.base.rids[p]
}

// candidates returns the positions of the live rows whose documents pass
// f, remembered for this generation (filterCache).
func (ix *qindex) candidates(ctx context.Context, tx *sql.Tx, f retrieval.Filter) ([]int32, error) {
	return ix.filters.get(ctx, tx, f, func(rids []int64) []int32 {
		cand := []int32{}
		nb := ix.base.len()
		for _, part := range []struct {
			rids []int64
			off  int
		}{{ix.base.rids, 0}, {ix.delta.rids, nb}} {
			i := 0
			for _, rid := range rids { // both ascend: merge
				for i < len(part.rids) && part.rids[i] < rid {
					i++
				}
				if i < len(part.rids) && part.rids[i] == rid && (part.off > 0 || ix.dead == nil || !ix.dead[i]) {
					cand = append(cand, int32(part.off+i))
				}
			}
		}
		return cand
	})
}
