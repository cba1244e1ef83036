// Command plan measures rule-only plan latency: plan_features/2 over the
// features of each query in bench/queries.txt, in rlm's embedded engine
// (ichiban/prolog) and, with -swi, in SWI-Prolog running the same rule
// files on the same features. Rows:
//
//   - rlm Plan: Planner.Plan, features computed in Go, plan_features/3,
//     the plan decoded and checked (the untabled path);
//   - rlm rules only: plan_features/2 on prebuilt features, the solution
//     decoded to Go values;
//   - rlm tabled: Planner.PlanTabled on one snapshot after the query was
//     planned once (the façade's path for a question asked again: the
//     features against the snapshot's lexicon, then the table), with the
//     backend look-ups the timed calls made;
//   - swi untabled and swi tabled (SWI's own `:- table` of the same call,
//     the fair counterpart of rlm's table), see bench/plan/swi.pl.
//
// It prints p50/p99 per class and overall, and the ratios. With -swi it
// also checks that SWI planned every query as rlm did (class, strategies
// and rule IDs).
//
//	go run ./bench/plan -n 2000 -swi
package main

import (
	"bufio"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"runtime/pprof"
	"sort"
	"strings"
	"time"

	"github.com/rlm-dev/rlm/bridge"
	"github.com/rlm-dev/rlm/engine"
	"github.com/rlm-dev/rlm/planner"
)

type query struct {
	class string
	text  string
}

// timings are per-call durations by query class and over all queries.
type timings struct {
	byClass map[string][]time.Duration
	all     []time.Duration
}

func newTimings() *timings { return &timings{byClass: map[string][]time.Duration{}} }

func (t *timings) add(class string, d time.Duration) {
	t.byClass[class] = append(t.byClass[class], d)
	t.all = append(t.all, d)
}

func main() {
	n := flag.Int("n", 2000, "iterations per query")
	queries := flag.String("queries", "bench/queries.txt", "class<TAB>query file")
	swi := flag.Bool("swi", false, "also run the same rules in SWI-Prolog (swipl on PATH)")
	cpuprofile := flag.String("cpuprofile", "", "write a CPU profile of the rules-only calls to this file")
	flag.Parse()
	qs, err := readQueries(*queries)
	if err != nil {
		fail(err)
	}
	x, err := planner.New(planner.Options{})
	if err != nil {
		fail(err)
	}
	ctx := context.Background()

	// Untabled: Planner.Plan.
	planT := newTimings()
	sigs := make([]string, len(qs))
	mismatch := 0
	for i, q := range qs {
		p, err := x.Plan(ctx, q.text)
		if err != nil {
			fail(err)
		}
		sigs[i] = planSignature(p)
		if p.Class != q.class {
			mismatch++
			fmt.Fprintf(os.Stderr, "note: %q classified %s, file says %s\n", q.text, p.Class, q.class)
		}
		for range *n / 10 { // warm up
			_, _ = x.Plan(ctx, q.text)
		}
		for range *n {
			t := time.Now()
			if _, err := x.Plan(ctx, q.text); err != nil {
				fail(err)
			}
			planT.add(q.class, time.Since(t))
		}
	}
	fmt.Printf("rlm Planner.Plan (ichiban/prolog v1.2.2): features computed in Go, plan_features/3, plan decoded; %d queries x %d iterations\n", len(qs), *n)
	printStats("rlm", planT)

	// Rules only: the same features term, plan_features/2 and decoding.
	rules := rulesOnly(ctx, x.Engine(), qs, *n, *cpuprofile)
	fmt.Printf("\nrlm rules only: plan_features/2 on prebuilt features, result decoded to Go\n")
	printStats("rlm", rules)

	// Tabled: PlanTabled on one snapshot, the query planned once before.
	tabled, lookups := tabledRows(ctx, x, qs, *n, sigs)
	fmt.Printf("\nrlm tabled: Planner.PlanTabled, the same query again on the same snapshot (features against the snapshot's lexicon, then the table); %d backend look-ups in %d timed calls\n", lookups, len(tabled.all))
	printStats("rlm", tabled)
	if mismatch > 0 {
		fmt.Printf("(%d queries classified differently from the file's label)\n", mismatch)
	}
	if !*swi {
		return
	}
	res, err := runSWI(qs, *n)
	if err != nil {
		fail(err)
	}
	differ := 0
	for i, s := range sigs {
		if res.plans[i] != s {
			differ++
			fmt.Fprintf(os.Stderr, "plan of %q differs: rlm %s, swi %s\n", qs[i].text, s, res.plans[i])
		}
	}
	fmt.Printf("\nSWI-Prolog %s, the same rule files (rules/concepts/*.pl, rules/retrieval/*.pl) and the same feature terms; plans equal to rlm's for %d of %d queries\n",
		swiVersion(), len(qs)-differ, len(qs))
	fmt.Println("untabled (plan_features/2):")
	printStats("swi", res.byMode["untabled"])
	fmt.Println("tabled (`:- table` of the same call, after the first):")
	printStats("swi", res.byMode["tabled"])
	su, st := res.byMode["untabled"].all, res.byMode["tabled"].all
	fmt.Println()
	ratio("rlm rules only / swi untabled", rules.all, su)
	ratio("rlm tabled / swi tabled", tabled.all, st)
	ratio("rlm tabled / swi untabled", tabled.all, su)
}

