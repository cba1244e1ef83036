package embedded

import (
	"context"
	"database/sql"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"math"
	"runtime"
	"sort"
	"strings"
	"sync"

	"github.com/rlm-dev/rlm/retrieval"
)

// Vector storage and exact cosine search; see the package doc for the
// storage layout and the in-memory copy (vindex).

// Defaults of the vector options.
const (
	// DefaultEmbedBatchSize bounds the texts of one Embedder.Embed call
	// made by Upsert.
	DefaultEmbedBatchSize = 64
	// MaxDimensions bounds the vector length (retrieval.MaxDimensions).
	MaxDimensions = retrieval.MaxDimensions
	// HybridMinDepth is the least number of hits hybrid search fetches from
	// each of the lexical and vector strategies before fusing; the depth is
	// max(3 × limit, HybridMinDepth), capped at retrieval.MaxLimit.
	HybridMinDepth = 50
)

// parallelMinFloats is the least number of float32 values (vectors ×
// dimensions) a search must score before it is split across goroutines:
// below it, starting goroutines costs more than it saves.
const parallelMinFloats = 1 << 19

// maxSearchWorkers bounds the goroutines of one vector search; a variable
// so benchmarks can compare.
var maxSearchWorkers = 4

// Option configures Open.
type Option func(*options)

type options struct {
	embedder   retrieval.Embedder
	model      string
	dims       int
	embedBatch int
	unsynced   bool                   // WithUnsyncedWrites
	stopword   func(term string) bool // nil: IsStopword
}

// WithQueryStopwords replaces the words lexical queries drop (IsStopword:
// English question glue and the relation words of code questions, "call",
// "defined") — for an index of other text, e.g. intents, where "call" is
// a topic. stop gets lowercased terms; nil keeps every term.
func WithQueryStopwords(stop func(term string) bool) Option {
	return func(o *options) {
		if stop == nil {
			stop = func(string) bool { return false }
		}
		o.stopword = stop
	}
}

// WithEmbedder gives the backend an embedder: Upsert then embeds each
// document's retrieval.EmbeddingText and stores the vector under
// (e.Model(), e.Dimensions()), and Search answers retrieval.Vector and
// retrieval.Hybrid by embedding Request.Text. Model() must be non-empty and
// Dimensions() in 1..MaxDimensions (retrieval.CheckEmbedder): Open refuses
// an embedder whose dimensions are unknown (a remote embedder with none
// configured) with an error wrapping retrieval.ErrBadRequest.
func WithEmbedder(e retrieval.Embedder) Option {
	return func(o *options) { o.embedder = e }
}

// WithVectorModel names the (model id, dimensions) of the vectors the
// backend stores and searches when there is no embedder, for callers that
// bring their own vectors to UpsertVectors and QueryVector. Combined with
// WithEmbedder, both must agree with the embedder.
func WithVectorModel(model string, dims int) Option {
	return func(o *options) { o.model, o.dims = model, dims }
}

// WithEmbedBatchSize bounds the texts per Embedder.Embed call made by
// Upsert (default DefaultEmbedBatchSize).
func WithEmbedBatchSize(n int) Option {
	return func(o *options) { o.embedBatch = n }
}

func (o *options) resolve() error {
	bad := func(format string, a ...any) error {
		return fmt.Errorf("%w: %s", retrieval.ErrBadRequest, fmt.Sprintf(format, a...))
	}
	if e := o.embedder; e != nil {
		if err := retrieval.CheckEmbedder(e); err != nil {
			return err
		}
		m, d := e.Model(), e.Dimensions()
		if o.model != "" && o.model != m {
			return bad("vector model %q differs from the embedder's %q", o.model, m)
		}
		if o.dims != 0 && o.dims != d {
			return bad("vector dimensions %d differ from the embedder's %d", o.dims, d)
		}
		o.model, o.dims = m, d
	}
	if o.model == "" && o.dims == 0 {
		return nil // no vectors
	}
	if o.model == "" {
		return bad("vector model id is empty")
	}
	if o.dims < 1 || o.dims > MaxDimensions {
		return bad("vector dimensions %d outside 1..%d", o.dims, MaxDimensions)
	}
	if o.embedBatch < 0 {
		return bad("embed batch size %d is negative", o.embedBatch)
	}
	if o.embedBatch == 0 {
		o.embedBatch = DefaultEmbedBatchSize
	}
	return nil
}

