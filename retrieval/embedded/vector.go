package embedded

import (
	"context"
	"database/sql"
	"encoding/binary"
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/rlm-dev/rlm/retrieval"
)

// Vector storage and cosine search; see the package doc for the storage
// layout, the exact search (vindex.go) and the quantised one (qindex.go).

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
	bulk       bool                   // WithBulkBuild
	stopword   func(term string) bool // nil: IsStopword
	exact      bool                   // WithExactVectors
	image      []byte                 // WithImage
}

// WithExactVectors makes every vector search exact whatever the number of
// vectors: all of them are scaled to unit length in one in-memory float32
// copy (n × dims × 4 bytes) and scored, as below the quantised index's
// bound (see the package doc). For callers that need exactness more than
// memory and latency, and for benchmarks of the two.
func WithExactVectors() Option {
	return func(o *options) { o.exact = true }
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
	err := b.db.QueryRowContext(ctx, "SELECT COUNT(*) FROM vectors WHERE "+modelSQL, b.opts.model, b.opts.dims).Scan(&n)
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

// modelSQL is the condition on a vectors row (its mid) that it is of the
// (model, dims) bound to its two parameters.
const modelSQL = "mid = (SELECT id FROM vector_models WHERE model = ? AND dims = ?)"

// encodeVector is the BLOB form of v (checkVector passed): v scaled to
// unit length (normalize), each component as an IEEE 754 binary16
// (float32ToHalf: round to nearest, ties to even), little-endian — 2
// bytes a dimension instead of float32's 4. Search reads only a vector's
// direction, so the scale is not kept; a component's rounding error is at
// most 2^-12 of it (2^-25 absolute below 2^-14, binary16's subnormals).
func encodeVector(v []float32) []byte {
	u := make([]float32, len(v))
	normalize(u, v)
	buf := make([]byte, 2*len(u))
	for i, x := range u {
		binary.LittleEndian.PutUint16(buf[2*i:], float32ToHalf(x))
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
// have Dimensions() finite values, not all zero. The search is exact up to
// 2^22 stored floats of the backend's model (or WithExactVectors); above,
// candidates come from quantised codes and are re-ranked exactly, so
// scores are exact and recall is measured (see the package doc). Hits have
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
	hits, err := b.searchVector(ctx, readTx{tx, &b.stmts}, q, n, filter)
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

// ranked is one result of a vector search before its document is read.
type ranked struct {
	rid int64
	id  string
	sim float32
}

// searchVector runs the cosine search for the unit vector q inside tx —
// exact (startExact) or quantised with exact re-ranking
// (startQuantized), see useQuantized — and reads the documents of the k
// best hits.
func (b *Backend) searchVector(ctx context.Context, tx readTx, q []float32, k int, f retrieval.Filter) ([]retrieval.Hit, error) {
	best, err := b.nearest(ctx, tx, q, k, f)
	if err != nil || len(best) == 0 {
		return nil, err
	}
	// A missing document cannot happen: vectors live and die with their
	// document row in the same transaction.
	return hitsByRID(ctx, tx, len(best), func(i int) (int64, string, float64) {
		return best[i].rid, best[i].id, float64(best[i].sim)
	}, retrieval.ScoreCosineSimilarity, "vector index")
}

// hitsByRID reads the documents of n ranked rows (readByRID) and makes one
// hit per row, in the rows' order, with the row's score of kind: row(i)
// is row i's rid, document id and score. A row whose document is missing
// fails, naming index ("vector index") and the document id.
func hitsByRID(ctx context.Context, tx readTx, n int, row func(i int) (rid int64, id string, score float64), kind retrieval.ScoreKind, index string) ([]retrieval.Hit, error) {
	rids := make([]int64, n)
	for i := range rids {
		rids[i], _, _ = row(i)
	}
	byRID, err := readByRID(ctx, tx, rids)
	if err != nil {
		return nil, err
	}
	hits := make([]retrieval.Hit, n)
	for i := range hits {
		rid, id, score := row(i)
		d, ok := byRID[rid]
		if !ok {
			return nil, fmt.Errorf("%s out of step with documents (document %q)", index, id)
		}
		hits[i] = retrieval.Hit{Document: d, Score: score, ScoreKind: kind}
	}
	return hits, nil
}

// nearest is the k best vectors for the unit vector q passing f, best
// first, before their documents are read: exact (startExact) or
// quantised with exact re-ranking (startQuantized), see useQuantized.
func (b *Backend) nearest(ctx context.Context, tx readTx, q []float32, k int, f retrieval.Filter) ([]ranked, error) {
	finish, err := b.startNearest(ctx, tx, q, k, f)
	if err != nil {
		return nil, err
	}
	return finish()
}

// startNearest begins nearest: it reads what the scan needs in tx (the
// generation, the index, the candidates of f), starts the scan of the
// in-memory (exact) or mapped (quantised) vectors in a goroutine of its
// own, which never touches tx, and returns finish, which waits for the
// scan and, for the quantised index, re-ranks its pool in tx. Between the
// two the caller may run other queries in tx (hybrid search ranks its
// lexical half there); it must call finish once, also on its own error
// path, so that no scan outlives the search.
func (b *Backend) startNearest(ctx context.Context, tx readTx, q []float32, k int, f retrieval.Filter) (finish func() ([]ranked, error), err error) {
	g, err := readGeneration(ctx, tx.Tx)
	if err != nil {
		return nil, err
	}
	quant, err := b.useQuantized(ctx, tx.Tx, g)
	if err != nil {
		return nil, err
	}
	if quant {
		return b.startQuantized(ctx, tx.Tx, g, q, k, f)
	}
	return b.startExact(ctx, tx.Tx, q, k, f)
}

// scanAsync runs scan in a goroutine of its own and returns a function
// waiting for its result.
func (b *Backend) scanAsync(scan func() []scored) func() []scored {
	done := make(chan []scored, 1)
	go func() {
		if b.overlap != nil {
			b.overlap.scanning()
		}
		done <- scan()
	}()
	return func() []scored { return <-done }
}

// readByRID reads the documents of the rows rids (without their refs).
func readByRID(ctx context.Context, tx readTx, rids []int64) (map[int64]retrieval.Document, error) {
	args := make([]any, len(rids))
	for i, r := range rids {
		args[i] = r
	}
	rows, err := tx.QueryContext(ctx, "SELECT "+docColumns+", d.rid FROM docs d WHERE d.rid IN ("+placeholders(len(args))+")", args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	byRID := make(map[int64]retrieval.Document, len(rids))
	for rows.Next() {
		var rid int64
		d, _, err := scanDocument(rows, &rid)
		if err != nil {
			return nil, err
		}
		byRID[rid] = d
	}
	return byRID, rows.Err()
}

// startExact starts scoring every vector (or every one passing f) of the
// in-memory float32 copy (scanAsync); its finish returns the k best.
func (b *Backend) startExact(ctx context.Context, tx *sql.Tx, q []float32, k int, f retrieval.Filter) (func() ([]ranked, error), error) {
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
	wait := b.scanAsync(func() []scored { return ix.search(q, k, cand) })
	return func() ([]ranked, error) {
		best := wait()
		out := make([]ranked, len(best))
		for i, c := range best {
			out[i] = ranked{rid: ix.rids[c.pos], id: ix.ids[c.pos], sim: c.sim}
		}
		return out, nil
	}, nil
}

// startQuantized starts taking the poolSize(k) best vectors by
// approximate score (quant.go, scanAsync); its finish re-ranks them
// exactly (rerank) in tx.
func (b *Backend) startQuantized(ctx context.Context, tx *sql.Tx, g int64, q []float32, k int, f retrieval.Filter) (func() ([]ranked, error), error) {
	ix, err := b.quantIndex(ctx, tx, g)
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
	wait := b.scanAsync(func() []scored {
		qq := newQuery(q)
		return ix.search(&qq, poolSize(k), cand)
	})
	return func() ([]ranked, error) {
		pool := wait()
		rids := make([]int64, len(pool))
		for i, c := range pool {
			rids[i] = ix.rid(c.pos)
		}
		return b.rerank(ctx, tx, q, rids, k)
	}, nil
}

// rerank reads the stored vectors of the documents with the given rids
// inside tx and returns the k most similar to the unit vector q by exact
// cosine similarity (the float32 arithmetic of the exact search: the same
// scores, bit for bit), best first, ties by ascending document id. A rid
// without a stored vector of this model (deleted after the base was
// written) is dropped; a rid given twice counts once.
func (b *Backend) rerank(ctx context.Context, tx *sql.Tx, q []float32, rids []int64, k int) ([]ranked, error) {
	var out []ranked
	u := make([]float32, b.opts.dims)
	err := chunks(rids, chunkSize, func(c []int64) error {
		args := append([]any{b.opts.model, b.opts.dims}, anys(c)...)
		rows, err := tx.QueryContext(ctx, "SELECT v.doc_rid, d.id, v.vec FROM vectors v JOIN docs d ON d.rid = v.doc_rid WHERE v."+modelSQL+" AND v.doc_rid IN ("+placeholders(len(c))+")", args...)
		if err != nil {
			return err
		}
		defer rows.Close()
		var blob sql.RawBytes
		for rows.Next() {
			var r ranked
			if err := rows.Scan(&r.rid, &r.id, &blob); err != nil {
				return err
			}
			if err := decodeStored(u, blob, r.id); err != nil {
				return err
			}
			r.sim = dot(q, u)
			out = append(out, r)
		}
		return rows.Err()
	})
	if err != nil {
		return nil, err
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].sim != out[j].sim {
			return out[i].sim > out[j].sim
		}
		return out[i].id < out[j].id
	})
	return out[:min(k, len(out))], nil
}

// hybridDepth is the number of hits hybrid search asks of each strategy.
func hybridDepth(limit int) int {
	return min(max(3*limit, HybridMinDepth), retrieval.MaxLimit)
}

// searchHybrid fuses lexical and vector results for req.Text by reciprocal
// rank fusion (retrieval.FuseRRF, k = retrieval.DefaultRRFK).
func (b *Backend) searchHybrid(ctx context.Context, tx readTx, req retrieval.Request, q []float32) ([]retrieval.Hit, error) {
	// Both lists are ranked by document id alone; only the documents of
	// the fused list's first req.Limit are read.
	// The vector scan runs while the lexical half ranks in tx.
	depth := hybridDepth(req.Limit)
	finish, err := b.startNearest(ctx, tx, q, depth, req.Filter)
	if err != nil {
		return nil, err
	}
	var rows []rankedRow
	if b.matchExpression(req.Text) != "" {
		lr := req
		lr.Limit = depth
		if b.overlap != nil {
			b.overlap.ranking(false)
		}
		rows, err = b.rankRows(ctx, tx, lr)
		if b.overlap != nil {
			b.overlap.ranking(true)
		}
	}
	best, verr := finish()
	if err != nil {
		return nil, err
	}
	if verr != nil {
		return nil, verr
	}
	rid := map[string]int64{}
	var lex, vec []retrieval.Hit
	for _, r := range rows {
		rid[r.id] = r.rid
		lex = append(lex, retrieval.Hit{Document: retrieval.Document{ID: r.id}})
	}
	for _, c := range best {
		rid[c.id] = c.rid
		vec = append(vec, retrieval.Hit{Document: retrieval.Document{ID: c.id}})
	}
	fused := retrieval.FuseRRF(retrieval.DefaultRRFK, lex, vec)
	if len(fused) > req.Limit {
		fused = fused[:req.Limit]
	}
	if len(fused) == 0 {
		return nil, nil
	}
	rids := make([]int64, len(fused))
	for i, h := range fused {
		rids[i] = rid[h.Document.ID]
	}
	byRID, err := readByRID(ctx, tx, rids)
	if err != nil {
		return nil, err
	}
	for i := range fused {
		d, ok := byRID[rids[i]]
		if !ok {
			return nil, fmt.Errorf("search index out of step with documents (document %q)", fused[i].Document.ID)
		}
		fused[i].Document = d
	}
	return fused, nil
}
