// Command prompttokens measures what the prompt compiler saves: on a
// 200-tool catalog (40 areas × 5 operations, with a few instructions and
// skills) and 50 requests written as users write them, each needing one
// tool, it compiles every request in compiled mode and in all_tools mode
// and reports the tokens sent per turn (text + tool schemas, as the
// ledger charges them), the saving, and the share of requests whose needed
// tool the model is shown.
//
//	go run ./bench/prompttokens
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"sort"
	"time"

	"github.com/rlm-dev/rlm/prompt"
)

func main() {
	model := flag.String("model", "gpt-4o-mini", "model (chooses the tokenizer)")
	budget := flag.Int("budget", 0, "token budget of a projection (0: none)")
	verbose := flag.Bool("v", false, "print each request")
	held := flag.Bool("held-out", false, "measure the held-out requests (never used for tuning) instead")
	flag.Parse()
	set := tasks
	if *held {
		set = heldOut
	}
	ctx := context.Background()
	cat, err := prompt.NewCatalog(ctx, catalog(), prompt.CatalogOptions{Model: *model})
	if err != nil {
		fail(err)
	}
	defer cat.Release()
	c, err := prompt.NewCompiler(prompt.CompilerOptions{})
	if err != nil {
		fail(err)
	}
	var compiled, all []int
	var lat []time.Duration
	visible, toolsShown := 0, 0
	for _, tk := range set {
		in := prompt.Input{Text: tk.text}
		t := time.Now()
		out, err := c.Compile(ctx, cat, in, prompt.Options{Mode: prompt.ModeCompiled, Budget: *budget, Model: *model})
		if err != nil {
			fail(err)
		}
		lat = append(lat, time.Since(t))
		ref, err := c.Compile(ctx, cat, in, prompt.Options{Mode: prompt.ModeAllTools, Model: *model})
		if err != nil {
			fail(err)
		}
		compiled = append(compiled, out.Ledger.Total)
		all = append(all, ref.Ledger.Total)
		found := false
		for _, ts := range out.Tools {
			if ts.Name == tk.needs {
				found = true
			}
		}
		if found {
			visible++
		}
		toolsShown += len(out.Tools)
		if *verbose || !found {
			var names []string
			for _, ts := range out.Tools {
				names = append(names, ts.Name)
			}
			mark := "ok  "
			if !found {
				mark = "MISS"
			}
			fmt.Printf("%s %-70q needs %-18s shown %v\n", mark, tk.text, tk.needs, names)
		}
	}
	sum := func(xs []int) (s int) {
		for _, x := range xs {
			s += x
		}
		return s
	}
	sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
	n := len(set)
	fmt.Printf("catalog: %d units (%d tools); %d requests\n", cat.Len(), 200, n)
	fmt.Printf("needed tool shown (compiled): %d/%d = %.2f; tools shown per request: %.1f\n", visible, n, float64(visible)/float64(n), float64(toolsShown)/float64(n))
	fmt.Printf("tokens per turn: compiled %.0f, all_tools %.0f; saving %.1fx\n", float64(sum(compiled))/float64(n), float64(sum(all))/float64(n), float64(sum(all))/float64(sum(compiled)))
	fmt.Printf("compile latency (compiled mode): p50 %.2f ms, p99 %.2f ms\n", ms(lat[n/2]), ms(lat[n*99/100]))
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

func fail(err error) {
	fmt.Fprintln(os.Stderr, "prompttokens:", err)
	os.Exit(1)
}