// Model is the model id of the vectors this backend stores and searches, or
// "" when it has none configured.
func (b *Backend) Model() string { return b.opts.model }

// Dimensions is the length of the vectors this backend stores and searches,
// or 0 when it has none configured.
func (b *Backend) Dimensions() int { return b.opts.dims }

// VectorCount returns the number of stored vectors of this backend's (model,
// dimensions); 0 when it has none configured.
func (b *Backend) VectorCount(ctx context.Context) (int, error) {
	var n int
	err := b.db.QueryRowContext(ctx, "SELECT COUNT(*) FROM vectors WHERE model = ? AND dims = ?", b.opts.model, b.opts.dims).Scan(&n)
	if err != nil {
		return 0, fmt.Errorf("embedded: vector count: %w", err)
	}
	return n, nil
}

// checkVector validates v for cosine search: dims values, all finite, not
// all zero (a zero vector has no direction). The error wraps
// retrieval.ErrBadRequest.
func checkVector(v []float32, dims int) error {
	if len(v) != dims {
		return fmt.Errorf("%w: vector has %d dimensions, want %d", retrieval.ErrBadRequest, len(v), dims)
	}
	var sum float64
	for j, x := range v {
		f := float64(x)
		if math.IsNaN(f) || math.IsInf(f, 0) {
			return fmt.Errorf("%w: vector element %d is %v", retrieval.ErrBadRequest, j, x)
		}
		sum += f * f
	}
	if sum == 0 {
		return fmt.Errorf("%w: zero vector has no cosine direction", retrieval.ErrBadRequest)
	}
	return nil
}

// normalize writes v scaled to unit length into dst (len(v)). The norm is
// computed in float64, so neither tiny nor huge components underflow or
// overflow. v must have passed checkVector.
func normalize(dst, v []float32) {
	var sum float64
	for _, x := range v {
		sum += float64(x) * float64(x)
	}
	inv := 1 / math.Sqrt(sum)
	for i, x := range v {
		dst[i] = float32(float64(x) * inv)
	}
}

// encodeVector is the BLOB form of v: little-endian float32.
func encodeVector(v []float32) []byte {
	buf := make([]byte, 4*len(v))
	for i, x := range v {
		binary.LittleEndian.PutUint32(buf[4*i:], math.Float32bits(x))
	}
	return buf
}

// needVectors fails unless the backend has a vector model.
func (b *Backend) needVectors(op string) error {
	if b.opts.model == "" {
		return fmt.Errorf("embedded: %s: %w: no vector model configured (use WithEmbedder or WithVectorModel)", op, retrieval.ErrUnsupported)
	}
	return nil
}

// embedRows embeds the EmbeddingText of each row that has one, in batches of
// the configured size, and sets row.vec. Rows with an empty text get no
// vector. Nothing is written here; a done ctx stops between batches.
func (b *Backend) embedRows(ctx context.Context, rows []row) error {
	var idx []int
	var texts []string
	for i, r := range rows {
		if t := retrieval.EmbeddingText(r.doc); t != "" {
			idx = append(idx, i)
			texts = append(texts, t)
		}
	}
	for start := 0; start < len(texts); start += b.opts.embedBatch {
		if err := ctx.Err(); err != nil {
			return err
		}
		end := min(start+b.opts.embedBatch, len(texts))
		vecs, err := b.opts.embedder.Embed(ctx, texts[start:end])
		if err != nil {
			return fmt.Errorf("embed texts %d..%d with %s: %w", start, end-1, b.opts.model, err)
		}
		if len(vecs) != end-start {
			return fmt.Errorf("%w: embedder %s returned %d vectors for %d texts", retrieval.ErrBadRequest, b.opts.model, len(vecs), end-start)
		}
		for k, v := range vecs {
			r := &rows[idx[start+k]]
			if err := checkVector(v, b.opts.dims); err != nil {
				return &retrieval.DocumentError{ID: r.doc.ID, Err: fmt.Errorf("embedding from %s: %w", b.opts.model, err)}
			}
			r.vec = v
		}
	}
	return ctx.Err()
}

