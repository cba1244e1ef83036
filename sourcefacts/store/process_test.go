package store

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/rlm-dev/rlm/sourcefacts"
)

// helperEnv makes the test binary an indexer process (see TestHelperProcess).
const helperEnv = "RLM_STORE_TEST_INDEXER"

var mixedNames = []string{"alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta", "iota", "kappa", "lambda", "mu"}

// versionedSource is file name's content at version v. Its facts name v, so
// a reader can tell which bytes a fact came from and recompute their hash.
func versionedSource(name string, v int) []byte {
	var b strings.Builder
	fmt.Fprintf(&b, "package mixed\n\n// F_%[1]s_%[2]d is version %[2]d of %[1]s.\nfunc F_%[1]s_%[2]d() int { return G_%[1]s() + %[2]d }\n\nfunc G_%[1]s() int { return %[2]d }\n", name, v)
	for i := range 40 {
		fmt.Fprintf(&b, "\nfunc H_%[1]s_%[2]d() { G_%[1]s(); F_%[1]s_%[3]d() }\n", name, i, v)
	}
	return []byte(b.String())
}

// atomicWrite writes like an editor that saves by rename.
func atomicWrite(path string, b []byte) error {
	tmp := filepath.Join(filepath.Dir(path), "."+filepath.Base(path)+".tmp"+strconv.Itoa(os.Getpid()))
	if err := os.WriteFile(tmp, b, 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}

// TestHelperProcess is not a test: run with helperEnv set it is an indexer
// process that edits files and takes (publishing) snapshots in a loop, for
// $helperEnv_FOR (0: no limit), until the file $helperEnv_STOP exists, or
// until killed. It reports progress on stdout: a line "published G" each
// time a snapshot it took published a new generation G.
func TestHelperProcess(t *testing.T) {
	root := os.Getenv(helperEnv)
	if root == "" {
		return
	}
	fail := func(err error) {
		fmt.Fprintln(os.Stderr, "indexer:", err)
		os.Exit(3)
	}
	dur, err := time.ParseDuration(os.Getenv(helperEnv + "_FOR"))
	if err != nil {
		fail(err)
	}
	seed, err := strconv.ParseUint(os.Getenv(helperEnv+"_SEED"), 10, 64)
	if err != nil {
		fail(err)
	}
	rng := rand.New(rand.NewPCG(seed, 7))
	ctx := context.Background()
	s, err := Open(ctx, root, nil)
	if err != nil {
		fail(err)
	}
	deadline := time.Now().Add(dur)
	var published int64
	stop := os.Getenv(helperEnv + "_STOP")
	stopped := func() bool {
		if stop == "" {
			return false
		}
		_, err := os.Stat(stop)
		return err == nil
	}
	for v := int(seed%1000)*100000 + 1; (dur == 0 || time.Now().Before(deadline)) && !stopped(); v++ {
		for _, name := range mixedNames {
			if rng.IntN(3) == 0 {
				if err := atomicWrite(filepath.Join(root, name+".go"), versionedSource(name, v)); err != nil {
					fail(err)
				}
			}
		}
		snap, err := s.Snapshot(ctx, All(), SnapshotOptions{})
		if errors.Is(err, ErrConcurrentChange) {
			continue
		}
		if err != nil {
			fail(err)
		}
		if g := snap.Identity().Generation; g > published {
			published = g
			fmt.Printf("%s %d\n", progressWord, g)
		}
		snap.Close()
	}
	if err := s.Close(); err != nil {
		fail(err)
	}
	os.Exit(0)
}

// progressWord starts the helper's progress lines.
const progressWord = "published"

// startIndexer starts TestHelperProcess as an indexer over root; its
// progress lines go to stdout (nil: discarded).
func startIndexer(t *testing.T, root string, dur time.Duration, stop string, seed int, stdout io.Writer) *exec.Cmd {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestHelperProcess$", "-test.count=1")
	cmd.Env = append(os.Environ(),
		helperEnv+"="+root,
		helperEnv+"_FOR="+dur.String(),
		helperEnv+"_STOP="+stop,
		helperEnv+"_SEED="+strconv.Itoa(seed))
	cmd.Stdout = stdout
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill() }) // a failing test must not leave it running
	return cmd
}

