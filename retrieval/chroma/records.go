package chroma

import (
	"context"
	"fmt"
	"net/http"

	"github.com/rlm-dev/rlm/retrieval"
)

// Delete removes records by id; unknown ids are ignored and an empty slice is
// a no-op (an empty id list is never sent: Chroma would read it as "no
// filter"). Batching as in Upsert. The records' overflow payloads (see
// Limits) are deleted after them.
func (b *Backend) Delete(ctx context.Context, ids []string) error {
	if err := b.check(); err != nil {
		return err
	}
	ids, err := cleanIDs(ids)
	if err != nil || len(ids) == 0 {
		return err
	}
	rids := b.limits.recordIDs(ids)
	for start := 0; start < len(rids); start += b.batch {
		chunk := rids[start:min(start+b.batch, len(rids))]
		refs := map[string]overflowRef{}
		err := b.withCollection(ctx, func(base string) error {
			var resp struct {
				IDs       []string         `json:"ids"`
				Metadatas []map[string]any `json:"metadatas"`
			}
			body := map[string]any{"ids": chunk, "where": map[string]any{MetaOverflowParts: map[string]any{"$gt": 0}}, "include": []string{"metadatas"}}
			if err := b.c.do(ctx, "get", http.MethodPost, base+"/get", body, &resp); err != nil {
				return err
			}
			for i, id := range resp.IDs {
				if i < len(resp.Metadatas) {
					if ref, ok := overflowOf(resp.Metadatas[i]); ok {
						refs[id] = ref
					}
				}
			}
			return b.c.do(ctx, "delete", http.MethodPost, base+"/delete", map[string]any{"ids": chunk}, nil)
		})
		if err == nil {
			err = b.deleteParts(ctx, refs)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// MaxFetchIDs bounds one Fetch call.
const MaxFetchIDs = 100_000

func cleanIDs(ids []string) ([]string, error) {
	if len(ids) > MaxFetchIDs {
		return nil, fmt.Errorf("%w: %d ids, over %d", retrieval.ErrTooLarge, len(ids), MaxFetchIDs)
	}
	out := make([]string, 0, len(ids))
	seen := make(map[string]bool, len(ids))
	for _, id := range ids {
		if id == "" {
			return nil, fmt.Errorf("%w: empty id", retrieval.ErrBadRequest)
		}
		if !seen[id] {
			seen[id] = true
			out = append(out, id)
		}
	}
	return out, nil
}

type getResponse struct {
	IDs       []string         `json:"ids"`
	Documents []*string        `json:"documents"`
	Metadatas []map[string]any `json:"metadatas"`
}

func (r *getResponse) docs(op string) ([]retrieval.Document, error) {
	if len(r.Documents) != len(r.IDs) || len(r.Metadatas) != len(r.IDs) {
		return nil, &Error{Op: op, Status: 200, Kind: KindMalformed,
			Message: fmt.Sprintf("%d ids, %d documents, %d metadatas", len(r.IDs), len(r.Documents), len(r.Metadatas))}
	}
	out := make([]retrieval.Document, len(r.IDs))
	for i, id := range r.IDs {
		d, err := fromRecord(id, r.Documents[i], r.Metadatas[i])
		if err != nil {
			return nil, &Error{Op: op, Status: 200, Kind: KindMalformed, Message: err.Error()}
		}
		out[i] = d
	}
	return out, nil
}

var includeDocs = []string{"documents", "metadatas"}

// Fetch returns the stored documents for ids, in the order of ids; unknown
// ids are skipped and duplicates collapse. At most MaxFetchIDs ids.
func (b *Backend) Fetch(ctx context.Context, ids []string) ([]retrieval.Document, error) {
	if err := b.check(); err != nil {
		return nil, err
	}
	ids, err := cleanIDs(ids)
	if err != nil || len(ids) == 0 {
		return nil, err
	}
	byID := make(map[string]retrieval.Document, len(ids))
	rids := b.limits.recordIDs(ids)
	for start := 0; start < len(rids); start += b.batch {
		chunk := rids[start:min(start+b.batch, len(rids))]
		docs, err := b.get(ctx, map[string]any{"ids": chunk, "include": includeDocs}, false)
		if err != nil {
			return nil, err
		}
		for _, d := range docs {
			byID[d.ID] = d
		}
	}
	out := make([]retrieval.Document, 0, len(byID))
	for _, id := range ids {
		if d, ok := byID[id]; ok {
			out = append(out, d)
		}
	}
	return out, nil
}

// get runs the collection's get endpoint with body and decodes the
// documents it returns, their overflow payloads put back (with hits, only
// what a search hit carries).
func (b *Backend) get(ctx context.Context, body map[string]any, hits bool) ([]retrieval.Document, error) {
	var resp getResponse
	err := b.withCollection(ctx, func(base string) error {
		return b.c.do(ctx, "get", http.MethodPost, base+"/get", body, &resp)
	})
	if err != nil {
		return nil, err
	}
	if len(resp.Documents) == len(resp.IDs) && len(resp.Metadatas) == len(resp.IDs) {
		if err := b.inflate(ctx, "get", resp.IDs, resp.Documents, resp.Metadatas, hits); err != nil {
			return nil, err
		}
	}
	return resp.docs("get")
}

// Versions returns every record's id and content hash (MetaContentHash;
// "" for a record without one), paging through the collection BatchSize
// records at a time. It is what a caller compares against its own
// documents to find missing, stale and extra records (project reconciles
// a collection this way); records written while it pages may be missed.
func (b *Backend) Versions(ctx context.Context) (map[string]string, error) {
	if err := b.check(); err != nil {
		return nil, err
	}
	out := map[string]string{}
	for offset := 0; ; offset += b.batch {
		var resp struct {
			IDs       []string         `json:"ids"`
			Metadatas []map[string]any `json:"metadatas"`
		}
		err := b.withCollection(ctx, func(base string) error {
			return b.c.do(ctx, "get", http.MethodPost, base+"/get",
				map[string]any{"include": []string{"metadatas"}, "limit": b.batch, "offset": offset}, &resp)
		})
		if err != nil {
			return nil, err
		}
		if len(resp.Metadatas) != len(resp.IDs) {
			return nil, &Error{Op: "get", Status: 200, Kind: KindMalformed,
				Message: fmt.Sprintf("%d ids, %d metadatas", len(resp.IDs), len(resp.Metadatas))}
		}
		for i, id := range resp.IDs {
			h, _ := resp.Metadatas[i][MetaContentHash].(string)
			out[docID(id, resp.Metadatas[i])] = h
		}
		if len(resp.IDs) < b.batch {
			return out, nil
		}
	}
}
