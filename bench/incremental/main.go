// Command incremental benchmarks the search index across edits of a tree
// and prints a markdown table, every figure from one run:
//
//   - cold: the first open of the tree (an empty knowledge base): snapshot
//     check, search index built whole;
//   - one file edited (a function appended to a file), then the next
//     Search in a fresh project (what `rlm search` does: the earlier index
//     is free, so it is updated in place), and in a long-lived project
//     (the first update after the build copies the index that project
//     reads; later ones update the index two generations back in place):
//     the whole Search, the snapshot check, and the search index update
//     reported apart; -runs edits each, median; and the same on the
//     project layer with TrustStat (unchanged files vouched for by their
//     stat, not read), Refresh then an exact search;
//   - one file edited so that other files' calls resolve differently (a
//     function they call renamed), then Search in a fresh project;
//   - -files files edited at once (a branch switch), then Search;
//   - the baseline: the same snapshot's search index built whole again;
//   - the knowledge base and the search index on disk, against the source
//     bytes.
//
// The tree is edited: give it a copy (bench/incremental.sh copies
// $(go env GOROOT)/src). It refuses a tree inside a toolchain installation.
//
//	go run ./bench/incremental -root /tmp/gosrc -embedder none -runs 5 -files 50
package main

import (
	"context"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/rlm-dev/rlm"
	"github.com/rlm-dev/rlm/project"
	"github.com/rlm-dev/rlm/retrieval"
	"github.com/rlm-dev/rlm/sourcefacts/store"
)

func main() {
	root := flag.String("root", "", "tree to edit (a copy: it is changed)")
	embedder := flag.String("embedder", "none", "none or local")
	runs := flag.Int("runs", 5, "one-file edits per measurement")
	nfiles := flag.Int("files", 50, "files edited at once")
	flag.Parse()
	if err := run(*root, *embedder, *runs, *nfiles); err != nil {
		fmt.Fprintln(os.Stderr, "incremental:", err)
		os.Exit(1)
	}
}

type bench struct {
	root string
	opts rlm.Options
	seq  int
	// targets are Go files of the tree (not tests, not testdata) that the
	// edits append to, in a fixed order.
	targets []string
}

