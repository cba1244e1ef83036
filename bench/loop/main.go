// Command loop measures the completion loop's overhead per turn, without
// the model: an in-process model answers at once, so what is timed is the
// snapshot check, the retrieval planner, reading the evidence back, the
// prompt compile and the executor — on a real tree. A turn is one
// rlm.Project.Ask; "with retrieve" turns make one retrieve tool call
// before answering. The same run measures Search alone as a baseline.
//
//	go run ./bench/loop -root "$(go env GOROOT)/src/net/http" -n 3
package main

import (
	"bufio"
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"runtime/pprof"
	"sort"
	"strings"
	"syscall"
	"time"

	"github.com/rlm-dev/rlm"
	"github.com/rlm-dev/rlm/loop"
	"github.com/rlm-dev/rlm/providers"
)

// instant is a model that answers at once: prose, or first a retrieve call.
type instant struct{ retrieve bool }

func (m instant) Model() string { return "gpt-4o-mini" }

func (m instant) Stream(_ context.Context, req providers.ChatRequest, _ func(providers.StreamDelta) error) (*providers.ChatResponse, error) {
	last := req.Messages[len(req.Messages)-1]
	if m.retrieve && last.Role == providers.RoleUser {
		return &providers.ChatResponse{FinishReason: "tool_calls", ToolCalls: []providers.ToolCall{{ID: "r1", Name: "retrieve",
			Arguments: fmt.Sprintf(`{"query":%q}`, "more about "+last.Content)}}}, nil
	}
	return &providers.ChatResponse{FinishReason: "stop", Content: "ok"}, nil
}

func main() {
	root := flag.String("root", "", "source tree")
	n := flag.Int("n", 3, "passes over the queries")
	queries := flag.String("queries", "bench/queries.txt", "class<TAB>query file")
	cpuprofile := flag.String("cpuprofile", "", "write a CPU profile of the measured turns to this file")
	only := flag.String("only", "", "measure only the rows whose name contains this text")
	fresh := flag.Bool("fresh", false, "warm up on one query outside the file instead of the file's queries, and measure one pass (-n is ignored): every measured turn asks a question for the first time")
	flag.Parse()
	if *root == "" {
		fail(fmt.Errorf("-root is required"))
	}
	qs, err := readQueries(*queries)
	if err != nil {
		fail(err)
	}
	dir, err := os.MkdirTemp("", "rlm-bench-loop")
	if err != nil {
		fail(err)
	}
	defer os.RemoveAll(dir)
	ctx := context.Background()
	emb, err := rlm.LocalEmbedder()
	if err != nil {
		fail(err)
	}
	t := time.Now()
	p, err := rlm.Open(ctx, *root, rlm.Options{DBPath: filepath.Join(dir, "kb.sqlite"), Embedder: emb})
	if err != nil {
		fail(err)
	}
	defer p.Close()
	fmt.Printf("opened %s in %s (%d files)\n", *root, time.Since(t).Round(time.Millisecond), p.Stats().Files)
	warm := qs
	if *fresh {
		warm, *n = []string{"where is the warm-up handled?"}, 1
	}
	for _, q := range warm { // warm up
		if _, err := p.Ask(ctx, q, rlm.AskOptions{Model: instant{}}); err != nil {
			fail(err)
		}
	}
	if *cpuprofile != "" {
		pf, err := os.Create(*cpuprofile)
		if err != nil {
			fail(err)
		}
		if err := pprof.StartCPUProfile(pf); err != nil {
			fail(err)
		}
		defer pprof.StopCPUProfile()
	}
	measure := func(name string, f func(q string) error) {
		if !strings.Contains(name, *only) {
			return
		}
		var ds []time.Duration
		cpu0 := cpuTime()
		for range *n {
			for _, q := range qs {
				t := time.Now()
				if err := f(q); err != nil {
					fail(fmt.Errorf("%s %q: %w", name, q, err))
				}
				ds = append(ds, time.Since(t))
			}
		}
		cpu := (cpuTime() - cpu0) / time.Duration(len(ds))
		sort.Slice(ds, func(i, j int) bool { return ds[i] < ds[j] })
		fmt.Printf("  %-34s p50 %8.2f ms  p99 %8.2f ms  cpu/turn %6.2f ms  (%d turns)\n", name, ms(ds[len(ds)/2]), ms(ds[len(ds)*99/100]), ms(cpu), len(ds))
	}
	measure("Search alone (baseline)", func(q string) error { _, err := p.Search(ctx, q, 6); return err })
	measure("snapshot check alone (Refresh)", func(string) error { _, err := p.Refresh(ctx); return err })
	phases := map[string][]time.Duration{}
	measure("Ask turn, model answers at once", func(q string) error {
		res, err := p.Ask(ctx, q, rlm.AskOptions{Model: instant{}})
		if err == nil {
			for _, e := range res.Trace {
				phases[e.Kind] = append(phases[e.Kind], e.Elapsed)
			}
			phases["whole run"] = append(phases["whole run"], res.Elapsed)
		}
		return err
	})
	for _, k := range []string{loop.EventEvidence, loop.EventCompile, loop.EventModel, "whole run"} {
		if ds := phases[k]; len(ds) > 0 {
			sort.Slice(ds, func(i, j int) bool { return ds[i] < ds[j] })
			fmt.Printf("    of which %-23s p50 %8.2f ms\n", k, ms(ds[len(ds)/2]))
		}
	}
	measure("Ask turn with one retrieve call", func(q string) error {
		_, err := p.Ask(ctx, q, rlm.AskOptions{Model: instant{retrieve: true}})
		return err
	})
	cat, err := rlm.NewCatalog(ctx, nil, "gpt-4o-mini")
	if err != nil {
		fail(err)
	}
	defer cat.Release()
	measure("Ask turn, host catalog", func(q string) error {
		_, err := p.Ask(ctx, q, rlm.AskOptions{Model: instant{}, Catalog: cat})
		return err
	})
}

// cpuTime is the process's user + system CPU time so far (getrusage(2)):
// on a shared machine the CPU a turn costs moves less with the load than
// its wall time.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		fail(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

func readQueries(path string) ([]string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		l := sc.Text()
		if _, q, ok := strings.Cut(l, "\t"); ok && !strings.HasPrefix(l, "#") {
			out = append(out, q)
		}
	}
	return out, sc.Err()
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "loop bench:", err)
	os.Exit(1)
}
