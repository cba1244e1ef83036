package embedded

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/rlm-dev/rlm/retrieval"
)

// overlapWait bounds how long one half of a hybrid search waits for the
// other in TestHybridScansTheVectorsWhileTheLexicalHalfRanks.
const overlapWait = 5 * time.Second

// TestHybridScansTheVectorsWhileTheLexicalHalfRanks: a hybrid search's
// vector scan runs while its lexical half ranks — the scan has not ended
// when the ranking starts, and has started before the ranking ends — for
// the exact and the quantised index, and the answer is still the fusion
// of the lexical and the vector search's.
func TestHybridScansTheVectorsWhileTheLexicalHalfRanks(t *testing.T) {
	for _, quantised := range []bool{false, true} {
		name := map[bool]string{false: "exact", true: "quantised"}[quantised]
		t.Run(name, func(t *testing.T) {
			if quantised {
				forceQuantized(t, 2048)
			}
			ctx := context.Background()
			b := openVec(t, "", WithEmbedder(newWords()))
			if err := b.Upsert(ctx, syntheticDocs(400)); err != nil {
				t.Fatal(err)
			}
			req := retrieval.Request{Strategy: retrieval.Hybrid, Text: "parse the request header", Limit: 10}
			want := fusionOf(t, b, req)

			var mu sync.Mutex
			var problems []error
			fail := func(err error) {
				mu.Lock()
				defer mu.Unlock()
				problems = append(problems, err)
			}
			scanStarted, rankStarted := make(chan struct{}), make(chan struct{})
			wait := func(c chan struct{}, what error) {
				select {
				case <-c:
				case <-time.After(overlapWait):
					fail(what)
				}
			}
			b.overlap = &overlapHooks{
				scanning: func() {
					close(scanStarted)
					wait(rankStarted, errors.New("the vector scan ran before the lexical ranking started"))
				},
				ranking: func(done bool) {
					if !done {
						close(rankStarted)
						return
					}
					wait(scanStarted, errors.New("the lexical ranking ended before the vector scan started"))
				},
			}
			got, err := b.Search(ctx, req)
			b.overlap = nil
			if err != nil {
				t.Fatal(err)
			}
			for _, p := range problems {
				t.Error(p)
			}
			if diff := cmp.Diff(want, got, cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("hybrid differs from the fusion of lexical and vector (-want +got):\n%s", diff)
			}
		})
	}
}
