package soak_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/rlm-dev/rlm"
	"github.com/rlm-dev/rlm/sourcefacts/store"
)

// processEnv makes the test binary a soak process (see TestSoakProcess):
// its value is the tree's root; processEnv_DB is the knowledge base,
// processEnv_STOP the file whose existence stops it, processEnv_SEED its
// random seed; processEnv_EMBED=1 gives it the local embedder (hybrid
// search, a search index of its own beside the lexical one).
const processEnv = "RLM_SOAK_PROCESS"

// queries are asked after every round, of the shared knowledge base and
// of a fresh index; the soak processes ask them too.
var queries = []string{
	"where is Server defined?",
	"Widget",
	"Helper",
	"who calls Helper",
	"renders version",
	"server handler",
	"Fetch",
	"churn tree shared",
}

// soakLength is how long the soak runs: $RLM_SOAK, else 2 minutes (20
// seconds with -short).
func soakLength(t *testing.T) time.Duration {
	if s := os.Getenv("RLM_SOAK"); s != "" {
		d, err := time.ParseDuration(s)
		if err != nil || d <= 0 {
			t.Fatalf("RLM_SOAK=%q: want a positive Go duration such as 10m", s)
		}
		return d
	}
	if testing.Short() {
		return 20 * time.Second
	}
	return 2 * time.Minute
}

// expected reports whether err is one a command may return while the
// tree changes under it, by documentation: a file kept changing between
// extraction and publish (store.ErrConcurrentChange, *store.StaleError).
func expected(err error) bool {
	return errors.Is(err, store.ErrConcurrentChange)
}

// TestSoakProcess is not a test: run with processEnv set it is a soak
// process that opens the shared knowledge base through the façade and
// interleaves index (Refresh), search and status in a loop until the stop
// file exists. Any error but an expected one exits 3 with the error on
// stderr; at the end it prints "ops N expected M" on stdout.
func TestSoakProcess(t *testing.T) {
	root := os.Getenv(processEnv)
	if root == "" {
		return
	}
	db, stop := os.Getenv(processEnv+"_DB"), os.Getenv(processEnv+"_STOP")
	seed, err := strconv.ParseUint(os.Getenv(processEnv+"_SEED"), 10, 64)
	if err != nil || db == "" || stop == "" {
		fmt.Fprintln(os.Stderr, "soak process: bad environment:", err)
		os.Exit(2)
	}
	rng := rand.New(rand.NewPCG(seed, 11))
	ctx := context.Background()
	opts := rlm.Options{DBPath: db}
	if os.Getenv(processEnv+"_EMBED") == "1" {
		if opts.Embedder, err = rlm.LocalEmbedder(); err != nil {
			fmt.Fprintln(os.Stderr, "soak process:", err)
			os.Exit(2)
		}
	}
	ops, exp := 0, 0
	check := func(op string, err error) bool {
		ops++
		if err == nil {
			return true
		}
		if expected(err) {
			exp++
			return false
		}
		fmt.Fprintf(os.Stderr, "soak process %d: %s: %v\n", seed, op, err)
		os.Exit(3)
		return false
	}
	for {
		if _, err := os.Stat(stop); err == nil {
			break
		}
		if rng.IntN(4) == 0 {
			_, err := rlm.ReadStatus(ctx, root, opts)
			check("status without a project", err)
			continue
		}
		p, err := rlm.Open(ctx, root, opts)
		if !check("open", err) {
			continue
		}
		for range 1 + rng.IntN(4) {
			switch rng.IntN(3) {
			case 0:
				_, err := p.Refresh(ctx)
				check("index", err)
			case 1:
				q := queries[rng.IntN(len(queries))]
				_, err := p.Search(ctx, q, 10)
				check("search "+q, err)
			case 2:
				_, err := p.Status(ctx)
				check("status", err)
			}
		}
		check("close", p.Close())
	}
	fmt.Printf("ops %d expected %d\n", ops, exp)
	os.Exit(0)
}

// soakProcess is a running TestSoakProcess: its output, and its exit
// status once Wait returned (on done).
type soakProcess struct {
	cmd            *exec.Cmd
	stdout, stderr bytes.Buffer
	done           chan struct{}
	err            error
}

func startProcess(t *testing.T, root, db, stop string, seed int, embed bool) *soakProcess {
	t.Helper()
	sp := &soakProcess{done: make(chan struct{})}
	sp.cmd = exec.Command(os.Args[0], "-test.run=^TestSoakProcess$", "-test.count=1")
	sp.cmd.Env = append(os.Environ(), processEnv+"="+root, processEnv+"_DB="+db,
		processEnv+"_STOP="+stop, processEnv+"_SEED="+strconv.Itoa(seed), processEnv+"_EMBED="+map[bool]string{true: "1"}[embed])
	sp.cmd.Stdout, sp.cmd.Stderr = &sp.stdout, &sp.stderr
	if err := sp.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { sp.err = sp.cmd.Wait(); close(sp.done) }()
	t.Cleanup(func() { sp.cmd.Process.Kill(); <-sp.done }) // a failing test must not leave it running
	return sp
}

