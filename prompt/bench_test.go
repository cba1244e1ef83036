package prompt

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"
)

// benchWords is the vocabulary of the synthetic catalogs: tool-ish verbs
// and nouns, so that tasks match some units well and many weakly.
var benchWords = strings.Fields(`read write list show find search create delete update rename move copy run test build
deploy diff log blame commit push pull merge rebase branch tag status stash file files directory path line lines
symbol function method type interface package module import export config secret token user issue ticket review
comment release version changelog docs document page section table row column query index cache queue message
event metric trace span alert incident dashboard chart image video audio archive backup restore snapshot volume
cluster node pod service ingress route request response header cookie session login logout password email
invoice payment order cart product price stock warehouse shipment customer account report schedule calendar`)

// syntheticUnits builds n units (about 60 % tools, 3 always-on, 10 %
// requiring another unit) from a fixed seed.
func syntheticUnits(n int) []Unit {
	r := rand.New(rand.NewPCG(uint64(n), 8))
	pick := func(k int) []string {
		out := make([]string, k)
		for i := range out {
			out[i] = benchWords[r.IntN(len(benchWords))]
		}
		return out
	}
	units := make([]Unit, n)
	for i := range units {
		w := pick(12)
		u := Unit{ID: fmt.Sprintf("%s_%s_%d", w[0], w[1], i), Title: strings.Join(w[:3], " "),
			Description: strings.Join(w[2:11], " ") + ".", Keywords: w[8:12], Priority: r.IntN(3)}
		if i%5 < 3 {
			u.Kind = KindTool
			props := map[string]any{}
			for _, p := range w[4:7] {
				props[p] = map[string]any{"type": "string", "description": "the " + p + " to " + w[0]}
			}
			u.Schema, _ = json.Marshal(map[string]any{"type": "object", "properties": props})
		} else {
			u.Kind = []Kind{KindInstruction, KindSkill, KindResource}[i%3]
			u.Body = strings.Join(pick(60), " ") + "."
		}
		if i < 3 {
			u.Activation = ActivationAlways
		}
		if i%10 == 9 {
			u.Requires = []string{units[i-1-r.IntN(8)].ID}
		}
		units[i] = u
	}
	return units
}

// benchTasks are tasks of six vocabulary words.
func benchTasks() []string {
	r := rand.New(rand.NewPCG(1, 2))
	out := make([]string, 20)
	for i := range out {
		ws := make([]string, 6)
		for j := range ws {
			ws[j] = benchWords[r.IntN(len(benchWords))]
		}
		out[i] = "please " + strings.Join(ws, " the ")
	}
	return out
}

// BenchmarkCompile measures Compile on synthetic catalogs of 20, 200 and
// 2,000 units (20 tasks in turn, default options) and reports the p50 and
// p99 of the single compiles and the mean number of candidates handed to
// the rules. Run with a fixed count for stable percentiles:
//
//	go test -run '^$' -bench Compile -benchtime 2000x ./prompt/
func BenchmarkCompile(b *testing.B) {
	c := newCompiler(b)
	tasks := benchTasks()
	for _, n := range []int{20, 200, 2000} {
		cat, err := NewCatalog(context.Background(), syntheticUnits(n), CatalogOptions{Model: "gpt-4o"})
		if err != nil {
			b.Fatal(err)
		}
		b.Run(fmt.Sprintf("units=%d", n), func(b *testing.B) {
			ctx := context.Background()
			for _, q := range tasks { // warm up the interpreter pool
				compile(b, c, cat, Input{Text: q}, Options{})
			}
			times := make([]time.Duration, 0, b.N)
			cands := 0
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				start := time.Now()
				out, err := c.Compile(ctx, cat, Input{Text: tasks[i%len(tasks)]}, Options{})
				times = append(times, time.Since(start))
				if err != nil {
					b.Fatal(err)
				}
				cands += out.Candidates
			}
			b.StopTimer()
			slices.Sort(times)
			b.ReportMetric(float64(times[len(times)/2].Microseconds()), "p50-µs")
			b.ReportMetric(float64(times[len(times)*99/100].Microseconds()), "p99-µs")
			b.ReportMetric(float64(cands)/float64(b.N), "candidates")
		})
		cat.Release()
	}
}

