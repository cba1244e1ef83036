// Command plan measures rule-only plan latency: plan_features/2 over the
// features of each query in bench/queries.txt, in rlm's embedded engine
// (ichiban/prolog, including Go→term construction and decoding of the plan)
// and, with -swi, in SWI-Prolog running the same rule files on the same
// features. It prints p50/p99 per class and overall, and the ratio.
//
//	go run ./bench/plan -n 2000 -swi
package main

import (
	"bufio"
	"context"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
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

func main() {
	n := flag.Int("n", 2000, "iterations per query")
	queries := flag.String("queries", "bench/queries.txt", "class<TAB>query file")
	swi := flag.Bool("swi", false, "also run the same rules in SWI-Prolog (swipl on PATH)")
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
	byClass := map[string][]time.Duration{}
	var all []time.Duration
	mismatch := 0
	for _, q := range qs {
		p, err := x.Plan(ctx, q.text)
		if err != nil {
			fail(err)
		}
		if p.Class != q.class {
			mismatch++
			fmt.Fprintf(os.Stderr, "note: %q classified %s, file says %s\n", q.text, p.Class, q.class)
		}
		for i := 0; i < *n/10; i++ { // warm up
			_, _ = x.Plan(ctx, q.text)
		}
		for i := 0; i < *n; i++ {
			t := time.Now()
			if _, err := x.Plan(ctx, q.text); err != nil {
				fail(err)
			}
			d := time.Since(t)
			byClass[q.class] = append(byClass[q.class], d)
			all = append(all, d)
		}
	}
	fmt.Printf("rlm Expert.Plan (ichiban/prolog v1.2.2): features computed in Go, plan_features/2, plan decoded; %d queries x %d iterations\n", len(qs), *n)
	printStats("rlm", byClass, all)

	// Rules only: the same features term, plan_features/2 and decoding.
	eng := x.Engine()
	rulesByClass := map[string][]time.Duration{}
	var rulesAll []time.Duration
	for _, q := range qs {
		ft := bridge.QueryFeatures(q.text).Term()
		for i := 0; i < *n/10; i++ {
			_, _ = eng.Once(ctx, "plan_features", ft, engine.NewVar())
		}
		for i := 0; i < *n; i++ {
			t := time.Now()
			if _, err := eng.Once(ctx, "plan_features", ft, engine.NewVar()); err != nil {
				fail(err)
			}
			d := time.Since(t)
			rulesByClass[q.class] = append(rulesByClass[q.class], d)
			rulesAll = append(rulesAll, d)
		}
	}
	fmt.Printf("\nrlm rules only: plan_features/2 on prebuilt features, result decoded to Go\n")
	printStats("rlm", rulesByClass, rulesAll)
	all = rulesAll
	if mismatch > 0 {
		fmt.Printf("(%d queries classified differently from the file's label)\n", mismatch)
	}
	if !*swi {
		return
	}
	swiAll, swiByClass, err := runSWI(qs, *n)
	if err != nil {
		fail(err)
	}
	fmt.Println()
	fmt.Println("SWI-Prolog, same rule files (classify.pl, strategy.pl, expand.pl, concepts/code.pl) and the same feature terms:")
	printStats("swi", swiByClass, swiAll)
	fmt.Printf("\nratio rlm rules-only / swi: p50 %.2fx, p99 %.2fx\n",
		float64(pct(all, 50))/float64(pct(swiAll, 50)), float64(pct(all, 99))/float64(pct(swiAll, 99)))
}

func printStats(label string, byClass map[string][]time.Duration, all []time.Duration) {
	classes := make([]string, 0, len(byClass))
	for c := range byClass {
		classes = append(classes, c)
	}
	sort.Strings(classes)
	for _, c := range classes {
		fmt.Printf("  %-4s %-13s p50 %8.1f µs  p99 %8.1f µs\n", label, c, us(pct(byClass[c], 50)), us(pct(byClass[c], 99)))
	}
	fmt.Printf("  %-4s %-13s p50 %8.1f µs  p99 %8.1f µs\n", label, "all", us(pct(all, 50)), us(pct(all, 99)))
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

// runSWI writes the features of every query as SWI-Prolog facts, runs
// bench/plan/swi.pl and reads per-call times (ns) back.
func runSWI(qs []query, n int) ([]time.Duration, map[string][]time.Duration, error) {
	dir, err := os.MkdirTemp("", "rlm-plan-swi")
	if err != nil {
		return nil, nil, err
	}
	defer os.RemoveAll(dir)
	facts := filepath.Join(dir, "features.facts") // not *.pl: swipl would load it as a script and drop it from argv
	var b strings.Builder
	b.WriteString(":- set_prolog_flag(double_quotes, chars).\n")
	for i, q := range qs {
		fmt.Fprintf(&b, "q(%d, %s, %s).\n", i, q.class, featuresText(bridge.QueryFeatures(q.text)))
	}
	if err := os.WriteFile(facts, []byte(b.String()), 0o644); err != nil {
		return nil, nil, err
	}
	cmd := exec.Command("swipl", "-q", "-g", "main", "-t", "halt", "bench/plan/swi.pl", facts, strconv.Itoa(n))
	cmd.Stderr = os.Stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, nil, fmt.Errorf("swipl: %w", err)
	}
	by := map[string][]time.Duration{}
	var all []time.Duration
	for _, l := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		f := strings.Fields(l)
		if len(f) != 3 {
			continue
		}
		ns, err := strconv.ParseFloat(f[2], 64)
		if err != nil {
			return nil, nil, fmt.Errorf("swipl output %q: %w", l, err)
		}
		d := time.Duration(ns)
		by[f[1]] = append(by[f[1]], d)
		all = append(all, d)
	}
	if len(all) == 0 {
		return nil, nil, fmt.Errorf("swipl printed no timings")
	}
	return all, by, nil
}

// featuresText writes features as Prolog source for the SWI benchmark file
// only (a benchmark fixture, never a goal of rlm's): strings as quoted
// char lists.
func featuresText(f bridge.Features) string {
	q := func(s string) string { return strconv.Quote(s) }
	var ids []string
	for _, id := range f.Idents {
		ids = append(ids, fmt.Sprintf("id(%s, %s)", q(id.Name), id.Shape))
	}
	strs := func(ss []string) string {
		var out []string
		for _, s := range ss {
			out = append(out, q(s))
		}
		return "[" + strings.Join(out, ", ") + "]"
	}
	obj := "none"
	if f.RelationObject != "" {
		obj = q(f.RelationObject)
	}
	cue := f.Cue()
	if f.DocWording {
		cue = fmt.Sprintf("%s(%s)", cue, q(f.Subject))
	}
	var cs []string
	for _, c := range f.Constraints {
		if c.Kind == bridge.ConstraintPath {
			cs = append(cs, fmt.Sprintf("path(%s)", q(c.Value)))
		} else {
			cs = append(cs, fmt.Sprintf("%s('%s')", c.Kind, c.Value))
		}
	}
	return fmt.Sprintf("features(%d, %d, [%s], %s, %s, %s, %s, %s, %s, %s, [%s])",
		f.Tokens, f.Content, strings.Join(ids, ", "), strs(f.Paths), strs(f.Quoted), f.Relation, obj, cue, q(f.Text), strs(f.ContentWords),
		strings.Join(cs, ", "))
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "plan bench:", err)
	os.Exit(1)
}