// exited fails the test if the process ended before it was told to.
func (sp *soakProcess) exited(t *testing.T, round int) {
	t.Helper()
	select {
	case <-sp.done:
		t.Fatalf("round %d: soak process %d ended early (%v): %s", round, sp.cmd.Process.Pid, sp.err, sp.stderr.String())
	default:
	}
}

// source is file id's Go source at version v: v lines of comment first
// (every definition moves), a definition named after v, and one shared by
// every version that the first calls.
func source(id string, v int) []byte {
	var b strings.Builder
	fmt.Fprintf(&b, "package churn\n%s\n", strings.Repeat("// churn tree shared\n", v%7))
	fmt.Fprintf(&b, "// Widget%[1]s_%[2]d renders version %[2]d of %[1]s.\nfunc Widget%[1]s_%[2]d() int { return Helper%[1]s() + %[2]d }\n\n", id, v)
	fmt.Fprintf(&b, "// Helper%[1]s is shared by every version of %[1]s.\nfunc Helper%[1]s() int { return %[2]d }\n", id, v)
	return []byte(b.String())
}

// writer edits the tree and churns its directories: it creates, removes
// and renames subdirectories with source files, and rewrites files in
// place or by rename.
type writer struct {
	root  string
	rng   *rand.Rand
	dirs  []string // subdirectories it made, relative to root
	next  int      // the next directory's number
	v     int      // the next version
	files int      // files written
}

func (w *writer) write(path string) error {
	w.v++
	w.files++
	id := strings.NewReplacer("/", "", ".go", "", "d", "D").Replace(path)
	b := source(id, w.v)
	full := filepath.Join(w.root, filepath.FromSlash(path))
	if w.rng.IntN(2) == 0 {
		return os.WriteFile(full, b, 0o644)
	}
	tmp := full + ".tmp~"
	if err := os.WriteFile(tmp, b, 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, full)
}

// step makes one change.
func (w *writer) step() error {
	switch op := w.rng.IntN(10); {
	case op < 2 || len(w.dirs) == 0: // a new directory with files
		w.next++
		dir := fmt.Sprintf("d%d", w.next)
		if len(w.dirs) > 0 && w.rng.IntN(3) == 0 { // nested in another
			dir = w.dirs[w.rng.IntN(len(w.dirs))] + "/" + dir
		}
		if err := os.MkdirAll(filepath.Join(w.root, dir), 0o755); err != nil {
			return err
		}
		w.dirs = append(w.dirs, dir)
		for i := range 1 + w.rng.IntN(3) {
			if err := w.write(fmt.Sprintf("%s/f%d.go", dir, i)); err != nil {
				return err
			}
		}
	case op < 3: // a directory removed, with what is under it
		dir := w.dirs[w.rng.IntN(len(w.dirs))]
		w.forget(dir)
		return os.RemoveAll(filepath.Join(w.root, dir))
	case op < 4: // a directory renamed
		dir := w.dirs[w.rng.IntN(len(w.dirs))]
		w.next++
		to := filepath.ToSlash(filepath.Join(filepath.Dir(dir), fmt.Sprintf("d%d", w.next)))
		if err := os.Rename(filepath.Join(w.root, dir), filepath.Join(w.root, to)); err != nil {
			return err
		}
		w.forget(dir)
		return w.rescan()
	default: // a file edited or added
		dir := w.dirs[w.rng.IntN(len(w.dirs))]
		return w.write(fmt.Sprintf("%s/f%d.go", dir, w.rng.IntN(4)))
	}
	return nil
}

// forget drops dir and the directories under it.
func (w *writer) forget(dir string) {
	kept := w.dirs[:0]
	for _, d := range w.dirs {
		if d != dir && !strings.HasPrefix(d, dir+"/") {
			kept = append(kept, d)
		}
	}
	w.dirs = kept
}

// rescan relearns the subdirectories from the tree (after a rename moved
// some).
func (w *writer) rescan() error {
	w.dirs = w.dirs[:0]
	return filepath.WalkDir(w.root, func(path string, d os.DirEntry, err error) error {
		if err != nil || !d.IsDir() || path == w.root {
			return err
		}
		rel, err := filepath.Rel(w.root, path)
		if strings.HasPrefix(d.Name(), "d") {
			w.dirs = append(w.dirs, filepath.ToSlash(rel))
		}
		return err
	})
}

// hitKeys are an answer's hits as path:line:symbol, in rank order.
func hitKeys(a *rlm.Answer) []string {
	var out []string
	for _, h := range a.Hits {
		out = append(out, fmt.Sprintf("%s:%d:%s", h.Path, h.StartLine, h.Symbol))
	}
	return out
}

// answers asks every query of a project opened with opts.
func answers(ctx context.Context, root string, opts rlm.Options) (map[string][]string, int, error) {
	p, err := rlm.Open(ctx, root, opts)
	if err != nil {
		return nil, 0, err
	}
	defer p.Close()
	out := map[string][]string{}
	for _, q := range queries {
		a, err := p.Search(ctx, q, 10)
		if err != nil {
			return nil, 0, fmt.Errorf("search %q: %w", q, err)
		}
		out[q] = hitKeys(a)
	}
	return out, p.Stats().Files, nil
}

