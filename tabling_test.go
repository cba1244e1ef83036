package rlm_test

import (
	"strings"
	"testing"

	"github.com/rlm-dev/rlm"
)

// TestSearchPlansAQuestionOncePerSnapshotAndAgainAfterAnEdit: a question
// asked again on the same snapshot is not planned again (tabling); after
// an edit publishes a new snapshot it is planned afresh, and the answer is
// the new snapshot's.
func TestSearchPlansAQuestionOncePerSnapshotAndAgainAfterAnEdit(t *testing.T) {
	root, p := openPlain(t, recencyTree)
	steps := []struct {
		edit  string // a file to edit first ("" none)
		query string
		want  rlm.TableStats
	}{
		{"", "stream closing", rlm.TableStats{Computed: 1}},
		{"", "stream closing", rlm.TableStats{Computed: 1, Reused: 1}},
		{"", "where is Close defined", rlm.TableStats{Computed: 2, Reused: 1}},
		{"", "stream closing", rlm.TableStats{Computed: 2, Reused: 2}},
		{"close.go", "stream closing", rlm.TableStats{Computed: 3, Reused: 2, Emptied: 1}},
		{"", "stream closing", rlm.TableStats{Computed: 3, Reused: 3, Emptied: 1}},
	}
	for i, s := range steps {
		if s.edit != "" {
			write(t, root, s.edit, strings.Replace(recencyTree[s.edit], "ends", "ends and flushes", 1))
		}
		a := search(t, p, s.query)
		if got := p.PlanTableStats(); got != s.want {
			t.Errorf("step %d %q: plan table %+v, want %+v", i, s.query, got, s.want)
		}
		if len(a.Plan) == 0 || len(a.Hits) == 0 {
			t.Errorf("step %d %q: no plan or hits: %+v", i, s.query, a)
		}
		for _, h := range a.Hits {
			if cur, _ := p.FileHash(h.Path); h.ContentHash != cur {
				t.Errorf("step %d %q: hit in %s read from %s, the file is %s", i, s.query, h.Path, h.ContentHash, cur)
			}
		}
	}
}
