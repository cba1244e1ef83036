package chroma

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
)

// Metadata keys of a record whose overflow payload (see Limits) is kept in
// the overflow collection.
const (
	MetaOverflow      = "overflow"       // string, the payload's hash (overflowHashLen hex digits of its SHA-256)
	MetaOverflowParts = "overflow_parts" // int, the number of parts the payload is split into
	// MetaOverflowHit is true when the payload holds more than MetaRefs,
	// so that a search hit (which carries no refs) needs it too.
	MetaOverflowHit = "overflow_hit" // bool, present only when true
)

// Metadata keys of an overflow part record: the record it belongs to, the
// payload's hash and the part's 0-based index. The part's Chroma document
// is its slice of the payload (JSON of the moved keys and, under
// overflowText, the whole text).
const (
	partDoc   = "doc"
	partHash  = "hash"
	partIndex = "part"
)

const overflowHashLen = 16

// OverflowCollectionName is the name of the collection that keeps what does
// not fit the records of collection (see Limits): one-dimensional records
// whose vectors mean nothing, read by id only.
func OverflowCollectionName(collection string) string { return collection + "-overflow" }

// overflowRef is where one record's payload lives.
type overflowRef struct {
	hash  string
	parts int
}

// partID names part n of record id's payload of hash h; the record id is
// hashed so that part ids stay short whatever id is.
func partID(id string, ref overflowRef, n int) string {
	sum := sha256.Sum256([]byte(id))
	return "ovf-" + hex.EncodeToString(sum[:12]) + "-" + ref.hash + "-" + strconv.Itoa(n)
}

func (r overflowRef) ids(id string) []string {
	out := make([]string, r.parts)
	for n := range out {
		out[n] = partID(id, r, n)
	}
	return out
}

// overflowOf reads the overflow reference of a stored record's metadata.
func overflowOf(m map[string]any) (overflowRef, bool) {
	h, _ := m[MetaOverflow].(string)
	n, err := integer(m[MetaOverflowParts])
	if h == "" || err != nil || n <= 0 {
		return overflowRef{}, false
	}
	return overflowRef{hash: h, parts: n}, true
}

// split encodes payload, marks m with where it is kept and returns the
// parts, each at most size bytes and cut at rune boundaries.
func split(payload map[string]any, m map[string]any, size int) ([]string, overflowRef, error) {
	b, err := json.Marshal(payload)
	if err != nil {
		return nil, overflowRef{}, err
	}
	sum := sha256.Sum256(b)
	s := string(b)
	var parts []string
	for len(s) > 0 {
		p := cutUTF8(s, size)
		if p == "" { // size under one rune
			p = s[:min(len(s), 4)]
		}
		parts = append(parts, p)
		s = s[len(p):]
	}
	ref := overflowRef{hash: hex.EncodeToString(sum[:])[:overflowHashLen], parts: len(parts)}
	m[MetaOverflow], m[MetaOverflowParts] = ref.hash, ref.parts
	for k := range payload {
		if k != MetaRefs {
			m[MetaOverflowHit] = true
			break
		}
	}
	return parts, ref, nil
}

// overflowCollection returns the overflow collection's id, creating it
// when create is set; "" without an error when it does not exist.
func (b *Backend) overflowCollection(ctx context.Context, create bool) (string, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.ovfID != "" {
		return b.ovfID, nil
	}
	name := OverflowCollectionName(b.name)
	var info collectionInfo
	var err error
	if create {
		body := map[string]any{"name": name, "get_or_create": true,
			"configuration": map[string]any{"hnsw": map[string]any{"space": string(L2)}},
			"metadata":      map[string]any{"rlm:overflow_of": b.name}}
		err = b.c.do(ctx, "create overflow collection", http.MethodPost, b.dbPath()+"/collections", body, &info)
	} else {
		err = b.c.do(ctx, "get overflow collection", http.MethodGet, b.dbPath()+"/collections/"+url.PathEscape(name), nil, &info)
		if isNotFound(err) {
			return "", nil
		}
	}
	if err != nil {
		return "", err
	}
	if info.ID == "" {
		return "", &Error{Op: "get overflow collection", Status: 200, Kind: KindMalformed, Message: "collection without id"}
	}
	b.ovfID = info.ID
	return b.ovfID, nil
}

// withOverflow runs f on the overflow collection (created if create);
// without one (and !create) f is not run. A collection deleted behind our
// back is re-resolved once.
func (b *Backend) withOverflow(ctx context.Context, create bool, f func(base string) error) error {
	return b.withResolved(func() (string, error) { return b.overflowCollection(ctx, create) }, &b.ovfID, f)
}

