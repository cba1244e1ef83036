package project_test

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/rlm-dev/rlm/project"
)

// TestABuildHoldsOneBatchOfDocumentsAtATime: a search index build writes
// each batch of documents as soon as it is made — it never holds more
// than one batch (less one document) and one file's documents — reports
// its progress batch by batch, and writes the index a build in one batch
// writes, scope tables included: an edit after it is an update that
// resolves only what the edit can change, and the updated index is a
// fresh build's.
func TestABuildHoldsOneBatchOfDocumentsAtATime(t *testing.T) {
	const files, funcs = 12, 6
	const perFile = funcs + 3 // codeSource: a type, its field, its method and the functions
	ctx := context.Background()
	// build opens the knowledge base in dir of root with batches of batch
	// documents (0: the default) and returns the project and the most
	// documents it held unwritten.
	build := func(t *testing.T, root, dir string, batch int, progress func(project.Progress)) (*project.Project, int) {
		t.Helper()
		opts := project.Options{DBPath: filepath.Join(dir, "kb.sqlite"), Progress: progress}
		most := 0
		if batch > 0 {
			project.WithBuildBatches(&opts, batch, func(n int) { most = max(most, n) })
		}
		p, err := project.Open(ctx, root, opts)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { p.Close() }) // a second Close does nothing
		return p, most
	}
	for _, batch := range []int{5, 16, 40} {
		t.Run(fmt.Sprint("batch ", batch), func(t *testing.T) {
			root := codeTree(t, files, funcs)
			var reports []project.Progress
			dir := t.TempDir()
			p, most := build(t, root, dir, batch, func(pr project.Progress) {
				if pr.Phase == project.PhaseBuild {
					reports = append(reports, pr)
				}
			})
			if bound := batch - 1 + perFile; most > bound || most < perFile {
				t.Errorf("the build held up to %d documents unwritten, want %d to %d (one batch of %d, one file's %d; %d in all)", most, perFile, bound, batch, perFile, files*perFile)
			}
			wantReports := 2 + (files*perFile-1)/(batch+perFile-1) // the start, a flush per batch at least, the end
			if len(reports) < min(wantReports, files+1) {
				t.Errorf("%d progress reports of the build, want at least %d: %+v", len(reports), min(wantReports, files+1), reports)
			}
			for i, r := range reports {
				if r.Total != files || (i > 0 && r.Done <= reports[i-1].Done) {
					t.Errorf("progress report %d: %+v after %+v, want Done rising to Total %d", i, r, reports[max(i-1, 0)], files)
				}
			}
			if n := len(reports); n == 0 || reports[n-1].Done != files {
				t.Errorf("the last progress report %+v, want Done %d", reports, files)
			}
			reqs := comparedRequests(false)
			whole, _ := build(t, root, t.TempDir(), 0, nil)
			if diff := cmp.Diff(contentOf(t, whole, reqs), contentOf(t, p, reqs)); diff != "" {
				t.Errorf("the index built in batches differs from one built in one batch (-one +batches):\n%s", diff)
			}
			writeCode(t, root, 3, funcs, 1)
			if changed, err := p.Refresh(ctx); err != nil || !changed {
				t.Fatalf("refresh: changed %v, %v", changed, err)
			}
			if st := p.Stats(); st.DerivedFrom == 0 || st.IndexResolved >= st.Files || st.IndexFiles != 1 {
				t.Errorf("the edit after the build: derived from g%d resolving %d of %d files, writing %d; want derived, resolving fewer than all, writing 1",
					st.DerivedFrom, st.IndexResolved, st.Files, st.IndexFiles)
			}
			updated := contentOf(t, p, reqs)
			p.Close()
			removeIndexFiles(t, dir)
			fresh, _ := build(t, root, dir, 0, nil)
			if diff := cmp.Diff(contentOf(t, fresh, reqs), updated); diff != "" {
				t.Errorf("the index updated from one built in batches differs from a fresh build (-fresh +updated):\n%s", diff)
			}
		})
	}
}
