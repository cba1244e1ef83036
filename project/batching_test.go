package project_test

import (
	"context"
	"fmt"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/rlm-dev/rlm/project"
)

// TestABuildHoldsAtMostTwoBatchesOfDocumentsAtATime: a search index
// build writes each batch of documents as soon as the writer is free — it
// makes the next batch while one is written (pipelined), and never holds
// more than those two batches (each less one document plus one file's
// documents) —, builds and updates report their progress batch by batch,
// and the build
// writes the index a build in one batch writes, scope tables included: an
// edit after it is an update that resolves only what the edit can change,
// and the updated index is a fresh build's.
func TestABuildHoldsAtMostTwoBatchesOfDocumentsAtATime(t *testing.T) {
	const files, funcs = 12, 6
	const perFile = funcs + 3 // codeSource: a type, its field, its method and the functions
	ctx := context.Background()
	// build opens the knowledge base in dir of root with batches of batch
	// documents (0: the default) and returns the project and the most
	// documents it held unwritten (since the last reset of *most).
	build := func(t *testing.T, root, dir string, batch int, progress func(project.Progress)) (*project.Project, *int) {
		t.Helper()
		opts := project.Options{DBPath: filepath.Join(dir, "kb.sqlite"), Progress: progress}
		most := new(int)
		if batch > 0 {
			var mu sync.Mutex
			project.WithBuildBatches(&opts, batch, func(n int) {
				mu.Lock()
				defer mu.Unlock()
				*most = max(*most, n)
			})
			// A slow writer: a maker that could run ahead would.
			project.WithBatchWrites(&opts, func() { time.Sleep(5 * time.Millisecond) })
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
			var updates []project.Progress
			p, most := build(t, root, dir, batch, func(pr project.Progress) {
				switch pr.Phase {
				case project.PhaseBuild:
					reports = append(reports, pr)
				case project.PhaseUpdate:
					updates = append(updates, pr)
				}
			})
			if bound := 2 * (batch - 1 + perFile); *most > bound || *most < perFile {
				t.Errorf("the build held up to %d documents unwritten, want %d to %d (two batches of %d, each with one file's %d; %d in all)", *most, perFile, bound, batch, perFile, files*perFile)
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
			// Every file edited: an update of all of them, in batches.
			for i := range files {
				writeCode(t, root, i, funcs, 2)
			}
			if changed, err := p.Refresh(ctx); err != nil || !changed {
				t.Fatalf("refresh: changed %v, %v", changed, err)
			}
			if st := p.Stats(); st.DerivedFrom == 0 || st.IndexFiles != files {
				t.Errorf("the edit of every file: derived from g%d writing %d files; want derived, writing %d", st.DerivedFrom, st.IndexFiles, files)
			}
			if n := len(updates); n < min(wantReports, files+1) || updates[n-1].Done != updates[n-1].Total {
				t.Errorf("%d progress reports of the updates, want at least %d, the last one done: %+v", n, min(wantReports, files+1), updates)
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

// TestABuildMakesTheNextBatchWhileTheLastIsWritten: while a build writes
// a batch, the next one is made (the facts read, the documents made and
// prepared): the writer of the first batch waits until documents beyond
// that batch are held, which happens only if they are made meanwhile.
func TestABuildMakesTheNextBatchWhileTheLastIsWritten(t *testing.T) {
	const files, funcs, batch = 12, 6, 5
	const perFile = funcs + 3
	root := codeTree(t, files, funcs)
	opts := project.Options{DBPath: filepath.Join(t.TempDir(), "kb.sqlite")}
	ahead := make(chan struct{})
	var once sync.Once
	project.WithBuildBatches(&opts, batch, func(n int) {
		if n > batch-1+perFile { // more than any one batch
			once.Do(func() { close(ahead) })
		}
	})
	first := true
	waited := false
	project.WithBatchWrites(&opts, func() {
		if !first {
			return
		}
		first = false
		select {
		case <-ahead:
			waited = true
		case <-time.After(10 * time.Second):
		}
	})
	p, err := project.Open(context.Background(), root, opts)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	if !waited {
		t.Errorf("no document of the next batch was made while the first was being written (in 10 s)")
	}
}
