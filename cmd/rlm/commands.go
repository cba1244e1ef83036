package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode"

	"github.com/mattn/go-isatty"
	"github.com/schollz/progressbar/v3"

	"github.com/rlm-dev/rlm"
	"github.com/rlm-dev/rlm/engine"
	"github.com/rlm-dev/rlm/retrieval/chroma"
	"github.com/rlm-dev/rlm/rules"
)

func newFlags(name string, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet("rlm "+name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	return fs
}

// parseInterleaved parses the flags, which must come before the query:
// everything from the first non-flag argument on is query text, so a query
// that starts with "-" (or looks like a flag) is never read as one. "--"
// also ends the flags.
func parseInterleaved(fs *flag.FlagSet, args []string) ([]string, error) {
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return nil, err
		}
		return nil, usageError{err.Error()}
	}
	return fs.Args(), nil
}

// backendFlags are the flags that choose the retrieval backend and the
// embedder, shared by index, search and repl.
type backendFlags struct {
	backend, chromaURL, embedder      string
	embedURL, embedModel, embedKeyEnv string
	embedDims                         int
	db                                string
	inMemory, requireCurrent          bool
}

func addBackendFlags(fs *flag.FlagSet) *backendFlags {
	b := &backendFlags{}
	fs.StringVar(&b.backend, "backend", "embedded", "retrieval backend: embedded (SQLite, no server) or chroma (vectors in a Chroma server)")
	fs.StringVar(&b.chromaURL, "chroma-url", os.Getenv("RLM_CHROMA_URL"), "Chroma server URL for --backend chroma (default $RLM_CHROMA_URL)")
	fs.StringVar(&b.embedder, "embedder", "local", "embedder for vector and hybrid search: local (offline, deterministic), openai, or none")
	fs.StringVar(&b.embedURL, "embed-url", "https://api.openai.com/v1", "base URL of an OpenAI-compatible embeddings endpoint (--embedder openai)")
	fs.StringVar(&b.embedModel, "embed-model", "text-embedding-3-small", "embedding model (--embedder openai)")
	fs.StringVar(&b.embedKeyEnv, "embed-key-env", "OPENAI_API_KEY", "name of the environment variable holding the API key (--embedder openai)")
	fs.IntVar(&b.embedDims, "embed-dims", 1536, "dimensions of the embedding model (--embedder openai)")
	fs.StringVar(&b.db, "db", "", "source knowledge base file (default ROOT/.rlm/kb.sqlite); search indexes are kept beside it")
	fs.BoolVar(&b.inMemory, "in-memory", false, "index in memory for this command only; write nothing under ROOT")
	fs.BoolVar(&b.requireCurrent, "require-current", false, "refuse to answer if any file is stale, partial or unparsable")
	return b
}

func (b *backendFlags) options() (rlm.IndexOptions, error) {
	var opts rlm.IndexOptions
	switch b.embedder {
	case "none":
	case "local":
		e, err := rlm.LocalEmbedder()
		if err != nil {
			return opts, err
		}
		opts.Embedder = e
	case "openai":
		e, err := rlm.OpenAIEmbedder(b.embedURL, b.embedModel, b.embedKeyEnv, b.embedDims)
		if err != nil {
			return opts, err
		}
		opts.Embedder = e
	default:
		return opts, usageError{fmt.Sprintf("--embedder %q: want local, openai or none", b.embedder)}
	}
	switch b.backend {
	case "embedded":
	case "chroma":
		if b.chromaURL == "" {
			return opts, usageError{"--backend chroma needs --chroma-url (or $RLM_CHROMA_URL)"}
		}
		if opts.Embedder == nil {
			return opts, usageError{"--backend chroma needs an embedder (--embedder local or openai)"}
		}
		opts.Chroma = &chroma.Config{URL: b.chromaURL}
	default:
		return opts, usageError{fmt.Sprintf("--backend %q: want embedded or chroma", b.backend)}
	}
	return opts, nil
}

