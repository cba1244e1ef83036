package chroma

import (
	"context"
	"encoding/base64"
	"encoding/binary"
	"fmt"
	"math"
	"net/http"

	"github.com/rlm-dev/rlm/retrieval"
)

type record struct {
	id    string
	text  *string
	meta  map[string]any
	vec   []float32
	size  int      // estimated JSON bytes
	parts []string // the overflow payload (see Limits), in parts
	ovf   overflowRef
}

// Upsert embeds each document's Text (or, when Text is empty, its qualified
// name, signature, doc and path, which is then stored as the record's
// Chroma document, marked MetaDerivedText) with the Embedder and writes documents,
// vectors and provenance metadata with Chroma's upsert, replacing records of
// the same id whole (metadata keys of the old version that the new one lacks
// are dropped; see clearStale). Everything is validated and embedded before the first write;
// writes go in batches of at most BatchSize records, so a server or transport
// failure mid-way can leave earlier batches written (the error says how
// many; upsert is idempotent, so retrying the call is safe). An empty slice
// is a no-op. Without an Embedder it returns ErrNoEmbedder.
func (b *Backend) Upsert(ctx context.Context, docs []retrieval.Document) error {
	if err := b.check(); err != nil {
		return err
	}
	if len(docs) == 0 {
		return nil
	}
	if b.embedder == nil {
		return ErrNoEmbedder
	}
	recs, err := b.records(docs, true)
	if err != nil {
		return err
	}
	texts := make([]string, len(docs))
	for i, d := range docs {
		texts[i] = EmbeddingText(d)
	}
	vecs, err := b.embed(ctx, texts)
	if err != nil {
		return err
	}
	for i := range recs {
		if err := b.checkVector(vecs[i]); err != nil {
			return fmt.Errorf("chroma upsert: embedding of document %q: %w", recs[i].id, err)
		}
		recs[i].vec = vecs[i]
	}
	return b.write(ctx, recs)
}

// UpsertVectors writes docs with caller-supplied vectors (vecs[i] belongs to
// docs[i], each of Dimensions() finite values; non-zero for Cosine). Text is
// stored as the Chroma document but not embedded. Validation, batching and
// failure semantics are those of Upsert.
func (b *Backend) UpsertVectors(ctx context.Context, docs []retrieval.Document, vecs [][]float32) error {
	if err := b.check(); err != nil {
		return err
	}
	if len(docs) != len(vecs) {
		return fmt.Errorf("%w: %d documents but %d vectors", retrieval.ErrBadRequest, len(docs), len(vecs))
	}
	if len(docs) == 0 {
		return nil
	}
	recs, err := b.records(docs, false)
	if err != nil {
		return err
	}
	for i := range recs {
		if err := b.checkVector(vecs[i]); err != nil {
			return fmt.Errorf("chroma upsert: vector %d (document %q): %w", i, recs[i].id, err)
		}
		recs[i].vec = vecs[i]
	}
	return b.write(ctx, recs)
}

// EmbeddingText is the text Upsert embeds for d: retrieval.EmbeddingText,
// the same text the embedded backend embeds, so both hold comparable
// vectors for one document.
func EmbeddingText(d retrieval.Document) string { return retrieval.EmbeddingText(d) }

// records validates docs and turns them into records; with derive, a
// document without Text stores the text that is embedded (MetaDerivedText).
func (b *Backend) records(docs []retrieval.Document, derive bool) ([]record, error) {
	recs := make([]record, len(docs))
	seen := make(map[string]int, len(docs))
	for i, d := range docs {
		if j, dup := seen[d.ID]; dup {
			return nil, fmt.Errorf("%w: documents %d and %d share id %q", retrieval.ErrBadRequest, j, i, d.ID)
		}
		seen[d.ID] = i
		m, err := toMetadata(d)
		if err != nil {
			return nil, err
		}
		t, derived := d.Text, false
		if t == "" && derive {
			// The Chroma document is what the vector stands for, also
			// when the caller gave no text (MetaDerivedText).
			t, derived = EmbeddingText(d), true
			m[MetaDerivedText] = true
		}
		rid, hashed := b.limits.recordID(d.ID)
		if hashed {
			m[MetaID] = d.ID
		}
		t, payload, err := b.limits.fit(d.ID, m, t, derived)
		if err != nil {
			return nil, err
		}
		r := record{id: rid, meta: m}
		if payload != nil {
			if r.parts, r.ovf, err = split(payload, m, b.limits.withDefaults().MaxDocumentBytes); err != nil {
				return nil, &retrieval.DocumentError{ID: d.ID, Err: fmt.Errorf("%w: %v", retrieval.ErrBadRequest, err)}
			}
		}
		if t != "" {
			r.text = &t
		}
		size := len(rid) + len(t) + 64
		for k, v := range m {
			size += len(k) + 8
			if s, ok := v.(string); ok {
				size += len(s) + len(s)/8 // escaping slack
			}
		}
		if b.base64 {
			size += (b.dims*4+2)/3*4 + 4
		} else {
			size += b.dims * 14
		}
		r.size = size
		recs[i] = r
	}
	return recs, nil
}

