package project_test

import (
	"bufio"
	"context"
	"crypto/sha256"
	"database/sql"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/rlm-dev/rlm/project"
	"github.com/rlm-dev/rlm/retrieval"

	_ "modernc.org/sqlite"
)

// fileSum is the SHA-256 of the file at path.
func fileSum(t *testing.T, path string) [32]byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return sha256.Sum256(b)
}

// finalIndexes lists the search index files under their final names in
// dir, by name.
func finalIndexes(t *testing.T, dir string) []string {
	t.Helper()
	return dirFiles(t, dir, func(n string) bool { return isSearchIndex(n) && !isTemp(n) })
}

// indexOfGeneration is the path of the search index file of generation gen
// in dir, or "".
func indexOfGeneration(t *testing.T, dir string, gen int64) string {
	t.Helper()
	for _, n := range finalIndexes(t, dir) {
		if strings.HasPrefix(n, fmt.Sprintf("search-g%d-", gen)) {
			return filepath.Join(dir, n)
		}
	}
	return ""
}

// TestReadersOfTheEarlierIndexKeepWorkingWhileItIsUpdated: a project that
// reads the index of snapshot 1 keeps getting snapshot 1's answers, during
// and after another project's update to snapshot 2 (which copies the index
// it cannot take, and leaves its file byte for byte as it was); once no one
// reads it, the next update takes that file in place (the nearest index no
// one reads) and it is gone.
func TestReadersOfTheEarlierIndexKeepWorkingWhileItIsUpdated(t *testing.T) {
	const files, funcs = 12, 6
	root := codeTree(t, files, funcs)
	dir := t.TempDir()
	opts := project.Options{DBPath: filepath.Join(dir, "kb.sqlite")}
	ctx := context.Background()
	a, err := project.Open(ctx, root, opts)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	reqs := []retrieval.Request{
		{Strategy: retrieval.Exact, Name: "F3_7", Limit: 10},
		{Strategy: retrieval.Lexical, Text: "function number 7 variant", Limit: 20},
		{Strategy: retrieval.Graph, Relation: retrieval.Callees, Name: "F3_6", Limit: 20},
	}
	before := contentOf(t, a, reqs)
	g1 := indexOfGeneration(t, dir, 1)
	sum := fileSum(t, g1)
	writeCode(t, root, 3, funcs+2, 1) // F3_6 and F3_7 appear

	var wg sync.WaitGroup
	stop := make(chan struct{})
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				select {
				case <-stop:
					return
				default:
				}
				if got := contentOf(t, a, reqs); !cmp.Equal(before.Answers, got.Answers) {
					t.Errorf("a reader of snapshot 1 during the update (-before +during):\n%s", cmp.Diff(before.Answers, got.Answers))
					return
				}
			}
		}()
	}
	b, err := project.Open(ctx, root, opts)
	close(stop)
	wg.Wait()
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	if st := b.Stats(); st.DerivedFrom != 1 || st.IndexFiles != 1 {
		t.Errorf("b's index: derived from %d writing %d files, want from 1 writing 1", st.DerivedFrom, st.IndexFiles)
	}
	if got := searchPaths(t, b, "F3_7"); !cmp.Equal(got, []string{"f003.go"}) {
		t.Errorf("F3_7 in snapshot 2: %v", got)
	}
	if diff := cmp.Diff(before, contentOf(t, a, reqs)); diff != "" {
		t.Errorf("a reader of snapshot 1 after the update (-before +after):\n%s", diff)
	}
	if fileSum(t, g1) != sum {
		t.Error("the index of snapshot 1 changed while it was read")
	}

	a.Close()
	writeCode(t, root, 4, funcs, 1)
	if _, err := b.Refresh(ctx); err != nil {
		t.Fatal(err)
	}
	if st := b.Stats(); st.DerivedFrom != 1 || st.IndexFiles != 2 {
		t.Errorf("snapshot 3's index: derived from %d writing %d files, want from 1 (in place) writing 2", st.DerivedFrom, st.IndexFiles)
	}
	if _, err := os.Stat(g1); !os.IsNotExist(err) {
		t.Errorf("the index of snapshot 1, updated in place, is still there: %v", err)
	}
}

// updaterEnv makes the test binary a process that updates a search index
// and stops in the middle (see TestHelperUpdaterProcess).
const updaterEnv = "RLM_PROJECT_TEST_UPDATER"

// TestHelperUpdaterProcess is not a test: run with updaterEnv set to a
// root (and updaterEnv_DB to a knowledge base), it opens the project and,
// once the search index update has written its first files, prints
// "mid-update" and waits to be killed.
func TestHelperUpdaterProcess(t *testing.T) {
	root := os.Getenv(updaterEnv)
	if root == "" {
		return
	}
	opts := project.Options{DBPath: os.Getenv(updaterEnv + "_DB"), Progress: func(p project.Progress) {
		if p.Phase == project.PhaseUpdate && p.Done > 0 {
			fmt.Println("mid-update")
			select {}
		}
	}}
	if _, err := project.Open(context.Background(), root, opts); err != nil {
		fmt.Fprintln(os.Stderr, "updater:", err)
		os.Exit(3)
	}
	fmt.Fprintln(os.Stderr, "updater: the update finished")
	os.Exit(4)
}

// killMidUpdate runs the updater process on root and kills it once it is in
// the middle of the update.
func killMidUpdate(t *testing.T, root, db string) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestHelperUpdaterProcess$")
	cmd.Env = append(os.Environ(), updaterEnv+"="+root, updaterEnv+"_DB="+db)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(out)
	mid := false
	for sc.Scan() {
		if sc.Text() == "mid-update" {
			mid = true
			break
		}
	}
	cmd.Process.Kill()
	cmd.Wait()
	if !mid {
		t.Fatalf("the updater never reached the middle of an update: %s", stderr.String())
	}
}