// buildIndex opens root's persistent knowledge base (validating it against
// the files' bytes) and the search index of that snapshot, or, with
// --in-memory, indexes root in memory. On a terminal it shows a progress bar
// (in memory) or a message (store) once the work has taken over a second.
func buildIndex(ctx context.Context, root string, bf *backendFlags, stderr io.Writer) (*rlm.Index, error) {
	if root == "" {
		return nil, usageError{"--root DIR is required"}
	}
	if st, err := os.Stat(root); err != nil || !st.IsDir() {
		return nil, usageError{fmt.Sprintf("--root %s is not a directory", root)}
	}
	opts, err := bf.options()
	if err != nil {
		return nil, err
	}
	tty := false
	if f, ok := stderr.(*os.File); ok && isatty.IsTerminal(f.Fd()) {
		tty = true
	}
	start := time.Now()
	if !bf.inMemory {
		done := make(chan struct{})
		if tty {
			go func() {
				select {
				case <-done:
				case <-time.After(time.Second):
					fmt.Fprintf(stderr, "checking %s against the knowledge base (hashing every file, extracting changed ones) ...\n", root)
				}
			}()
		}
		popts := rlm.ProjectOptions{DBPath: bf.db, Embedder: opts.Embedder, Chroma: opts.Chroma, RequireCurrent: bf.requireCurrent}
		if tty {
			popts.OnBuild = func(files int) {
				fmt.Fprintf(stderr, "building the search index of %d files for this snapshot ...\n", files)
			}
		}
		ix, err := rlm.OpenProject(ctx, root, popts)
		close(done)
		return ix, err
	}
	if bf.requireCurrent {
		return nil, usageError{"--require-current needs the knowledge base (drop --in-memory)"}
	}
	var mu sync.Mutex
	var bar *progressbar.ProgressBar
	if tty {
		opts.Progress = func(done, total int, bytes int64) {
			mu.Lock()
			defer mu.Unlock()
			if bar == nil {
				if time.Since(start) < time.Second {
					return
				}
				bar = progressbar.NewOptions(total,
					progressbar.OptionSetWriter(stderr),
					progressbar.OptionSetDescription("indexing"),
					progressbar.OptionShowCount(),
					progressbar.OptionThrottle(100*time.Millisecond),
					progressbar.OptionClearOnFinish())
			}
			_ = bar.Set(done)
		}
		opts.OnStore = func(docs int) {
			mu.Lock()
			defer mu.Unlock()
			if bar != nil {
				_ = bar.Finish()
				bar = nil
			}
			if time.Since(start) > time.Second {
				fmt.Fprintf(stderr, "writing %d symbols to the index ...\n", docs)
			}
		}
	}
	ix, err := rlm.BuildIndex(ctx, root, opts)
	mu.Lock()
	if bar != nil {
		_ = bar.Finish()
	}
	mu.Unlock()
	return ix, err
}

func cmdIndex(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("index", stderr)
	root := fs.String("root", "", "source tree to index")
	asJSON := fs.Bool("json", false, "print the summary as JSON")
	bf := addBackendFlags(fs)
	if _, err := parseInterleaved(fs, args); err != nil {
		return err
	}
	ix, err := buildIndex(ctx, *root, bf, stderr)
	if err != nil {
		return err
	}
	defer ix.Close()
	st := ix.Stats
	if *asJSON {
		out := map[string]any{
			"root": ix.Root, "files": st.Files, "bytes": st.Bytes, "symbols": st.Symbols, "refs": st.Refs,
			"partial": st.Partial, "errors": st.Errors, "stale": st.Stale, "extract_ms": st.Extract.Milliseconds(), "store_ms": st.Store.Milliseconds(),
		}
		if !bf.inMemory {
			out["generation"] = ix.Snapshot.Generation
			out["fingerprint"] = fmt.Sprintf("%016x", ix.Snapshot.Fingerprint)
			out["search_index_reused"] = ix.Reused
		}
		return json.NewEncoder(stdout).Encode(out)
	}
	total := st.Extract + st.Store
	fmt.Fprintf(stdout, "indexed %s: %d files, %.1f MB, %d symbols, %d references (%d partial, %d errors, %d stale) in %s\n",
		ix.Root, st.Files, float64(st.Bytes)/1e6, st.Symbols, st.Refs, st.Partial, st.Errors, st.Stale,
		total.Round(time.Millisecond))
	if !bf.inMemory {
		how := "built"
		if ix.Reused {
			how = "reused"
		}
		fmt.Fprintf(stdout, "snapshot: %s; search index %s (snapshot check %s, search index %s)\n",
			ix.Snapshot, how, st.Extract.Round(time.Millisecond), st.Store.Round(time.Millisecond))
	}
	return nil
}