// checkVector: right length, finite, non-zero for cosine.
func (b *Backend) checkVector(v []float32) error {
	if len(v) != b.dims {
		return fmt.Errorf("%w: vector has %d dimensions, collection %q has %d", retrieval.ErrBadRequest, len(v), b.name, b.dims)
	}
	zero := true
	for j, x := range v {
		if math.IsNaN(float64(x)) || math.IsInf(float64(x), 0) {
			return fmt.Errorf("%w: vector element %d is %v", retrieval.ErrBadRequest, j, x)
		}
		if x != 0 {
			zero = false
		}
	}
	if zero && b.space == Cosine {
		return fmt.Errorf("%w: zero vector has no cosine direction", retrieval.ErrBadRequest)
	}
	return nil
}

func (b *Backend) embed(ctx context.Context, texts []string) ([][]float32, error) {
	out := make([][]float32, 0, len(texts))
	for start := 0; start < len(texts); start += b.embedN {
		end := min(start+b.embedN, len(texts))
		vecs, err := b.embedder.Embed(ctx, texts[start:end])
		if err != nil {
			return nil, fmt.Errorf("chroma: embed texts %d..%d with %s: %w", start, end-1, b.model, err)
		}
		if len(vecs) != end-start {
			return nil, fmt.Errorf("chroma: embedder %s returned %d vectors for %d texts", b.model, len(vecs), end-start)
		}
		out = append(out, vecs...)
	}
	return out, nil
}

// batches splits recs by count and estimated bytes.
func (b *Backend) batches(recs []record) [][]record {
	var out [][]record
	start, size := 0, 0
	for i, r := range recs {
		if i > start && (i-start >= b.batch || size+r.size > b.maxReq) {
			out = append(out, recs[start:i])
			start, size = i, 0
		}
		size += r.size
	}
	return append(out, recs[start:])
}

type upsertBody struct {
	IDs        []string         `json:"ids"`
	Embeddings any              `json:"embeddings"`
	Documents  []*string        `json:"documents"`
	Metadatas  []map[string]any `json:"metadatas"`
}

func (b *Backend) write(ctx context.Context, recs []record) error {
	bs := b.batches(recs)
	written := 0
	for i, batch := range bs {
		body := upsertBody{
			IDs:       make([]string, len(batch)),
			Documents: make([]*string, len(batch)),
			Metadatas: make([]map[string]any, len(batch)),
		}
		var f32 [][]float32
		var b64 []string
		for j, r := range batch {
			body.IDs[j], body.Documents[j], body.Metadatas[j] = r.id, r.text, r.meta
			if b.base64 {
				b64 = append(b64, encodeVector(r.vec))
			} else {
				f32 = append(f32, r.vec)
			}
		}
		if b.base64 {
			body.Embeddings = b64
		} else {
			body.Embeddings = f32
		}
		// The parts first, the records that point at them next, the parts
		// no record points at any more last: a reader never meets a
		// record whose payload is not stored.
		err := b.writeParts(ctx, batch)
		var old map[string]overflowRef
		if err == nil {
			err = b.withCollection(ctx, func(base string) error {
				var err error
				if old, err = b.clearStale(ctx, base, batch); err != nil {
					return err
				}
				return b.c.do(ctx, "upsert", http.MethodPost, base+"/upsert", body, nil)
			})
		}
		if err == nil {
			err = b.deleteParts(ctx, old)
		}
		if err != nil {
			if len(bs) == 1 {
				return err
			}
			return fmt.Errorf("chroma upsert: batch %d of %d failed, %d of %d records written before it: %w",
				i+1, len(bs), written, len(recs), err)
		}
		written += len(batch)
	}
	return nil
}

// clearStale makes batch replace its stored records whole. Chroma's upsert
// merges metadata: a key of the stored record that the new metadata lacks
// would survive (a user metadata key, a signature, a deeper dir_N). So the
// stored metadata of the batch's ids is read first, and every such key is
// sent as null, which drops it. It returns the overflow payloads (see
// Limits) of the stored records that the new ones no longer point at.
func (b *Backend) clearStale(ctx context.Context, base string, batch []record) (map[string]overflowRef, error) {
	ids := make([]string, len(batch))
	byID := make(map[string]map[string]any, len(batch))
	for i, r := range batch {
		ids[i] = r.id
		byID[r.id] = r.meta
	}
	var resp struct {
		IDs       []string         `json:"ids"`
		Metadatas []map[string]any `json:"metadatas"`
	}
	if err := b.c.do(ctx, "get", http.MethodPost, base+"/get", map[string]any{"ids": ids, "include": []string{"metadatas"}}, &resp); err != nil {
		return nil, err
	}
	if len(resp.Metadatas) != len(resp.IDs) {
		return nil, &Error{Op: "get", Status: 200, Kind: KindMalformed,
			Message: fmt.Sprintf("%d ids, %d metadatas", len(resp.IDs), len(resp.Metadatas))}
	}
	old := map[string]overflowRef{}
	for i, id := range resp.IDs {
		meta, ok := byID[id]
		if !ok {
			continue
		}
		for k := range resp.Metadatas[i] {
			if _, keep := meta[k]; !keep {
				meta[k] = nil
			}
		}
		if ref, ok := overflowOf(resp.Metadatas[i]); ok && meta[MetaOverflow] != ref.hash {
			old[id] = ref
		}
	}
	return old, nil
}

// encodeVector is Chroma's base64 embedding form: little-endian float32.
func encodeVector(v []float32) string {
	buf := make([]byte, 4*len(v))
	for i, x := range v {
		binary.LittleEndian.PutUint32(buf[4*i:], math.Float32bits(x))
	}
	return base64.StdEncoding.EncodeToString(buf)
}