func run(root, embedder string, runs, nfiles int) error {
	if root == "" {
		return fmt.Errorf("-root is required")
	}
	abs, err := filepath.Abs(root)
	if err != nil {
		return err
	}
	if project.InToolchain(abs) {
		return fmt.Errorf("%s is inside a toolchain installation: give a copy", abs)
	}
	work, err := os.MkdirTemp("", "rlm-incremental-*")
	if err != nil {
		return err
	}
	defer os.RemoveAll(work)
	b := &bench{root: abs, opts: rlm.Options{DBPath: filepath.Join(work, "kb.sqlite")}}
	switch embedder {
	case "none":
	case "local":
		if b.opts.Embedder, err = rlm.LocalEmbedder(); err != nil {
			return err
		}
	default:
		return fmt.Errorf("-embedder %q: want none or local", embedder)
	}
	if b.targets, err = goFiles(abs, max(runs*3, nfiles)); err != nil {
		return err
	}
	ctx := context.Background()

	t0 := time.Now()
	p, err := rlm.Open(ctx, abs, b.opts)
	if err != nil {
		return err
	}
	cold := time.Since(t0)
	st := p.Stats()
	p.Close()
	kb0, ix0 := b.sizes(work)
	fmt.Printf("tree %s: %d files, %.1f MB of source, %d definitions; embedder %s\n\n", abs, st.Files, mb(st.Bytes), st.Symbols, embedder)
	fmt.Println("| step | whole (ms) | snapshot check (ms) | search index (ms) | files resolved | files written | how |")
	fmt.Println("|---|---|---|---|---|---|---|")
	row := func(step string, whole time.Duration, st project.Stats) {
		how := "built whole"
		switch {
		case st.Reused:
			how = "reused"
		case st.DerivedFrom != 0:
			how = fmt.Sprintf("updated from g%d", st.DerivedFrom)
		}
		fmt.Printf("| %s | %.0f | %.0f | %.0f | %d | %d | %s |\n", step, ms(whole), ms(st.Check), ms(st.Build), st.IndexResolved, st.IndexFiles, how)
	}
	row("cold open (empty knowledge base)", cold, st)

	// One file edited, then Search in a fresh project each time.
	var whole, check, build []time.Duration
	var last project.Stats
	for range runs {
		probe := b.edit(1)
		t := time.Now()
		p, err := rlm.Open(ctx, abs, b.opts)
		if err != nil {
			return err
		}
		if err := b.mustFind(ctx, p, probe); err != nil {
			p.Close()
			return err
		}
		whole = append(whole, time.Since(t))
		last = p.Stats()
		check, build = append(check, last.Check), append(build, last.Build)
		p.Close()
	}
	last.Check, last.Build = median(check), median(build)
	row(fmt.Sprintf("1 file edited → Search, fresh project (median of %d)", runs), median(whole), last)

	// One file edited, then Search in one long-lived project.
	lp, err := rlm.Open(ctx, abs, b.opts)
	if err != nil {
		return err
	}
	whole, check, build = nil, nil, nil
	for i := range runs + 1 {
		probe := b.edit(1)
		t := time.Now()
		if err := b.mustFind(ctx, lp, probe); err != nil {
			lp.Close()
			return err
		}
		d, st := time.Since(t), lp.Stats()
		if i == 0 {
			row("1 file edited → Search, long-lived project, first update (copies the index it reads)", d, st)
			continue
		}
		last = st
		whole, check, build = append(whole, d), append(check, st.Check), append(build, st.Build)
	}
	last.Check, last.Build = median(check), median(build)
	row(fmt.Sprintf("1 file edited → Search, long-lived project, later updates (median of %d)", runs), median(whole), last)
	lp.Close()

	// One file edited, then Refresh and an exact search on the project
	// layer with TrustStat: unchanged files are not read again (their
	// size, mtime and inode vouch for them), so the check no longer
	// hashes the whole tree.
	pp, err := project.Open(ctx, abs, project.Options{DBPath: b.opts.DBPath, Embedder: b.opts.Embedder, TrustStat: true})
	if err != nil {
		return err
	}
	whole, check, build = nil, nil, nil
	for range runs {
		time.Sleep(1100 * time.Millisecond) // past the racy second of the last edit: its stat is trusted
		probe := b.edit(1)
		t := time.Now()
		if _, err := pp.Refresh(ctx); err != nil {
			pp.Close()
			return err
		}
		if err := findExact(ctx, pp, probe); err != nil {
			pp.Close()
			return err
		}
		st := pp.Stats()
		last = st
		whole, check, build = append(whole, time.Since(t)), append(check, st.Check), append(build, st.Build)
	}
	last.Check, last.Build = median(check), median(build)
	row(fmt.Sprintf("1 file edited → Refresh + exact search, long-lived project with TrustStat (median of %d)", runs), median(whole), last)
	pp.Close()

	// One file edited so that other files' calls resolve differently: a
	// function they call renamed (their calls no longer resolve), then
	// Search in a fresh project.
	if file, name, callers, err := calledFunction(abs, b.targets); err != nil {
		return err
	} else {
		renamed := name + "RenamedByBench"
		replaceIn(file, "func "+name+"(", "func "+renamed+"(")
		t := time.Now()
		p, err := rlm.Open(ctx, abs, b.opts)
		if err != nil {
			return err
		}
		if err := b.mustFind(ctx, p, renamed); err != nil {
			p.Close()
			return err
		}
		row(fmt.Sprintf("1 file edited: func %s renamed (%d files call a .%s( by their text) → Search, fresh project", name, callers, name), time.Since(t), p.Stats())
		p.Close()
	}

	// Many files edited at once.
	probe := b.edit(nfiles)
	t := time.Now()
	p, err = rlm.Open(ctx, abs, b.opts)
	if err != nil {
		return err
	}
	if err := b.mustFind(ctx, p, probe); err != nil {
		p.Close()
		return err
	}
	row(fmt.Sprintf("%d files edited → Search, fresh project", nfiles), time.Since(t), p.Stats())
	p.Close()

	// The baseline: the same snapshot's index built whole.
	if err := removeIndexes(work); err != nil {
		return err
	}
	t = time.Now()
	p, err = rlm.Open(ctx, abs, b.opts)
	if err != nil {
		return err
	}
	row("baseline: the same snapshot's search index built whole", time.Since(t), p.Stats())
	p.Close()

	kb1, ix1 := b.sizes(work)
	fmt.Println()
	fmt.Println("| on disk | MB | × source |")
	fmt.Println("|---|---|---|")
	for _, r := range []struct {
		what string
		n    int64
	}{
		{"knowledge base (after the cold open)", kb0}, {"search index (after the cold open)", ix0},
		{"knowledge base (at the end)", kb1}, {"search index (at the end)", ix1},
		{"knowledge base + search index (at the end)", kb1 + ix1},
	} {
		fmt.Printf("| %s | %.1f | %.2f |\n", r.what, mb(r.n), float64(r.n)/float64(st.Bytes))
	}
	return nil
}

