package project_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/rlm-dev/rlm/project"
	"github.com/rlm-dev/rlm/sourcefacts"
)

// TestDocumentIDsAreStableAcrossLineShifts: a definition keeps its
// document id when lines above it are added (a record written for the
// earlier version is replaced, not left behind), and two definitions of
// one qualified name in a file (#if branches, overloads) keep distinct
// ids, numbered in source order.
func TestDocumentIDsAreStableAcrossLineShifts(t *testing.T) {
	file := func(shift int) *sourcefacts.FileFacts {
		at := func(line int) sourcefacts.Range {
			return sourcefacts.Range{StartLine: line + shift, EndLine: line + shift + 2}
		}
		return &sourcefacts.FileFacts{
			Provenance: sourcefacts.Provenance{Path: "pkg/a.c"},
			Symbols: []sourcefacts.Symbol{
				{Name: "init", Kind: "function", Range: at(3)},
				{Name: "Serve", Kind: "method", Receiver: "Server", Range: at(10)},
				{Name: "init", Kind: "function", Range: at(20)},
			},
		}
	}
	ids := func(f *sourcefacts.FileFacts) []string {
		var out []string
		for _, d := range project.Documents([]*sourcefacts.FileFacts{f}, nil) {
			out = append(out, d.ID)
		}
		return out
	}
	want := []string{"pkg/a.c#init", "pkg/a.c#Server.Serve", "pkg/a.c#init~1"}
	for _, shift := range []int{0, 1, 57} {
		if d := cmp.Diff(want, ids(file(shift))); d != "" {
			t.Errorf("lines shifted by %d (-want +got):\n%s", shift, d)
		}
	}
}