// distinctTasks returns n different tasks of six vocabulary words (none
// of benchTasks), so that no two compiles of a run share their input.
func distinctTasks(n int) []string {
	r := rand.New(rand.NewPCG(3, 4))
	seen := map[string]bool{}
	for _, t := range benchTasks() {
		seen[t] = true
	}
	out := make([]string, 0, n)
	for len(out) < n {
		ws := make([]string, 6)
		for j := range ws {
			ws[j] = benchWords[r.IntN(len(benchWords))]
		}
		t := "please " + strings.Join(ws, " the ")
		if !seen[t] {
			seen[t] = true
			out = append(out, t)
		}
	}
	return out
}

// BenchmarkCompileCold is BenchmarkCompile with a different task on every
// compile (distinctTasks), so that the compiler's memo of rule answers
// (CompilerOptions.MemoSize) helps only when two tasks happen to give the
// rules the same candidates with the same features:
//
//	go test -run '^$' -bench CompileCold -benchtime 1000x ./prompt/
func BenchmarkCompileCold(b *testing.B) {
	c := newCompiler(b)
	for _, n := range []int{20, 200, 2000} {
		cat, err := NewCatalog(context.Background(), syntheticUnits(n), CatalogOptions{Model: "gpt-4o"})
		if err != nil {
			b.Fatal(err)
		}
		b.Run(fmt.Sprintf("units=%d", n), func(b *testing.B) {
			ctx := context.Background()
			for _, q := range benchTasks() { // warm up the interpreter pool
				compile(b, c, cat, Input{Text: q}, Options{})
			}
			tasks := distinctTasks(b.N)
			times := make([]time.Duration, 0, b.N)
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				start := time.Now()
				_, err := c.Compile(ctx, cat, Input{Text: tasks[i]}, Options{})
				times = append(times, time.Since(start))
				if err != nil {
					b.Fatal(err)
				}
			}
			b.StopTimer()
			slices.Sort(times)
			b.ReportMetric(float64(times[len(times)/2].Microseconds()), "p50-µs")
			b.ReportMetric(float64(times[len(times)*99/100].Microseconds()), "p99-µs")
		})
		cat.Release()
	}
}

// TestSyntheticCompileStaysBounded: at 2,000 units the rules see a bounded
// candidate list, not the catalog.
func TestSyntheticCompileStaysBounded(t *testing.T) {
	c := newCompiler(t)
	cat, err := NewCatalog(context.Background(), syntheticUnits(2000), CatalogOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer cat.Release()
	for _, q := range benchTasks()[:5] {
		out := compile(t, c, cat, Input{Text: q}, Options{})
		if out.Candidates > DefaultMaxCandidates+3+DefaultMaxCandidates/2 || out.Candidates < 10 {
			t.Errorf("%q: %d candidates", q, out.Candidates)
		}
		if len(out.Active) == 0 || len(out.Active) > 20 {
			t.Errorf("%q: %d active units", q, len(out.Active))
		}
	}
	all := compile(t, c, cat, Input{Text: benchTasks()[0]}, Options{Mode: ModeAllTools})
	if len(all.Tools) != 1200 {
		t.Errorf("all_tools sends %d of 1200 tools", len(all.Tools))
	}
}

// BenchmarkNewCatalog measures building a catalog (validation, schema
// checks, rendering, token counting, the candidate index) from synthetic
// units:
//
//	go test -run '^$' -bench NewCatalog -benchtime 3x ./prompt/
func BenchmarkNewCatalog(b *testing.B) {
	for _, n := range []int{2000, 50000} {
		units := syntheticUnits(n)
		b.Run(fmt.Sprintf("units=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				c, err := NewCatalog(context.Background(), units, CatalogOptions{})
				if err != nil {
					b.Fatal(err)
				}
				if c.Len() != n {
					b.Fatalf("%d units, want %d", c.Len(), n)
				}
				c.Release()
			}
		})
	}
}
