// Command casereuse measures case-based reuse (rlm.Options.Cases) on a
// repeated-query workload: the same questions, asked again in other
// wordings, over several rounds. Two projects over the same tree answer
// every question, one planning each time (the baseline), one reusing
// similar cases; the rounds interleave them so machine noise hits both.
//
// Latency: the mean Search time per question, in the first round (cases
// are retained) and the later rounds (cases reused). Quality: the answers
// with reuse compared to the baseline's for the same question — the same
// hits in the same order (identical), and the share of the baseline's
// hits found (recall). rlm eval (issue 10) will score tasks; until then the
// baseline's answer is the reference.
//
//	go run ./bench/casereuse -root "$(go env GOROOT)/src/net/http" -rounds 5
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"slices"
	"time"

	"github.com/rlm-dev/rlm"
)

// workload pairs each question with a rewording asked in later rounds:
// names in another case, qualified names, the same words in another order,
// and questions whose first step finds the answer (no shortcut to reuse).
var workload = [][2]string{
	{"what calls servehttp", "who calls ServeHttp?"},
	{"who calls readrequest", "what calls ReadRequest"},
	{"what calls listenandserve", "callers of ListenAndServe"},
	{"where is newrequest defined", "where is NewRequest defined?"},
	{"http.ListenAndServe", "http.ListenAndServe"},
	{"servemux", "ServeMux"},
	{"what calls writeheader", "who calls WriteHeader?"},
	{"where is cookie defined", "where is Cookie defined"},
	{"Server", "Server"},
	{"what calls ServeHTTP", "who calls ServeHTTP"},
	{"parse multipart form boundaries", "multipart boundaries parse form"},
	{"redirect after post request", "post request redirect after"},
}

type config struct {
	name  string
	p     *rlm.Project
	lat   [2]time.Duration // first round, later rounds
	n     [2]int
	perQ  map[int][]time.Duration // later rounds, by question
	steps map[int]int             // steps run in the last round, by question
}

func main() {
	root := flag.String("root", "", "source tree")
	rounds := flag.Int("rounds", 5, "rounds over the workload (the first retains, the others reuse)")
	embedder := flag.String("embedder", "none", "none or local")
	aa := flag.Bool("aa", false, "calibration: both projects plan every time (an A/A run shows the noise between them)")
	flag.Parse()
	if *root == "" {
		fail(fmt.Errorf("-root is required"))
	}
	ctx := context.Background()
	opts := rlm.Options{InMemory: true}
	if *embedder == "local" {
		e, err := rlm.LocalEmbedder()
		if err != nil {
			fail(err)
		}
		opts.Embedder = e
	}
	open := func(name string, cases bool) *config {
		o := opts
		o.Cases = cases
		p, err := rlm.Open(ctx, *root, o)
		if err != nil {
			fail(err)
		}
		return &config{name: name, p: p, perQ: map[int][]time.Duration{}, steps: map[int]int{}}
	}
	base, reuse := open("plan every time", false), open("case reuse", !*aa)
	defer base.p.Close()
	defer reuse.p.Close()
	identical, total, found, wanted := 0, 0, 0, 0
	for r := 0; r < *rounds; r++ {
		for qi, pair := range workload {
			q := pair[0]
			if r%2 == 1 {
				q = pair[1]
			}
			var answers [2]*rlm.Answer
			for i, c := range []*config{base, reuse} {
				if r%2 == 1 {
					c = []*config{reuse, base}[i] // alternate which goes first
				}
				start := time.Now()
				a, err := c.p.Search(ctx, q, 10)
				if err != nil {
					fail(err)
				}
				k := min(r, 1)
				d := time.Since(start)
				c.lat[k] += d
				c.n[k]++
				if r > 0 {
					c.perQ[qi] = append(c.perQ[qi], d)
				}
				c.steps[qi] = len(a.Plan)
				if c == base {
					answers[0] = a
				} else {
					answers[1] = a
				}
			}
			b, x := hits(answers[0]), hits(answers[1])
			total++
			if slices.Equal(b, x) {
				identical++
			}
			wanted += len(b)
			for _, h := range b {
				if slices.Contains(x, h) {
					found++
				}
			}
		}
	}
	fmt.Printf("tree %s, %d questions x %d rounds, embedder %s\n", *root, len(workload), *rounds, *embedder)
	fmt.Printf("%-16s %14s %14s\n", "", "round 1 ms/q", "rounds 2+ ms/q")
	for _, c := range []*config{base, reuse} {
		fmt.Printf("%-16s %14.2f %14.2f\n", c.name, ms(c.lat[0], c.n[0]), ms(c.lat[1], c.n[1]))
	}
	fmt.Printf("\nrounds 2+, by question: median ms (steps in the last round), plan every time vs case reuse\n")
	var sumB, sumR time.Duration
	for qi, pair := range workload {
		mb, mr := median(base.perQ[qi]), median(reuse.perQ[qi])
		sumB, sumR = sumB+mb, sumR+mr
		fmt.Printf("  %-36q %7.2f (%d)  %7.2f (%d)\n", pair[0], ms(mb, 1), base.steps[qi], ms(mr, 1), reuse.steps[qi])
	}
	fmt.Printf("  %-36s %7.2f      %7.2f\n", "sum of medians", ms(sumB, 1), ms(sumR, 1))
	st := reuse.p.CaseStats()
	fmt.Printf("cases: retained %d, reused %d, reuses that found nothing %d\n", st.Retained, st.Reused, st.Failed)
	fmt.Printf("quality vs planning: identical answers %d/%d, recall of the baseline's hits %.3f\n", identical, total, float64(found)/float64(max(wanted, 1)))
}

func median(ds []time.Duration) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	s := slices.Clone(ds)
	slices.Sort(s)
	return s[len(s)/2]
}

func hits(a *rlm.Answer) []string {
	out := make([]string, 0, len(a.Hits))
	for _, h := range a.Hits {
		out = append(out, fmt.Sprintf("%s:%d:%s", h.Path, h.StartLine, h.Symbol))
	}
	return out
}

func ms(d time.Duration, n int) float64 {
	if n == 0 {
		return 0
	}
	return float64(d.Microseconds()) / 1000 / float64(n)
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "casereuse:", err)
	os.Exit(1)
}
