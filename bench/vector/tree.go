package main

import (
	"bufio"
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"time"

	"github.com/rlm-dev/rlm/providers"
	"github.com/rlm-dev/rlm/retrieval"
	"github.com/rlm-dev/rlm/retrieval/embedded"
)

// The -index mode: vector and hybrid queries on a real search index (one
// built by `rlm index`, e.g. of a copy of GOROOT/src), exact search against
// the quantised index, each in a child process of its own so that its
// peak RSS is its own (getrusage of the child).

// treeResult is what a child process reports.
type treeResult struct {
	Mode     string                         `json:"mode"`
	Vectors  int                            `json:"vectors"`
	FirstMS  map[retrieval.Strategy]float64 `json:"first_ms"`
	P50MS    map[retrieval.Strategy]float64 `json:"p50_ms"`
	P99MS    map[retrieval.Strategy]float64 `json:"p99_ms"`
	CPUMS    map[retrieval.Strategy]float64 `json:"cpu_ms"` // user+system CPU per query, all goroutines
	IDs      map[retrieval.Strategy][][]string
	RSSKB    int64   `json:"rss_kb"`
	FloatsMB float64 `json:"floats_mb"`
	CodesMB  float64 `json:"codes_mb"`
	Queries  int     `json:"queries"`
	BaseMS   float64 `json:"base_ms"`
}

// treeQueries are the non-broad queries of the queries file plus n queries
// made of six words of random documents' doc comments (seeded).
func treeQueries(file, index string, n int, seed uint64) ([]string, error) {
	f, err := os.Open(file)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var qs []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		l := sc.Text()
		class, q, ok := strings.Cut(l, "\t")
		if strings.HasPrefix(l, "#") || !ok || class == "broad" || strings.TrimSpace(q) == "" {
			continue
		}
		qs = append(qs, q)
	}
	db, err := sql.Open("sqlite", "file:"+index+"?mode=ro")
	if err != nil {
		return nil, err
	}
	defer db.Close()
	rows, err := db.Query("SELECT doc FROM docs WHERE length(doc) > 40 ORDER BY rid")
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var docs []string
	for rows.Next() {
		var s string
		if err := rows.Scan(&s); err != nil {
			return nil, err
		}
		docs = append(docs, s)
	}
	r := rand.New(rand.NewPCG(seed, 2))
	for i := 0; i < n && len(docs) > 0; i++ {
		w := strings.Fields(docs[r.IntN(len(docs))])
		if len(w) > 7 {
			w = w[1:7]
		}
		qs = append(qs, strings.Join(w, " "))
	}
	return qs, rows.Err()
}

// runTreeChild runs the queries in one mode and prints a treeResult.
func runTreeChild(ctx context.Context, cfg config, mode string) error {
	qs, err := treeQueries(cfg.queriesFile, cfg.index, cfg.docQueries, cfg.seed)
	if err != nil {
		return err
	}
	le, err := providers.NewLocalEmbedder(providers.LocalConfig{})
	if err != nil {
		return err
	}
	opts := []embedded.Option{embedded.WithEmbedder(le)}
	if mode == "exact" {
		opts = append(opts, embedded.WithExactVectors())
	}
	b, err := embedded.Open(ctx, cfg.index, opts...)
	if err != nil {
		return err
	}
	defer b.Close()
	res := treeResult{Mode: mode, Queries: len(qs), FirstMS: map[retrieval.Strategy]float64{},
		P50MS: map[retrieval.Strategy]float64{}, P99MS: map[retrieval.Strategy]float64{}, CPUMS: map[retrieval.Strategy]float64{}, IDs: map[retrieval.Strategy][][]string{}}
	if res.Vectors, err = b.VectorCount(ctx); err != nil {
		return err
	}
	if mode == "compact" {
		// What `rlm index` does after building (a no-op when the base is
		// current), in a process of its own: not part of a query's cost.
		start := time.Now()
		if err := b.CompactVectors(ctx); err != nil {
			return err
		}
		res.BaseMS = ms(time.Since(start))
		return json.NewEncoder(os.Stdout).Encode(res)
	}
	for _, s := range []retrieval.Strategy{retrieval.Vector, retrieval.Hybrid} {
		var lat []time.Duration
		cpu0 := cpuTime()
		for i, q := range qs {
			start := time.Now()
			hits, err := b.Search(ctx, retrieval.Request{Strategy: s, Text: q, Limit: cfg.k})
			d := time.Since(start)
			if err != nil {
				return fmt.Errorf("%s %q: %w", s, q, err)
			}
			if i == 0 && s == retrieval.Vector {
				res.FirstMS[s] = ms(d) // includes loading (exact) or mapping (quantised)
			} else {
				lat = append(lat, d)
			}
			res.IDs[s] = append(res.IDs[s], hitIDs(hits))
		}
		res.P50MS[s], res.P99MS[s] = ms(percentile(lat, 0.5)), ms(percentile(lat, 0.99))
		res.CPUMS[s] = ms(cpuTime()-cpu0) / float64(len(qs))
	}
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err == nil {
		res.RSSKB = ru.Maxrss
	}
	db, err := sql.Open("sqlite", "file:"+cfg.index+"?mode=ro")
	if err != nil {
		return err
	}
	defer db.Close()
	var floats int64
	if err := db.QueryRow("SELECT COALESCE(SUM(length(vec)), 0) FROM vectors").Scan(&floats); err != nil {
		return err
	}
	res.FloatsMB = float64(floats) / 1e6
	for _, f := range embedded.SidecarFiles(cfg.index) {
		if fi, err := os.Stat(f); err == nil {
			res.CodesMB += float64(fi.Size()) / 1e6
		}
	}
	return json.NewEncoder(os.Stdout).Encode(res)
}