// rulesOnly times plan_features/2 on each query's prebuilt features term.
func rulesOnly(ctx context.Context, eng *engine.Engine, qs []query, n int, cpuprofile string) *timings {
	if cpuprofile != "" {
		f, err := os.Create(cpuprofile)
		if err != nil {
			fail(err)
		}
		if err := pprof.StartCPUProfile(f); err != nil {
			fail(err)
		}
		defer func() {
			pprof.StopCPUProfile()
			f.Close()
		}()
	}
	out := newTimings()
	for _, q := range qs {
		ft := bridge.QueryFeatures(q.text).Term()
		for range n / 10 {
			_, _ = eng.Once(ctx, "plan_features", ft, engine.NewVar())
		}
		for range n {
			t := time.Now()
			if _, err := eng.Once(ctx, "plan_features", ft, engine.NewVar()); err != nil {
				fail(err)
			}
			out.add(q.class, time.Since(t))
		}
	}
	return out
}

// tabledRows times PlanTabled for each query on one snapshot of a
// lexiconBackend, after a first (untimed) call that plans it, and
// returns the timings and the backend look-ups the timed calls made. It
// checks that the backend's lexicon leaves the features as the untabled
// rows compute them and that the tabled plan is the untabled one.
func tabledRows(ctx context.Context, x *planner.Planner, qs []query, n int, sigs []string) (*timings, int64) {
	b := &lexiconBackend{}
	tab := planner.NewTable(0)
	const snapshot = "bench-snapshot"
	out := newTimings()
	var lookups int64
	for i, q := range qs {
		want, _ := json.Marshal(bridge.QueryFeatures(q.text))
		got, _ := json.Marshal(bridge.QueryFeaturesIn(q.text, bridge.BackendLexicon(ctx, b)))
		if string(want) != string(got) {
			fail(fmt.Errorf("the bench backend's lexicon changes the features of %q", q.text))
		}
		p, _, err := x.PlanTabled(ctx, tab, b, snapshot, q.text)
		if err != nil {
			fail(err)
		}
		if s := planSignature(p); s != sigs[i] {
			fail(fmt.Errorf("tabled plan of %q is %s, untabled %s", q.text, s, sigs[i]))
		}
		for range n / 10 {
			_, _, _ = x.PlanTabled(ctx, tab, b, snapshot, q.text)
		}
		before := b.searches.Load()
		for range n {
			t := time.Now()
			_, hit, err := x.PlanTabled(ctx, tab, b, snapshot, q.text)
			d := time.Since(t)
			if err != nil {
				fail(err)
			}
			if !hit {
				fail(fmt.Errorf("%q was planned again on the same snapshot", q.text))
			}
			out.add(q.class, d)
		}
		lookups += b.searches.Load() - before
	}
	return out, lookups
}

// planSignature is the class, the steps' strategies and the rule IDs of
// the plan's explanations, as bench/plan/swi.pl prints them.
func planSignature(p *planner.Plan) string {
	var ss, rs []string
	for _, s := range p.Steps {
		ss = append(ss, s.Strategy)
	}
	for _, b := range p.Because {
		rs = append(rs, b.Rule)
	}
	return p.Class + "|" + strings.Join(ss, ",") + "|" + strings.Join(rs, ",")
}

func ratio(label string, a, b []time.Duration) {
	fmt.Printf("ratio %s: p50 %.2fx, p99 %.2fx\n", label,
		float64(pct(a, 50))/float64(pct(b, 50)), float64(pct(a, 99))/float64(pct(b, 99)))
}

func printStats(label string, t *timings) {
	classes := make([]string, 0, len(t.byClass))
	for c := range t.byClass {
		classes = append(classes, c)
	}
	sort.Strings(classes)
	for _, c := range classes {
		fmt.Printf("  %-4s %-13s p50 %8.1f µs  p99 %8.1f µs\n", label, c, us(pct(t.byClass[c], 50)), us(pct(t.byClass[c], 99)))
	}
	fmt.Printf("  %-4s %-13s p50 %8.1f µs  p99 %8.1f µs\n", label, "all", us(pct(t.all, 50)), us(pct(t.all, 99)))
}

func us(d time.Duration) float64 { return float64(d.Nanoseconds()) / 1e3 }

func pct(ds []time.Duration, p int) time.Duration {
	s := append([]time.Duration(nil), ds...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	i := (len(s)*p + 99) / 100
	if i > 0 {
		i--
	}
	return s[i]
}

func swiVersion() string {
	out, err := exec.Command("swipl", "--version").Output()
	if err != nil {
		return "(version unknown)"
	}
	f := strings.Fields(string(out))
	if len(f) >= 3 {
		return f[2]
	}
	return strings.TrimSpace(string(out))
}

func readQueries(path string) ([]query, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var qs []query
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		l := sc.Text()
		if strings.HasPrefix(l, "#") || strings.TrimSpace(l) == "" {
			continue
		}
		c, q, ok := strings.Cut(l, "\t")
		if !ok {
			return nil, fmt.Errorf("%s: no tab in %q", path, l)
		}
		qs = append(qs, query{class: c, text: q})
	}
	return qs, sc.Err()
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "plan bench:", err)
	os.Exit(1)
}
