package project

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"path/filepath"
	"slices"

	"github.com/rlm-dev/rlm/retrieval"
	"github.com/rlm-dev/rlm/retrieval/chroma"
	"github.com/rlm-dev/rlm/retrieval/embedded"
)

// VectorState is how a Chroma collection stood against the search index
// it serves when the project last opened that index: the records of
// documents it lacked (Missing), held for another version of their file
// (Stale), or held for documents the index does not have (Extra: a file
// deleted, a definition renamed, a record of another generation). Every
// such record was repaired — missing and stale ones re-embedded and
// upserted, extra ones deleted — unless the repair failed, which fails
// the open.
type VectorState struct {
	Collection string `json:"collection"`
	// Documents is the search index's document count; Records the
	// collection's record count before the repair.
	Documents int `json:"documents"`
	Records   int `json:"records"`
	Missing   int `json:"missing"`
	Stale     int `json:"stale"`
	Extra     int `json:"extra"`
	// Refused counts the documents the collection refused as bad input
	// (upsertVectors): they are in the search index, without a vector;
	// Refusal is the first refusal's error text.
	Refused int    `json:"refused,omitempty"`
	Refusal string `json:"refusal,omitempty"`
	// Full is true when every record was compared; false when the counts
	// and a sample agreed, which is taken as in sync.
	Full bool `json:"full"`
	// Built is true when the search index was built at this open: every
	// document was then upserted into the collection just before.
	Built bool `json:"built"`
}

// InSync reports whether nothing was missing, stale or extra.
func (s VectorState) InSync() bool { return s.Missing == 0 && s.Stale == 0 && s.Extra == 0 }

// String is the state in a line: "in sync (N records)" or "repaired:
// missing N, stale N, extra N (now N records)".
func (s VectorState) String() string {
	if s.Refused > 0 {
		return fmt.Sprintf("chroma collection %s: %d documents have no vector, refused as bad input (first: %s); %d missing, %d stale, %d extra repaired (had %d records)",
			s.Collection, s.Refused, s.Refusal, s.Missing, s.Stale, s.Extra, s.Records)
	}
	switch {
	case s.InSync() && s.Built:
		return fmt.Sprintf("chroma collection %s written with the new search index (%d records)", s.Collection, s.Documents)
	case s.InSync():
		return fmt.Sprintf("chroma collection %s in sync (%d records)", s.Collection, s.Documents)
	}
	return fmt.Sprintf("chroma collection %s repaired: %d missing, %d stale, %d extra (had %d records, now %d)",
		s.Collection, s.Missing, s.Stale, s.Extra, s.Records, s.Documents)
}

// VectorState returns the state of the Chroma collection found at the
// last open of the search index (see VectorState), and false without
// Options.Chroma.
func (p *Project) VectorState() (VectorState, bool) {
	p.mu.RLock()
	defer p.mu.RUnlock()
	return p.vectors, p.opts.Chroma != nil
}

// vectorSample is how many documents the quick check compares.
const vectorSample = 32

// reconcileVectors brings vec (a Chroma collection) in line with primary
// (the search index whose vectors it holds): compare the counts and a
// sample first; if they disagree, every record — re-embed and upsert the
// missing and stale, delete the extra.
func reconcileVectors(ctx context.Context, primary *embedded.Backend, vec *chroma.Backend) (VectorState, error) {
	st := VectorState{Collection: vec.CollectionName()}
	var err error
	if st.Documents, err = primary.Count(ctx); err != nil {
		return st, err
	}
	if st.Records, err = vec.Count(ctx); err != nil {
		return st, fmt.Errorf("project: chroma count: %w", err)
	}
	if st.Records == st.Documents {
		sample, err := primary.Versions(ctx, vectorSample)
		if err != nil {
			return st, err
		}
		ids := make([]string, 0, len(sample))
		for id := range sample {
			ids = append(ids, id)
		}
		got, err := vec.Fetch(ctx, ids)
		if err != nil {
			return st, fmt.Errorf("project: chroma fetch: %w", err)
		}
		agree := len(got) == len(ids)
		for _, d := range got {
			agree = agree && sample[d.ID] == d.ContentHash
		}
		if agree {
			return st, nil
		}
	}
	st.Full = true
	want, err := primary.Versions(ctx, 0)
	if err != nil {
		return st, err
	}
	have, err := vec.Versions(ctx)
	if err != nil {
		return st, fmt.Errorf("project: chroma records: %w", err)
	}
	var upsert, extra []string
	for id, h := range want {
		switch hv, ok := have[id]; {
		case !ok:
			st.Missing++
			upsert = append(upsert, id)
		case hv != h:
			st.Stale++
			upsert = append(upsert, id)
		}
	}
	for id := range have {
		if _, ok := want[id]; !ok {
			extra = append(extra, id)
		}
	}
	st.Extra = len(extra)
	slices.Sort(upsert)
	for i := 0; i < len(upsert); i += retrieval.MaxLimit {
		docs, err := primary.Fetch(ctx, upsert[i:min(i+retrieval.MaxLimit, len(upsert))])
		if err != nil {
			return st, err
		}
		refused, err := upsertVectors(ctx, vec, docs)
		if err != nil {
			return st, fmt.Errorf("project: repair chroma collection: %w", err)
		}
		if st.Refused += len(refused); len(refused) > 0 && st.Refusal == "" {
			st.Refusal = refused[0].Error()
		}
	}
	if err := vec.Delete(ctx, extra); err != nil {
		return st, fmt.Errorf("project: repair chroma collection: %w", err)
	}
	return st, nil
}

// upsertVectors writes docs to vec, leaving out each document vec refuses
// as bad input (a *retrieval.DocumentError wrapping retrieval.ErrTooLarge
// or retrieval.ErrBadRequest, found before anything is written) so that
// one document never stops a tree's build: it stays in the search index,
// where exact, lexical and graph search find it, only without a vector. It
// returns those refusals; any other error is returned as is.
func upsertVectors(ctx context.Context, vec retrieval.Backend, docs []retrieval.Document) ([]*retrieval.DocumentError, error) {
	var refused []*retrieval.DocumentError
	for len(docs) > 0 {
		err := vec.Upsert(ctx, docs)
		de, ok := errors.AsType[*retrieval.DocumentError](err)
		if !ok || !(errors.Is(err, retrieval.ErrTooLarge) || errors.Is(err, retrieval.ErrBadRequest)) {
			return refused, err
		}
		i := slices.IndexFunc(docs, func(d retrieval.Document) bool { return d.ID == de.ID })
		if i < 0 {
			return refused, err
		}
		refused = append(refused, de)
		docs = slices.Delete(slices.Clone(docs), i, i+1)
	}
	return refused, nil
}

// ChromaNamespace is the Chroma namespace of the tree at root: 12 hex
// digits of the SHA-256 of its absolute path, so that every knowledge base
// of one tree shares a collection and two trees never do.
func ChromaNamespace(root string) string {
	abs, err := filepath.Abs(root)
	if err != nil {
		abs = root
	}
	sum := sha256.Sum256([]byte(abs))
	return "t" + hex.EncodeToString(sum[:6])
}
