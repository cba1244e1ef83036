package project

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/rlm-dev/rlm/retrieval"
)

// refusing is a vector store that, like retrieval/chroma, validates a whole
// batch before writing and refuses a document whose id starts with "bad"
// as bad input, or fails outright on one starting with "down".
type refusing struct {
	retrieval.Backend
	written []string
}

func (r *refusing) Upsert(_ context.Context, docs []retrieval.Document) error {
	for _, d := range docs {
		switch {
		case strings.HasPrefix(d.ID, "bad"):
			return &retrieval.DocumentError{ID: d.ID, Err: fmt.Errorf("%w: metadata over the server's bound", retrieval.ErrTooLarge)}
		case strings.HasPrefix(d.ID, "down"):
			return fmt.Errorf("chroma upsert: %w", retrieval.ErrUnavailable)
		}
	}
	for _, d := range docs {
		r.written = append(r.written, d.ID)
	}
	return nil
}

// TestADocumentTheVectorStoreRefusesDoesNotStopTheOthers: documents the
// vector store refuses as bad input are left out, each reported with its
// id and cause, and every other document of the batch is written; a
// failure of the store itself is returned, not skipped.
func TestADocumentTheVectorStoreRefusesDoesNotStopTheOthers(t *testing.T) {
	ctx := context.Background()
	docs := func(ids ...string) []retrieval.Document {
		var out []retrieval.Document
		for _, id := range ids {
			out = append(out, retrieval.Document{ID: id})
		}
		return out
	}
	r := &refusing{}
	refused, err := upsertVectors(ctx, r, docs("a", "bad-1", "b", "bad-2", "c"))
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"a", "b", "c"}, r.written); diff != "" {
		t.Errorf("written (-want +got):\n%s", diff)
	}
	var ids []string
	for _, de := range refused {
		if !errors.Is(de, retrieval.ErrTooLarge) {
			t.Errorf("refusal %v does not wrap ErrTooLarge", de)
		}
		ids = append(ids, de.ID)
	}
	if diff := cmp.Diff([]string{"bad-1", "bad-2"}, ids); diff != "" {
		t.Errorf("refused (-want +got):\n%s", diff)
	}
	r = &refusing{}
	if _, err := upsertVectors(ctx, r, docs("a", "down")); !errors.Is(err, retrieval.ErrUnavailable) || len(r.written) != 0 {
		t.Errorf("a failing store: %v, %v written; want its error and nothing skipped", err, r.written)
	}
}