// UpsertVectors stores docs with caller-supplied vectors: vecs[i] belongs to
// docs[i] and must have Dimensions() finite float32 values, not all zero.
// The vectors are stored under the backend's (Model(), Dimensions()) as
// given; Text is stored and indexed for the lexical strategy but not
// embedded. Semantics are those of Upsert: one transaction, a repeated ID's
// last version wins, and a bad document or vector fails the whole batch
// with a *retrieval.DocumentError (wrapping retrieval.ErrBadRequest for a
// bad vector) before anything is written. A length mismatch between docs
// and vecs wraps retrieval.ErrBadRequest; a backend without a vector model
// fails with retrieval.ErrUnsupported.
func (b *Backend) UpsertVectors(ctx context.Context, docs []retrieval.Document, vecs [][]float32) error {
	if err := b.needVectors("upsert vectors"); err != nil {
		return err
	}
	if len(docs) != len(vecs) {
		return fmt.Errorf("embedded: upsert vectors: %w: %d documents but %d vectors", retrieval.ErrBadRequest, len(docs), len(vecs))
	}
	rows, err := prepareRows(docs)
	if err != nil {
		return fmt.Errorf("embedded: upsert vectors: %w", err)
	}
	// prepareRows keeps each id's last version; take the vector of the same
	// occurrence.
	lastVec := make(map[string][]float32, len(docs))
	for i, d := range docs {
		if err := checkVector(vecs[i], b.opts.dims); err != nil {
			return fmt.Errorf("embedded: upsert vectors: %w", &retrieval.DocumentError{ID: d.ID, Err: fmt.Errorf("vector %d: %w", i, err)})
		}
		lastVec[d.ID] = vecs[i]
	}
	for i := range rows {
		rows[i].vec = lastVec[rows[i].doc.ID]
	}
	if len(rows) == 0 {
		return ctx.Err()
	}
	if err := b.writeRows(ctx, rows); err != nil {
		return fmt.Errorf("embedded: upsert vectors: %w", err)
	}
	return nil
}

// QueryVector returns the n (1..retrieval.MaxLimit; 0 means
// retrieval.DefaultLimit) stored documents whose vectors are most similar to
// vec by cosine similarity, among those passing filter, best first. vec must
// have Dimensions() finite values, not all zero. The search is exact (every
// stored vector of the backend's model and dimensions is scored). Hits have
// Strategy retrieval.Vector, ScoreKind retrieval.ScoreCosineSimilarity with
// Score in [-1, 1] (higher is better; float32 arithmetic) and Rank 1..n;
// equal scores are ordered by ascending document id. Errors: a bad vector or
// n wraps retrieval.ErrBadRequest, an oversized filter retrieval.ErrTooLarge,
// a backend without a vector model retrieval.ErrUnsupported.
func (b *Backend) QueryVector(ctx context.Context, vec []float32, n int, filter retrieval.Filter) ([]retrieval.Hit, error) {
	if err := b.needVectors("query vector"); err != nil {
		return nil, err
	}
	n, err := retrieval.NormalizeLimit(n)
	if err != nil {
		return nil, fmt.Errorf("embedded: query vector: %w", err)
	}
	if err := checkFilter(filter); err != nil {
		return nil, fmt.Errorf("embedded: query vector: %w", err)
	}
	if err := checkVector(vec, b.opts.dims); err != nil {
		return nil, fmt.Errorf("embedded: query vector: %w", err)
	}
	q := make([]float32, len(vec))
	normalize(q, vec)
	tx, err := b.db.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return nil, fmt.Errorf("embedded: query vector: %w", err)
	}
	defer tx.Rollback()
	hits, err := b.searchVector(ctx, tx, q, n, filter)
	if err != nil {
		return nil, fmt.Errorf("embedded: query vector: %w", err)
	}
	for i := range hits {
		hits[i].Strategy = retrieval.Vector
		hits[i].Rank = i + 1
	}
	return hits, nil
}