// edit appends a new function to each of the next n target files and
// returns the name of the last one.
func (b *bench) edit(n int) string {
	var name string
	for range n {
		path := b.targets[b.seq%len(b.targets)]
		b.seq++
		name = fmt.Sprintf("IncrementalBenchProbe%d", b.seq)
		f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
		if err != nil {
			panic(err)
		}
		fmt.Fprintf(f, "\n// %s is appended by bench/incremental.\nfunc %s() int { return %d }\n", name, name, b.seq)
		f.Close()
	}
	return name
}

// mustFind searches for the function name and fails unless the answer has
// it: the answer is current.
func (b *bench) mustFind(ctx context.Context, p *rlm.Project, name string) error {
	ans, err := p.Search(ctx, name, 10)
	if err != nil {
		return err
	}
	for _, h := range ans.Hits {
		if h.Symbol == name {
			return nil
		}
	}
	return fmt.Errorf("the answer to %s does not have it: not current", name)
}

// findExact fails unless an exact search of the project finds name.
func findExact(ctx context.Context, p *project.Project, name string) error {
	return p.View(func(b retrieval.Backend, _ store.Identity) error {
		hits, err := b.Search(ctx, retrieval.Request{Strategy: retrieval.Exact, Name: name})
		if err != nil {
			return err
		}
		if len(hits) == 0 {
			return fmt.Errorf("no exact hit for %s: not current", name)
		}
		return nil
	})
}

// sizes are the knowledge base's bytes and the largest search index
// file's (the current one) in dir.
func (b *bench) sizes(dir string) (kb, ix int64) {
	if fi, err := os.Stat(filepath.Join(dir, "kb.sqlite")); err == nil {
		kb = fi.Size()
	}
	idx, _ := filepath.Glob(filepath.Join(dir, "search-g*.sqlite"))
	for _, p := range idx {
		if fi, err := os.Stat(p); err == nil && !strings.Contains(p, ".tmp") {
			ix = max(ix, fi.Size())
		}
	}
	return kb, ix
}

func removeIndexes(dir string) error {
	idx, _ := filepath.Glob(filepath.Join(dir, "search-g*"))
	for _, p := range idx {
		if err := os.Remove(p); err != nil {
			return err
		}
	}
	return nil
}

// calledFunction finds, in the first of files that has one, an exported
// top-level function whose name 3 to 50 Go files of root call qualified
// (".Name(", by their text: what resolves to it is for the index to say),
// and returns the file, the name and how many files have such a call.
func calledFunction(root string, files []string) (string, string, int, error) {
	var srcs []string
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() && strings.HasSuffix(path, ".go") {
			b, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			srcs = append(srcs, string(b))
		}
		return nil
	})
	if err != nil {
		return "", "", 0, err
	}
	def := regexp.MustCompile(`(?m)^func ([A-Z][A-Za-z0-9_]*)\(`)
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			return "", "", 0, err
		}
		for _, m := range def.FindAllStringSubmatch(string(b), -1) {
			n := 0
			for _, src := range srcs {
				if strings.Contains(src, "."+m[1]+"(") {
					n++
				}
			}
			if n >= 3 && n <= 50 {
				return f, m[1], n, nil
			}
		}
	}
	return "", "", 0, fmt.Errorf("no function of %d files is called by 3 to 50 others", len(files))
}

// replaceIn replaces the first old in the file at path with new.
func replaceIn(path, old, new string) {
	b, err := os.ReadFile(path)
	if err != nil {
		panic(err)
	}
	if err := os.WriteFile(path, []byte(strings.Replace(string(b), old, new, 1)), 0o644); err != nil {
		panic(err)
	}
}

// goFiles returns n Go files of root in a fixed order, spread over the
// tree: not tests, not under testdata or vendor.
func goFiles(root string, n int) ([]string, error) {
	var all []string
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "testdata" || d.Name() == "vendor" || strings.HasPrefix(d.Name(), ".") && path != root) {
			return filepath.SkipDir
		}
		if !d.IsDir() && strings.HasSuffix(path, ".go") && !strings.HasSuffix(path, "_test.go") {
			all = append(all, path)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	slices.Sort(all)
	if len(all) < n {
		return nil, fmt.Errorf("%s has %d Go files, want %d", root, len(all), n)
	}
	out := make([]string, n)
	for i := range out {
		out[i] = all[i*len(all)/n]
	}
	return out, nil
}

func median(ds []time.Duration) time.Duration {
	s := slices.Clone(ds)
	slices.Sort(s)
	if len(s) == 0 {
		return 0
	}
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
func mb(n int64) float64         { return float64(n) / 1e6 }