func loadExpert(rulesDir string) (*rlm.Expert, error) {
	return rlm.NewExpert(rlm.ExpertOptions{RulesDir: rulesDir})
}

func cmdSearch(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	fs := newFlags("search", stderr)
	root := fs.String("root", "", "source tree to search")
	asJSON := fs.Bool("json", false, "print one JSON object")
	batch := fs.Bool("batch", false, "read one query per line from stdin; print one JSON object per line")
	explain := fs.Bool("explain", false, "print the rule chain")
	limit := fs.Int("limit", 10, "maximum hits")
	timeout := fs.Duration("timeout", 30*time.Second, "time limit per query (0: none)")
	rulesDir := fs.String("rules", "", "directory of .pl files that add to or override the default rules")
	bf := addBackendFlags(fs)
	pos, err := parseInterleaved(fs, args)
	if err != nil {
		return err
	}
	if !*batch && len(pos) == 0 {
		return usageError{"a QUERY is required (or --batch)"}
	}
	if *limit < 1 || *limit > 1000 {
		return usageError{"--limit must be 1..1000"}
	}
	x, err := loadExpert(*rulesDir)
	if err != nil {
		return err
	}
	ix, err := buildIndex(ctx, *root, bf, stderr)
	if err != nil {
		return err
	}
	defer ix.Close()
	if *batch {
		return searchBatch(ctx, x, ix, *limit, *timeout, stdin, stdout)
	}
	query := strings.Join(pos, " ")
	qctx, cancel := withTimeout(ctx, *timeout)
	defer cancel()
	ans, err := x.Search(qctx, ix.Backend, query, *limit)
	if err != nil {
		if *asJSON {
			enc := json.NewEncoder(stdout)
			enc.SetEscapeHTML(false)
			_ = enc.Encode(map[string]string{"query": clipQuery(query), "error": err.Error()})
		}
		return err
	}
	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetEscapeHTML(false)
		return enc.Encode(ans)
	}
	printAnswer(stdout, ans, *explain)
	return nil
}

// searchBatch answers one query per stdin line, one JSON object per line,
// flushed per line. A query that fails, or a line longer than
// rlm.MaxQueryBytes (read and discarded, never held whole), gives
// {"query","error"} and the batch goes on.
func searchBatch(ctx context.Context, x *rlm.Expert, ix *rlm.Index, limit int, timeout time.Duration, stdin io.Reader, stdout io.Writer) error {
	r := bufio.NewReaderSize(stdin, 64*1024)
	w := bufio.NewWriter(stdout)
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	for {
		line, tooLong, err := readLine(r, rlm.MaxQueryBytes)
		if err == io.EOF && line == "" && !tooLong {
			return nil
		}
		if err != nil && err != io.EOF {
			return fmt.Errorf("reading queries: %w", err)
		}
		if tooLong {
			_ = enc.Encode(map[string]string{"query": clipQuery(line), "error": fmt.Sprintf("%v: over %d bytes", rlm.ErrQueryTooLarge, rlm.MaxQueryBytes)})
		} else {
			qctx, cancel := withTimeout(ctx, timeout)
			ans, serr := x.Search(qctx, ix.Backend, line, limit)
			cancel()
			if serr != nil {
				if ctx.Err() != nil {
					return ctx.Err()
				}
				_ = enc.Encode(map[string]string{"query": clipQuery(line), "error": serr.Error()})
			} else {
				_ = enc.Encode(ans)
			}
		}
		if ferr := w.Flush(); ferr != nil {
			return ferr
		}
		if err == io.EOF {
			return nil
		}
	}
}