// embedQuery embeds req.Text for the vector and hybrid strategies and
// returns it normalised.
func (b *Backend) embedQuery(ctx context.Context, text string) ([]float32, error) {
	if strings.TrimSpace(text) == "" {
		return nil, fmt.Errorf("%w: vector search needs Text", retrieval.ErrBadRequest)
	}
	vecs, err := b.opts.embedder.Embed(ctx, []string{text})
	if err != nil {
		return nil, fmt.Errorf("embed query with %s: %w", b.opts.model, err)
	}
	if len(vecs) != 1 {
		return nil, fmt.Errorf("%w: embedder %s returned %d vectors for 1 text", retrieval.ErrBadRequest, b.opts.model, len(vecs))
	}
	if err := checkVector(vecs[0], b.opts.dims); err != nil {
		return nil, fmt.Errorf("query embedding from %s: %w", b.opts.model, err)
	}
	q := make([]float32, len(vecs[0]))
	normalize(q, vecs[0])
	return q, nil
}

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
	fmu    sync.Mutex
	fcache map[string][]int32
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
	if err := tx.QueryRowContext(ctx, "SELECT COUNT(*) FROM vectors WHERE model = ? AND dims = ?", b.opts.model, dims).Scan(&n); err != nil {
		return nil, err
	}
	rids := make([]int64, 0, n)
	ids := make([]string, 0, n)
	data := make([]float32, 0, n*dims)
	// One pass over this model's rows, no join: doc_rid is kept in step
	// with docs by write.
	rows, err := tx.QueryContext(ctx, "SELECT doc_rid, doc_id, vec FROM vectors WHERE model = ? AND dims = ?", b.opts.model, dims)
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
		if len(blob) != 4*dims {
			return nil, fmt.Errorf("document %q: stored vector of %d bytes, want %d", id, len(blob), 4*dims)
		}
		k := len(data)
		data = data[:k+dims]
		if !decodeNormalized(data[k:], blob) {
			return nil, fmt.Errorf("document %q: stored vector is zero or not finite", id)
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

// decodeNormalized decodes the little-endian float32 BLOB into dst
// (len(blob)/4 values) scaled to unit length; false if the vector is zero or
// not finite.
func decodeNormalized(dst []float32, blob []byte) bool {
	var sum float64
	for j := range dst {
		x := math.Float32frombits(binary.LittleEndian.Uint32(blob[4*j:]))
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
// kept one. "Better" is a higher score, then a smaller document id.
type topK struct {
	k   int
	ids []string
	h   []scored
}

func (t *topK) worse(a, b scored) bool {
	if a.sim != b.sim {
		return a.sim < b.sim
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
// ascending order. The filter is evaluated by SQL (filterSQL, the same
// conditions as every other strategy) inside tx, whose snapshot is the
// index's generation; the answer is remembered for this generation. The
// result must not be modified.
func (ix *vindex) candidates(ctx context.Context, tx *sql.Tx, f retrieval.Filter) ([]int32, error) {
	key, err := json.Marshal(f)
	if err != nil {
		return nil, err
	}
	ix.fmu.Lock()
	cand, ok := ix.fcache[string(key)]
	ix.fmu.Unlock()
	if ok {
		return cand, nil
	}
	cand, err = ix.filterRows(ctx, tx, f)
	if err != nil {
		return nil, err
	}
	ix.fmu.Lock()
	if ix.fcache == nil || len(ix.fcache) >= maxCachedFilters {
		ix.fcache = make(map[string][]int32)
	}
	ix.fcache[string(key)] = cand
	ix.fmu.Unlock()
	return cand, nil
}

func (ix *vindex) filterRows(ctx context.Context, tx *sql.Tx, f retrieval.Filter) ([]int32, error) {
	where, args := filterSQL(f)
	rows, err := tx.QueryContext(ctx, "SELECT d.rid FROM docs d WHERE 1"+where+" ORDER BY d.rid", args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	cand := []int32{}
	i := 0
	for rows.Next() {
		var rid int64
		if err := rows.Scan(&rid); err != nil {
			return nil, err
		}
		// Both lists ascend: merge.
		for i < len(ix.rids) && ix.rids[i] < rid {
			i++
		}
		if i < len(ix.rids) && ix.rids[i] == rid {
			cand = append(cand, int32(i))
		}
	}
	return cand, rows.Err()
}

// searchVector runs the exact cosine search for the unit vector q inside
// tx and reads the documents of the k best hits.
func (b *Backend) searchVector(ctx context.Context, tx *sql.Tx, q []float32, k int, f retrieval.Filter) ([]retrieval.Hit, error) {
	ix, err := b.index(ctx, tx)
	if err != nil {
		return nil, err
	}
	var cand []int32
	if filterActive(f) {
		if cand, err = ix.candidates(ctx, tx, f); err != nil {
			return nil, err
		}
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	best := ix.search(q, k, cand)
	if len(best) == 0 {
		return nil, nil
	}
	args := make([]any, len(best))
	for i, c := range best {
		args[i] = ix.rids[c.pos]
	}
	rows, err := tx.QueryContext(ctx, "SELECT "+docColumns+", d.rid FROM docs d WHERE d.rid IN ("+placeholders(len(args))+")", args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	byRID := make(map[int64]retrieval.Document, len(best))
	for rows.Next() {
		var rid int64
		d, err := scanDocument(rows, &rid)
		if err != nil {
			return nil, err
		}
		byRID[rid] = d
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	hits := make([]retrieval.Hit, 0, len(best))
	for _, c := range best {
		d, ok := byRID[ix.rids[c.pos]]
		if !ok {
			// Cannot happen: the index is of this transaction's snapshot.
			return nil, fmt.Errorf("vector index out of step with documents (document %q)", ix.ids[c.pos])
		}
		hits = append(hits, retrieval.Hit{Document: d, Score: float64(c.sim), ScoreKind: retrieval.ScoreCosineSimilarity})
	}
	return hits, nil
}

// hybridDepth is the number of hits hybrid search asks of each strategy.
func hybridDepth(limit int) int {
	return min(max(3*limit, HybridMinDepth), retrieval.MaxLimit)
}

// searchHybrid fuses lexical and vector results for req.Text by reciprocal
// rank fusion (retrieval.FuseRRF, k = retrieval.DefaultRRFK).
func (b *Backend) searchHybrid(ctx context.Context, tx *sql.Tx, req retrieval.Request, q []float32) ([]retrieval.Hit, error) {
	depth := hybridDepth(req.Limit)
	var lex []retrieval.Hit
	if b.matchExpression(req.Text) != "" {
		lr := req
		lr.Limit = depth
		var err error
		if lex, err = b.searchLexical(ctx, tx, lr); err != nil {
			return nil, err
		}
	}
	vec, err := b.searchVector(ctx, tx, q, depth, req.Filter)
	if err != nil {
		return nil, err
	}
	fused := retrieval.FuseRRF(retrieval.DefaultRRFK, lex, vec)
	if len(fused) > req.Limit {
		fused = fused[:req.Limit]
	}
	return fused, nil
}