// runTree runs the exact and the quantised child and prints the table.
func runTree(ctx context.Context, cfg config) error {
	results := map[string]treeResult{}
	for _, mode := range []string{"compact", "exact", "quantised"} {
		logf("index %s: %s child", cfg.index, mode)
		cmd := exec.CommandContext(ctx, os.Args[0], append(os.Args[1:], "-child", mode)...)
		cmd.Stderr = os.Stderr
		out, err := cmd.Output()
		if err != nil {
			return fmt.Errorf("%s child: %w", mode, err)
		}
		var r treeResult
		if err := json.Unmarshal(out, &r); err != nil {
			return fmt.Errorf("%s child: %w", mode, err)
		}
		if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
			r.RSSKB = ru.Maxrss
		}
		results[mode] = r
	}
	ex, qu := results["exact"], results["quantised"]
	qu.BaseMS = results["compact"].BaseMS
	fmt.Printf("### Vector and hybrid queries on %s\n\n", cfg.index)
	fmt.Printf("- command: `go run ./bench/vector %s`\n", strings.Join(os.Args[1:], " "))
	fmt.Printf("- %d vectors (local embedder, 384 dims); %d queries (the non-broad lines of %s and %d six-word phrases of random doc comments, seed %d), top-%d; each mode in a child process of its own\n",
		qu.Vectors, qu.Queries, cfg.queriesFile, cfg.docQueries, cfg.seed, cfg.k)
	fmt.Printf("- vectors on disk: %.1f MB float32 rows (SQLite), %.1f MB 7-bit codes (base file beside it); CompactVectors in a process before the runs took %.0f ms (what `rlm index` does after a build; ≈ 0 when the base is current)\n\n", qu.FloatsMB, qu.CodesMB, qu.BaseMS)
	fmt.Printf("- load average at the start: %s\n\n", loadAvg())
	fmt.Println("| mode | strategy | first query ms | p50 ms | p99 ms | CPU ms per query | peak RSS MB | recall@10 vs exact |")
	fmt.Println("|---|---|---:|---:|---:|---:|---:|---:|")
	for _, r := range []treeResult{ex, qu} {
		for _, s := range []retrieval.Strategy{retrieval.Vector, retrieval.Hybrid} {
			first := "–"
			if v, ok := r.FirstMS[s]; ok {
				first = fmt.Sprintf("%.0f", v)
			}
			fmt.Printf("| %s | %s | %s | %.1f | %.1f | %.1f | %.0f | %.3f |\n", r.Mode, s, first, r.P50MS[s], r.P99MS[s], r.CPUMS[s], float64(r.RSSKB)/1024, recall(ex.IDs[s], r.IDs[s]))
		}
	}
	fmt.Println()
	fmt.Println("\"first query\" is the first vector query of a fresh process: it loads the float32 copy (exact) or maps the base file (quantised). Peak RSS is the child's getrusage maximum, the whole process.")
	return nil
}

// recall is the mean fraction of each exact list's ids found in got's.
func recall(exact, got [][]string) float64 {
	var found, total int
	for i, e := range exact {
		in := map[string]bool{}
		for _, id := range got[i] {
			in[id] = true
		}
		for _, id := range e {
			total++
			if in[id] {
				found++
			}
		}
	}
	if total == 0 {
		return 0
	}
	return float64(found) / float64(total)
}

// cpuTime is the process's user+system CPU time.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// loadAvg is the first line of /proc/loadavg, or "unknown".
func loadAvg() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "unknown"
	}
	return strings.Join(strings.Fields(string(b))[:3], " ")
}