// checkCoherent proves a snapshot shows exactly one generation: its files
// fingerprint to its identity, every file's facts name the version whose
// bytes hash to the file's recorded hash, cross-file queries agree with
// per-file facts, and the view does not move while it is held.
func checkCoherent(t *testing.T, snap *Snapshot) {
	t.Helper()
	ctx := context.Background()
	id := snap.Identity()
	files, err := snap.Files(ctx)
	if err != nil {
		t.Fatal(err)
	}
	checkFingerprint(t, snap)
	for _, f := range files {
		if f.PublishedIn > id.Generation {
			t.Fatalf("%s published in generation %d, snapshot is %s", f.Path, f.PublishedIn, id)
		}
		res, err := snap.Facts(ctx, f.Path) // fails on rows of another file generation
		if err != nil {
			t.Fatal(err)
		}
		name := strings.TrimSuffix(f.Path, ".go")
		v := -1
		for _, y := range res.Facts.Symbols {
			if rest, ok := strings.CutPrefix(y.Name, "F_"+name+"_"); ok {
				n, err := strconv.Atoi(rest)
				if err != nil {
					t.Fatalf("%s: version symbol F_%s_%s: %v", f.Path, name, rest, err)
				}
				v = n
			}
		}
		if v < 0 {
			t.Fatalf("%s at %s: no version symbol in %d symbols", f.Path, id, len(res.Facts.Symbols))
		}
		if want := sourcefacts.HashBytes(versionedSource(name, v)); f.Hash != want {
			t.Fatalf("%s at %s: facts of version %d (hash %s) recorded with hash %s: mixed generation", f.Path, id, v, want, f.Hash)
		}
		callers, err := snap.Callers(ctx, "G_"+name)
		if err != nil {
			t.Fatal(err)
		}
		if len(callers) != 41 {
			t.Fatalf("%s at %s: %d callers of G_%s, want 41", f.Path, id, len(callers), name)
		}
		for _, c := range callers {
			if c.Provenance.Hash != f.Hash || c.Provenance.Generation != f.FileGeneration || c.Snapshot != id {
				t.Fatalf("caller in %s bound to %s/%d at %s; file is %s/%d at %s", f.Path, c.Provenance.Hash, c.Provenance.Generation, c.Snapshot, f.Hash, f.FileGeneration, id)
			}
		}
	}
	again, err := snap.Files(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(files, again); d != "" {
		t.Fatalf("snapshot %s moved while held (-first +later):\n%s", id, d)
	}
}

// mixedTree writes version 0 of every mixedNames file into a new tree and
// opens its store.
func mixedTree(t *testing.T) (string, *Store) {
	t.Helper()
	root := t.TempDir()
	for _, name := range mixedNames {
		writeFile(t, root, name+".go", versionedSource(name, 0))
	}
	return root, openStore(t, root, nil)
}

func TestTwoProcessesNeverObserveMixedGeneration(t *testing.T) {
	if runtime.GOOS == "js" || runtime.GOOS == "wasip1" {
		t.Skip("needs processes")
	}
	ctx := testCtx(t)
	root, s := mixedTree(t)
	snapshot(t, s, All(), SnapshotOptions{})

	// Phase 1: an indexer process edits and publishes for about 2 s (and
	// until this process has checked 10 snapshots, for slow machines and
	// -race) while this process takes snapshots, validating (and so
	// publishing too) half of the time.
	stop := filepath.Join(t.TempDir(), "stop")
	cmd := startIndexer(t, root, time.Minute, stop, 1, nil)
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	checked, conflicts := 0, 0
	var first, last Identity
	start := time.Now()
loop:
	for {
		select {
		case err := <-done:
			if err != nil {
				t.Fatalf("indexer: %v", err)
			}
			break loop
		default:
		}
		if checked >= 10 && time.Since(start) >= 2*time.Second {
			if err := os.WriteFile(stop, nil, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		snap, err := s.Snapshot(ctx, All(), SnapshotOptions{SkipValidation: checked%2 == 0})
		if errors.Is(err, ErrConcurrentChange) {
			conflicts++
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		checkCoherent(t, snap)
		if checked == 0 {
			first = snap.Identity()
		}
		last = snap.Identity()
		snap.Close()
		checked++
	}
	t.Logf("checked %d snapshots from generation %d to %d (%d gave up on a file changing under them)", checked, first.Generation, last.Generation, conflicts)
	if checked < 5 || last.Generation <= first.Generation {
		t.Fatalf("too little concurrency to prove anything: %d snapshots, generations %d..%d", checked, first.Generation, last.Generation)
	}

	// The surviving process carries on, and current evidence is granted.
	snap := snapshot(t, s, All(), SnapshotOptions{RequireCurrent: true})
	checkCoherent(t, snap)
	if err := s.Verify(ctx); err != nil {
		t.Fatal(err)
	}
}

// TestSIGKILLWhilePublishingLosesNoPublishedGeneration kills an indexer
// process with SIGKILL at a random moment after it has reported publishing,
// four times, while this process holds the same database open. Each victim
// must have died of that signal (not exited on its own); after each kill
// the database opens, passes Verify and serves a coherent snapshot whose
// generation is at least the last one the victim reported (nothing
// published is lost) and above the one before the round (every round
// published); and this process carries on with current evidence.
func TestSIGKILLWhilePublishingLosesNoPublishedGeneration(t *testing.T) {
	if !canSIGKILL {
		t.Skip("needs processes and SIGKILL")
	}
	ctx := testCtx(t)
	root, s := mixedTree(t)
	prev := snapshot(t, s, All(), SnapshotOptions{}).Identity().Generation

	rng := rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), 1))
	for i := range 4 {
		r, w, err := os.Pipe()
		if err != nil {
			t.Fatal(err)
		}
		cmd := startIndexer(t, root, 0, "", 100+i, w)
		w.Close() // the child holds the write end; EOF when it dies
		reports := make(chan int64)
		go readProgress(r, reports)

		var reported int64
		select {
		case g, ok := <-reports:
			if !ok {
				cmd.Wait()
				t.Fatalf("round %d: the indexer ended (%v) before publishing anything", i, cmd.ProcessState)
			}
			reported = g
		case <-time.After(time.Minute):
			t.Fatalf("round %d: the indexer published nothing in a minute", i)
		}
		time.Sleep(time.Duration(rng.IntN(300)) * time.Millisecond)
		if err := cmd.Process.Signal(os.Kill); err != nil {
			t.Fatalf("round %d: the indexer was gone before the kill: %v", i, err)
		}
		for g := range reports { // until EOF: everything it reported
			reported = g
		}
		r.Close()
		werr := cmd.Wait()
		if !diedOfSIGKILL(cmd.ProcessState) {
			t.Fatalf("round %d: the indexer ended with %v (%v), not by SIGKILL while publishing", i, cmd.ProcessState, werr)
		}

		s2, err := Open(ctx, root, nil)
		if err != nil {
			t.Fatalf("open after kill %d: %v", i, err)
		}
		if err := s2.Verify(ctx); err != nil {
			t.Fatalf("after kill %d: %v", i, err)
		}
		snap, err := s2.Snapshot(ctx, All(), SnapshotOptions{SkipValidation: true})
		if err != nil {
			t.Fatal(err)
		}
		checkCoherent(t, snap)
		g := snap.Identity().Generation
		t.Logf("kill %d: victim reported generation %d; generation %d intact (was %d)", i, reported, g, prev)
		if g < reported {
			t.Fatalf("kill %d: generation %d visible, but the victim had published %d", i, g, reported)
		}
		if g <= prev {
			t.Fatalf("kill %d: generation %d, not past %d: the round published nothing", i, g, prev)
		}
		prev = g
		snap.Close()
		s2.Close()
	}
	// The surviving process carries on, and current evidence is granted.
	snap := snapshot(t, s, All(), SnapshotOptions{RequireCurrent: true})
	checkCoherent(t, snap)
	if err := s.Verify(ctx); err != nil {
		t.Fatal(err)
	}
}

// readProgress sends each generation the helper reports on r, and closes
// reports at EOF.
func readProgress(r io.Reader, reports chan<- int64) {
	defer close(reports)
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		rest, ok := strings.CutPrefix(sc.Text(), progressWord+" ")
		if !ok {
			continue
		}
		if g, err := strconv.ParseInt(rest, 10, 64); err == nil {
			reports <- g
		}
	}
}