// writeParts upserts the parts of recs into the overflow collection.
func (b *Backend) writeParts(ctx context.Context, recs []record) error {
	var parts []record
	for _, r := range recs {
		for n, p := range r.parts {
			p := p
			parts = append(parts, record{id: partID(r.id, r.ovf, n), text: &p, vec: []float32{1},
				meta: map[string]any{partDoc: r.id, partHash: r.ovf.hash, partIndex: n},
				size: len(p) + len(p)/8 + len(r.id) + 160})
		}
	}
	if len(parts) == 0 {
		return nil
	}
	for _, batch := range b.batches(parts) {
		body := upsertBody{IDs: make([]string, len(batch)), Documents: make([]*string, len(batch)), Metadatas: make([]map[string]any, len(batch))}
		vecs := make([][]float32, len(batch))
		for j, r := range batch {
			body.IDs[j], body.Documents[j], body.Metadatas[j], vecs[j] = r.id, r.text, r.meta, r.vec
		}
		body.Embeddings = vecs
		if err := b.withOverflow(ctx, true, func(base string) error {
			return b.c.do(ctx, "upsert overflow", http.MethodPost, base+"/upsert", body, nil)
		}); err != nil {
			return err
		}
	}
	return nil
}

// deleteParts deletes the parts of the payloads in refs (record id →
// reference) from the overflow collection.
func (b *Backend) deleteParts(ctx context.Context, refs map[string]overflowRef) error {
	var ids []string
	for id, r := range refs {
		ids = append(ids, r.ids(id)...)
	}
	for start := 0; start < len(ids); start += b.batch {
		chunk := ids[start:min(start+b.batch, len(ids))]
		if err := b.withOverflow(ctx, false, func(base string) error {
			return b.c.do(ctx, "delete overflow", http.MethodPost, base+"/delete", map[string]any{"ids": chunk}, nil)
		}); err != nil {
			return err
		}
	}
	return nil
}

// inflate puts the overflow payloads of the records ids[i] (metadata
// metas[i], Chroma document docs[i]) back into their metadata and
// documents; with hitsOnly, only those a search hit needs
// (MetaOverflowHit). A payload whose parts are missing or do not hash to
// the record's reference is a malformed answer (*Error, KindMalformed).
func (b *Backend) inflate(ctx context.Context, op string, ids []string, docs []*string, metas []map[string]any, hitsOnly bool) error {
	want := map[string]overflowRef{}
	var partIDs []string
	for i, m := range metas {
		ref, ok := overflowOf(m)
		if !ok {
			continue
		}
		if hit, _ := m[MetaOverflowHit].(bool); hitsOnly && !hit {
			continue
		}
		if _, dup := want[ids[i]]; !dup {
			want[ids[i]] = ref
			partIDs = append(partIDs, ref.ids(ids[i])...)
		}
	}
	if len(partIDs) == 0 {
		return nil
	}
	bad := func(format string, a ...any) error {
		return &Error{Op: op, Status: 200, Kind: KindMalformed, Message: fmt.Sprintf(format, a...)}
	}
	got := make(map[string]string, len(partIDs))
	for start := 0; start < len(partIDs); start += b.batch {
		chunk := partIDs[start:min(start+b.batch, len(partIDs))]
		var resp getResponse
		if err := b.withOverflow(ctx, false, func(base string) error {
			return b.c.do(ctx, "get overflow", http.MethodPost, base+"/get", map[string]any{"ids": chunk, "include": []string{"documents"}}, &resp)
		}); err != nil {
			return err
		}
		if len(resp.Documents) != len(resp.IDs) {
			return bad("overflow: %d ids, %d documents", len(resp.IDs), len(resp.Documents))
		}
		for j, id := range resp.IDs {
			if resp.Documents[j] != nil {
				got[id] = *resp.Documents[j]
			}
		}
	}
	payloads := make(map[string]map[string]any, len(want))
	for id, ref := range want {
		var whole []byte
		for n, pid := range ref.ids(id) {
			p, ok := got[pid]
			if !ok {
				return bad("record %q: overflow part %d of %d (%s) is missing", id, n+1, ref.parts, ref.hash)
			}
			whole = append(whole, p...)
		}
		sum := sha256.Sum256(whole)
		if hex.EncodeToString(sum[:])[:overflowHashLen] != ref.hash {
			return bad("record %q: overflow parts do not hash to %s", id, ref.hash)
		}
		var payload map[string]any
		if err := json.Unmarshal(whole, &payload); err != nil {
			return bad("record %q: overflow payload: %v", id, err)
		}
		payloads[id] = payload
	}
	for i, m := range metas {
		payload, ok := payloads[ids[i]]
		if !ok {
			continue
		}
		for k, v := range payload {
			if k == overflowText {
				if s, ok := v.(string); ok {
					docs[i] = &s
				}
				continue
			}
			m[k] = v
		}
	}
	return nil
}