// readLine reads one line (without its "\n" or "\r\n"). A line longer than
// max is consumed to its end and returned cut, with tooLong set.
func readLine(r *bufio.Reader, max int) (line string, tooLong bool, err error) {
	var b []byte
	for {
		chunk, err := r.ReadSlice('\n')
		if len(b)+len(chunk) > max+2 {
			tooLong = true
			if len(b) < max {
				b = append(b, chunk[:min(len(chunk), max-len(b))]...)
			}
		} else {
			b = append(b, chunk...)
		}
		if err == bufio.ErrBufferFull {
			continue
		}
		s := strings.TrimRight(string(b), "\r\n")
		return s, tooLong, err
	}
}

// withTimeout derives a per-query context; d <= 0 means no limit.
func withTimeout(ctx context.Context, d time.Duration) (context.Context, context.CancelFunc) {
	if d <= 0 {
		return context.WithCancel(ctx)
	}
	return context.WithTimeout(ctx, d)
}

func clipQuery(q string) string {
	if len(q) > 200 {
		return strings.ToValidUTF8(q[:200], "") + "…"
	}
	return q
}

func printAnswer(w io.Writer, a *rlm.Answer, explain bool) {
	if len(a.Hits) == 0 {
		fmt.Fprintln(w, "no hits")
	}
	for i, h := range a.Hits {
		name := h.Qualified
		if name == "" {
			name = h.Symbol
		}
		extra := ""
		if len(h.Lines) > 0 {
			extra = fmt.Sprintf("  calls at %s", joinInts(h.Lines, 5))
		}
		fmt.Fprintf(w, "%2d. %s:%d %s (%s) %s%s\n", i+1, printable(h.Path), h.StartLine, printable(name), h.Kind, h.Strategy, extra)
	}
	fmt.Fprintf(w, "\nclass: %s\nplan:\n", a.Class)
	for i, s := range a.Plan {
		verdict := ""
		if len(s.Because) > 0 {
			verdict = s.Because[0].Rule
		}
		fmt.Fprintf(w, "  %d. %-48s %-8s %3d hits  -> %s\n", i+1, s.Step.String(), s.Role, s.Hits, verdict)
	}
	if a.Gap != "" {
		fmt.Fprintf(w, "gap: %s\n", a.Gap)
	}
	if a.Resolved != nil {
		fmt.Fprintf(w, "note: no symbol %q; answered for %q instead (%s)\n", a.Resolved.From, a.Resolved.To, a.Resolved.Rule)
	}
	if explain {
		fmt.Fprintln(w, "\nwhy:")
		for _, b := range a.Explain {
			fmt.Fprintf(w, "  %s", b.Rule)
			if len(b.Premises) > 0 {
				fmt.Fprintf(w, "  <- %s", strings.Join(b.Premises, ", "))
			}
			fmt.Fprintln(w)
		}
	}
}

// printable quotes s if it holds control or non-printable characters, so
// that a file name cannot move the cursor or retitle the terminal.
func printable(s string) string {
	for _, r := range s {
		if !unicode.IsPrint(r) {
			return strconv.Quote(s)
		}
	}
	return s
}

func joinInts(xs []int, max int) string {
	var parts []string
	for i, x := range xs {
		if i == max {
			parts = append(parts, fmt.Sprintf("+%d more", len(xs)-max))
			break
		}
		parts = append(parts, fmt.Sprint(x))
	}
	return strings.Join(parts, ",")
}