// wholeDatabase fails unless the SQLite file at path passes
// integrity_check.
func wholeDatabase(t *testing.T, path string) {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+path+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var res string
	if err := db.QueryRow("PRAGMA integrity_check").Scan(&res); err != nil || res != "ok" {
		t.Errorf("%s: integrity_check %q, %v", filepath.Base(path), res, err)
	}
}

// TestAKilledUpdateLeavesNothingHalfDoneUnderAFinalName: a process killed in
// the middle of a search index update — of a file no one reads (in place)
// or of a copy of one that is read — leaves no index of the new snapshot
// and only whole files under final names (the one that was read byte for
// byte as it was); the next open answers from the new bytes, and the
// leftover temporary file is removed once it has aged.
func TestAKilledUpdateLeavesNothingHalfDoneUnderAFinalName(t *testing.T) {
	for _, held := range []bool{false, true} {
		t.Run(fmt.Sprintf("held=%v", held), func(t *testing.T) {
			root := codeTree(t, 12, 300) // several batches
			dir := t.TempDir()
			opts := project.Options{DBPath: filepath.Join(dir, "kb.sqlite")}
			ctx := context.Background()
			p0, err := project.Open(ctx, root, opts)
			if err != nil {
				t.Fatal(err)
			}
			g1 := indexOfGeneration(t, dir, 1)
			sum := fileSum(t, g1)
			if held {
				defer p0.Close()
			} else {
				p0.Close()
			}
			for i := range 12 {
				writeCode(t, root, i, 300, 1)
			}
			killMidUpdate(t, root, opts.DBPath)
			finals := finalIndexes(t, dir)
			if slices.ContainsFunc(finals, func(n string) bool { return !strings.HasPrefix(n, "search-g1-") }) {
				t.Errorf("after the kill, final index files %v: one of the new snapshot", finals)
			}
			for _, n := range finals {
				wholeDatabase(t, filepath.Join(dir, n))
			}
			if held && (len(finals) != 1 || fileSum(t, g1) != sum) {
				t.Errorf("after the kill, the index that was read: %v, changed %v", finals, len(finals) == 1 && fileSum(t, g1) != sum)
			}
			if tmps := dirFiles(t, dir, isTemp); len(tmps) == 0 {
				t.Error("no temporary file after the kill: the update wrote under a final name")
			}
			p, err := project.Open(ctx, root, opts)
			if err != nil {
				t.Fatal(err)
			}
			if got := searchPaths(t, p, "F5_299"); !cmp.Equal(got, []string{"f005.go"}) {
				t.Errorf("F5_299 after the kill and an open: %v", got)
			}
			p.Close()
			old := time.Now().Add(-time.Hour)
			for _, n := range dirFiles(t, dir, isTemp) {
				os.Chtimes(filepath.Join(dir, n), old, old)
			}
			p, err = project.Open(ctx, root, opts)
			if err != nil {
				t.Fatal(err)
			}
			p.Close()
			if tmps := dirFiles(t, dir, isTemp); len(tmps) != 0 {
				t.Errorf("the killed update's temporary files outlived their grace: %v", tmps)
			}
		})
	}
}

// TestADamagedEarlierIndexIsNotUpdatedButRemoved: an earlier search index
// found damaged — short of its header's length, or refused by SQLite — is
// not updated (nor given its name back): the new snapshot's index is built
// whole, answers from the new bytes, and the damaged file is gone.
func TestADamagedEarlierIndexIsNotUpdatedButRemoved(t *testing.T) {
	for name, damage := range map[string]func(path string) error{
		"truncated":               func(path string) error { return os.Truncate(path, 4096*3) },
		"schema page overwritten": overwriteAt(100),
	} {
		t.Run(name, func(t *testing.T) {
			root := indexTree(t, 40)
			dir := t.TempDir()
			opts := project.Options{DBPath: filepath.Join(dir, "kb.sqlite")}
			p, err := project.Open(t.Context(), root, opts)
			if err != nil {
				t.Fatal(err)
			}
			p.Close()
			if err := damage(indexOfGeneration(t, dir, 1)); err != nil {
				t.Fatal(err)
			}
			renameFunc(t, root, "p/f007.go", "Func007", "Gunc007")
			p, err = project.Open(t.Context(), root, opts)
			if err != nil {
				t.Fatalf("open over a damaged earlier index: %v", err)
			}
			defer p.Close()
			if st := p.Stats(); st.DerivedFrom != 0 || st.Reused {
				t.Errorf("the new index: %+v, want built whole", st)
			}
			if got := searchPaths(t, p, "Gunc007"); !cmp.Equal(got, []string{"p/f007.go"}) {
				t.Errorf("Gunc007 hits %v", got)
			}
			if diff := cmp.Diff([]string{filepath.Base(indexOfGeneration(t, dir, 2))}, dirFiles(t, dir, isSearchIndex)); diff != "" {
				t.Errorf("search index files (-want +got):\n%s", diff)
			}
		})
	}
}

// renameFunc replaces every old with new in the file rel of root.
func renameFunc(t *testing.T, root, rel, old, new string) {
	t.Helper()
	path := filepath.Join(root, filepath.FromSlash(rel))
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(strings.ReplaceAll(string(b), old, new)), 0o644); err != nil {
		t.Fatal(err)
	}
}