// TestSharedKnowledgeBaseAnswersAsAFreshIndexAfterEveryRound: several OS
// processes interleave index, search and status through the façade on one
// persistent knowledge base while a writer edits files and creates,
// removes and renames directories; some processes (and every other
// round's check) use the local embedder, so lexical and hybrid search
// indexes of one knowledge base are built side by side. After every round the writer stops,
// and a project opened on the shared knowledge base must give, for every
// query, the hits (path, line, symbol, in order) a fresh in-memory index
// of the same bytes gives. A process error other than an expected one
// (a file that kept changing) fails the test.
func TestSharedKnowledgeBaseAnswersAsAFreshIndexAfterEveryRound(t *testing.T) {
	length := soakLength(t)
	start := time.Now()
	root := t.TempDir()
	src, err := os.ReadFile(filepath.Join("..", "..", "testdata", "gosample", "server.go"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "server.go"), src, 0o644); err != nil {
		t.Fatal(err)
	}
	seed := uint64(start.UnixNano())
	if s := os.Getenv("RLM_SOAK_SEED"); s != "" {
		if seed, err = strconv.ParseUint(s, 10, 64); err != nil {
			t.Fatalf("RLM_SOAK_SEED=%q: %v", s, err)
		}
	}
	t.Logf("writer seed %d (RLM_SOAK_SEED=%d repeats its choices)", seed, seed)
	w := &writer{root: root, rng: rand.New(rand.NewPCG(seed, 3))}
	for range 4 {
		if err := w.step(); err != nil {
			t.Fatal(err)
		}
	}
	ctx := context.Background()
	emb, err := rlm.LocalEmbedder()
	if err != nil {
		t.Fatal(err)
	}
	kb := t.TempDir()
	db, stop := filepath.Join(kb, "kb.sqlite"), filepath.Join(kb, "stop")
	if _, _, err := answers(ctx, root, rlm.Options{DBPath: db}); err != nil {
		t.Fatal(err)
	}
	var procs []*soakProcess
	for i := range 3 {
		procs = append(procs, startProcess(t, root, db, stop, int(start.UnixNano()%1000)*10+i, i%2 == 0))
	}
	rounds, compared := 0, 0
	for ; time.Since(start) < length; rounds++ {
		var wg sync.WaitGroup
		var werr error
		quiet := make(chan struct{})
		wg.Go(func() {
			for {
				select {
				case <-quiet:
					return
				default:
				}
				if werr = w.step(); werr != nil {
					return
				}
				time.Sleep(time.Duration(w.rng.IntN(40)) * time.Millisecond)
			}
		})
		time.Sleep(time.Duration(1000+w.rng.IntN(2000)) * time.Millisecond)
		close(quiet)
		wg.Wait()
		if werr != nil {
			t.Fatalf("round %d: writer: %v", rounds, werr)
		}
		// Odd rounds compare hybrid answers (the embedder's search
		// index), even ones lexical answers.
		var withEmb rlm.Embedder
		if rounds%2 == 1 {
			withEmb = emb
		}
		shared, files, err := answers(ctx, root, rlm.Options{DBPath: db, Embedder: withEmb})
		if err != nil {
			t.Fatalf("round %d: the shared knowledge base: %v", rounds, err)
		}
		fresh, freshFiles, err := answers(ctx, root, rlm.Options{InMemory: true, Embedder: withEmb})
		if err != nil {
			t.Fatalf("round %d: a fresh index: %v", rounds, err)
		}
		if files != freshFiles {
			t.Errorf("round %d: the shared snapshot has %d files, the tree %d", rounds, files, freshFiles)
		}
		if d := cmp.Diff(fresh, shared); d != "" {
			t.Fatalf("round %d: the shared knowledge base answers otherwise than a fresh index (-fresh +shared):\n%s", rounds, d)
		}
		for _, hits := range fresh {
			compared += len(hits)
		}
		for _, sp := range procs {
			sp.exited(t, rounds)
		}
	}
	if err := os.WriteFile(stop, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, sp := range procs {
		select {
		case <-sp.done:
		case <-time.After(time.Minute):
			t.Fatalf("soak process %d did not stop", sp.cmd.Process.Pid)
		}
		if sp.err != nil {
			t.Errorf("soak process %d: %v: %s", sp.cmd.Process.Pid, sp.err, sp.stderr.String())
		}
		t.Logf("soak process %d: %s", sp.cmd.Process.Pid, strings.TrimSpace(sp.stdout.String()))
	}
	if rounds == 0 || compared == 0 {
		t.Fatalf("%d rounds compared %d hits: the soak proved nothing", rounds, compared)
	}
	t.Logf("%d rounds in %s, %d hits compared, %d files written", rounds, time.Since(start).Round(time.Second), compared, w.files)
}