func cmdExplain(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("explain", stderr)
	asJSON := fs.Bool("json", false, "print JSON")
	rulesDir := fs.String("rules", "", "directory of .pl files that add to or override the default rules")
	pos, err := parseInterleaved(fs, args)
	if err != nil {
		return err
	}
	if len(pos) == 0 {
		return usageError{"a QUERY is required"}
	}
	x, err := loadExpert(*rulesDir)
	if err != nil {
		return err
	}
	e, err := x.Explain(ctx, strings.Join(pos, " "))
	if err != nil {
		if *asJSON {
			_ = json.NewEncoder(stdout).Encode(map[string]string{"query": clipQuery(strings.Join(pos, " ")), "error": err.Error()})
		}
		return err
	}
	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetEscapeHTML(false)
		return enc.Encode(e)
	}
	printExplanation(stdout, e)
	return nil
}

func printExplanation(w io.Writer, e *rlm.Explanation) {
	fmt.Fprintf(w, "query: %q\n", clipQuery(e.Query))
	if len(e.Because) > 0 {
		cls := e.Because[0]
		fmt.Fprintf(w, "class: %s\n└─ %s  <- %s\n", e.Class, cls.Rule, strings.Join(cls.Premises, ", "))
	} else {
		fmt.Fprintf(w, "class: %s (the rules gave no reason)\n", e.Class)
	}
	fmt.Fprintln(w, "plan (cost order):")
	for i, s := range e.Steps {
		last := i == len(e.Steps)-1
		branch, cont := "├─", "│  "
		if last {
			branch, cont = "└─", "   "
		}
		why := ""
		if i+1 < len(e.Because) {
			b := e.Because[i+1]
			why = fmt.Sprintf("  <- %s(%s)", b.Rule, strings.Join(b.Premises, ", "))
		}
		fmt.Fprintf(w, "%s %d. %s [%s]%s\n", branch, i+1, s.String(), s.Role, why)
		var cs []rlm.Contingency
		for _, c := range e.Contingencies {
			if c.Step.String() == s.String() && c.Step.Role == s.Role {
				cs = append(cs, c)
			}
		}
		for j, c := range cs {
			b2 := "├─"
			if j == len(cs)-1 {
				b2 = "└─"
			}
			var fb []string
			for _, f := range c.Fallback {
				fb = append(fb, f.String())
			}
			fmt.Fprintf(w, "%s %s if %s: %s  <- %s\n", cont, b2, c.Gap, strings.Join(fb, ", "), c.Because.Rule)
		}
	}
}

func cmdTestRules(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("test-rules", stderr)
	verbose := fs.Bool("v", false, "print passing tests too")
	pos, err := parseInterleaved(fs, args)
	if err != nil {
		return err
	}
	opts := engine.Options{Rules: rules.FS, RulesLabel: "rules"}
	if len(pos) > 1 {
		return usageError{"at most one DIR"}
	}
	if len(pos) == 1 {
		opts.UserDir = pos[0]
	}
	x, err := rlm.NewExpert(rlm.ExpertOptions{RulesDir: opts.UserDir})
	if err != nil {
		return err
	}
	e := x.Engine()
	passed, failed := 0, 0
	for _, src := range e.TestSources() {
		res, err := e.RunTests(ctx, src)
		if err != nil {
			return err
		}
		for _, r := range res {
			if r.Passed {
				passed++
				if *verbose {
					fmt.Fprintln(stdout, r.String())
				}
				continue
			}
			failed++
			fmt.Fprintln(stdout, "FAIL "+r.String())
		}
	}
	fmt.Fprintf(stdout, "%d passed, %d failed\n", passed, failed)
	if failed > 0 {
		return fmt.Errorf("%d rule test(s) failed", failed)
	}
	if passed == 0 {
		return fmt.Errorf("no rule tests found")
	}
	return nil
}
