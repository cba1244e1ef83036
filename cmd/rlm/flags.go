package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/url"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/mattn/go-isatty"
	"github.com/schollz/progressbar/v3"

	"github.com/rlm-dev/rlm"
)

func newFlags(name string, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet("rlm "+name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	return fs
}

// parseFlags parses the flags, which must come before the query:
// everything from the first non-flag argument on is query text, so a query
// that starts with "-" (or looks like a flag) is never read as one. "--"
// also ends the flags.
//
// Flags end at the first argument that is not one (the query), so a flag
// written after the query is query text: each argument after it that
// names one of fs's flags gets a note on fs's output saying so — unless
// "--" ended the flags, which says the query is meant as written.
func parseFlags(fs *flag.FlagSet, args []string) ([]string, error) {
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return nil, err
		}
		return nil, usageError{err.Error()}
	}
	if n := len(args) - fs.NArg(); n > 0 && args[n-1] == "--" {
		return fs.Args(), nil // the flags were ended on purpose
	}
	for _, a := range fs.Args() {
		name, _, _ := strings.Cut(strings.TrimLeft(a, "-"), "=")
		if strings.HasPrefix(a, "-") && name != "" && fs.Lookup(name) != nil {
			fmt.Fprintf(fs.Output(), "%s: note: %q after the query is read as query text; flags go before it\n", fs.Name(), a)
		}
	}
	return fs.Args(), nil
}

// backendFlags choose the rules, the knowledge base, the retrieval backend
// and the embedder; shared by search, explain, index, status and repl.
type backendFlags struct {
	rules                             string
	backend, chromaURL, embedder      string
	chromaTenant, chromaDatabase      string
	chromaTokenEnv, chromaLimits      string
	embedURL, embedModel, embedKeyEnv string
	embedDims                         int
	db                                string
	inMemory, requireCurrent          bool
	includeIgnored                    bool
	memory, cases                     bool
	maxFileBytes                      int64
}

func addRulesFlag(fs *flag.FlagSet, b *backendFlags) {
	fs.StringVar(&b.rules, "rules", "", "directory of .pl files layered over the default rules (see rlm rules dump)")
}

func addBackendFlags(fs *flag.FlagSet) *backendFlags {
	b := &backendFlags{}
	addRulesFlag(fs, b)
	addEmbedderFlags(fs, b)
	fs.StringVar(&b.db, "db", "", "knowledge base file (default ROOT/.rlm/kb.sqlite); search indexes are kept beside it")
	fs.BoolVar(&b.inMemory, "in-memory", false, "keep the knowledge base in a temporary directory for this command; write nothing under ROOT")
	fs.BoolVar(&b.requireCurrent, "require-current", false, "refuse to answer if any file is stale, partial or unparsable")
	fs.BoolVar(&b.includeIgnored, "include-ignored", false, "also index files that .gitignore, .ignore or .git/info/exclude exclude")
	fs.BoolVar(&b.memory, "memory", false, "keep answers as conclusions beside the knowledge base (tms.sqlite): a repeated question is served while its answer is IN")
	fs.BoolVar(&b.cases, "cases", false, "keep cases beside the knowledge base (cases.sqlite): a similar later question reuses the steps that found its evidence")
	addMaxFileBytesFlag(fs, &b.maxFileBytes)
	return b
}

// addMaxFileBytesFlag is the size cap, shared by the commands that check
// the files (index, search, repl, status).
func addMaxFileBytesFlag(fs *flag.FlagSet, v *int64) {
	fs.Int64Var(v, "max-file-bytes", 0, "size cap: files larger than this are skipped, not parsed, and answers say so (0: the cap this knowledge base was last given, at first 4 MiB; negative: no cap); kept for later commands")
}

// addEmbedderFlags are the flags that decide the backend's capabilities,
// which explain needs too so that it plans what search would run.
func addEmbedderFlags(fs *flag.FlagSet, b *backendFlags) {
	fs.StringVar(&b.backend, "backend", "embedded", "retrieval backend: embedded (SQLite, no server) or chroma (vectors in a Chroma server)")
	fs.StringVar(&b.chromaURL, "chroma-url", os.Getenv("RLM_CHROMA_URL"), "Chroma server URL for --backend chroma (default $RLM_CHROMA_URL)")
	fs.StringVar(&b.chromaTenant, "chroma-tenant", os.Getenv("RLM_CHROMA_TENANT"), "Chroma tenant, created if missing (default $RLM_CHROMA_TENANT, else the server's default_tenant)")
	fs.StringVar(&b.chromaDatabase, "chroma-database", os.Getenv("RLM_CHROMA_DATABASE"), "Chroma database, created if missing (default $RLM_CHROMA_DATABASE, else default_database)")
	fs.StringVar(&b.chromaTokenEnv, "chroma-token-env", defaultChromaTokenEnv, "name of the environment variable holding a Chroma token, sent as X-Chroma-Token (Chroma Cloud: its API key); the token itself is never a flag")
	fs.StringVar(&b.chromaLimits, "chroma-limits", "auto", "per-record bounds of the Chroma server: server (a self-hosted Chroma), cloud (Chroma Cloud's quotas), or auto (cloud for a *.trychroma.com URL, else server)")
	fs.StringVar(&b.embedder, "embedder", "local", "embedder for vector and hybrid search: local (offline, deterministic), openai, or none")
	fs.StringVar(&b.embedURL, "embed-url", "https://api.openai.com/v1", "base URL of an OpenAI-compatible embeddings endpoint (--embedder openai)")
	fs.StringVar(&b.embedModel, "embed-model", "text-embedding-3-small", "embedding model (--embedder openai)")
	fs.StringVar(&b.embedKeyEnv, "embed-key-env", "OPENAI_API_KEY", "name of the environment variable holding the API key (--embedder openai)")
	fs.IntVar(&b.embedDims, "embed-dims", 1536, "dimensions of the embedding model (--embedder openai)")
}

// options turns the flags into façade options.
func (b *backendFlags) options() (rlm.Options, error) {
	opts := rlm.Options{Rules: b.rules, DBPath: b.db, InMemory: b.inMemory, RequireCurrent: b.requireCurrent, IncludeIgnored: b.includeIgnored,
		Memory: b.memory, Cases: b.cases, MaxFileBytes: b.maxFileBytes}
	if b.inMemory && b.requireCurrent {
		return opts, usageError{"--require-current needs the persistent knowledge base (drop --in-memory)"}
	}
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
		cfg, err := b.chromaConfig()
		if err != nil {
			return opts, err
		}
		opts.Chroma = cfg
	default:
		return opts, usageError{fmt.Sprintf("--backend %q: want embedded or chroma", b.backend)}
	}
	return opts, nil
}

// checkRoot refuses a missing or non-directory --root as a usage error.
func checkRoot(root string) error {
	if root == "" {
		return usageError{"--root DIR is required"}
	}
	if st, err := os.Stat(root); err != nil || !st.IsDir() {
		return usageError{fmt.Sprintf("--root %s is not a directory", root)}
	}
	return nil
}

// openProject opens root with the flags' options. On a terminal, once the
// work has taken over a second, it shows a progress bar while files are
// checked and while the search index is built or updated.
func openProject(ctx context.Context, root string, bf *backendFlags, stderr io.Writer) (*rlm.Project, error) {
	if err := checkRoot(root); err != nil {
		return nil, err
	}
	opts, err := bf.options()
	if err != nil {
		return nil, err
	}
	pr := newProgress(stderr)
	opts.Progress = pr.report
	p, err := rlm.Open(ctx, root, opts)
	pr.finish() // later refreshes (one per query) stay quiet
	if err == nil && p.VectorsUnavailable() != "" {
		fmt.Fprintf(stderr, "rlm: warning: the search index has no vectors, %s: vector and hybrid steps are skipped\n", p.VectorsUnavailable())
	}
	return p, err
}

// progress shows a bar for each phase that reports files (the check, the
// search index build or update), on a terminal only, and only once the
// work (the check: since the start; a search index phase: since it began)
// has taken over a second.
type progress struct {
	mu         sync.Mutex
	w          io.Writer
	tty        bool
	now        func() time.Time
	start      time.Time
	phase      string    // the phase of bar or of phaseStart
	phaseStart time.Time // when the search index phase began
	bar        *progressbar.ProgressBar
	done       bool
}

func newProgress(w io.Writer) *progress {
	p := &progress{w: w, now: time.Now}
	p.start = p.now()
	if f, ok := w.(*os.File); ok && isatty.IsTerminal(f.Fd()) {
		p.tty = true
	}
	return p
}

// progressLabels describe the phases that show a bar.
var progressLabels = map[string]string{
	"check":  "checking files",
	"build":  "building the search index (files)",
	"update": "updating the search index (changed files)",
}

func (p *progress) report(e rlm.Progress) {
	if !p.tty {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.done {
		return
	}
	label, ok := progressLabels[e.Phase]
	if !ok {
		p.finishBar()
		return
	}
	if e.Phase != p.phase {
		p.finishBar()
		p.phase, p.phaseStart = e.Phase, p.now()
	}
	if p.bar == nil {
		since := p.phaseStart
		if e.Phase == "check" {
			since = p.start
		}
		if p.now().Sub(since) < time.Second {
			return
		}
		p.bar = progressbar.NewOptions(e.Total,
			progressbar.OptionSetWriter(p.w),
			progressbar.OptionSetDescription(label),
			progressbar.OptionShowCount(),
			progressbar.OptionSetPredictTime(true),
			progressbar.OptionThrottle(100*time.Millisecond),
			progressbar.OptionClearOnFinish())
	}
	_ = p.bar.Set(e.Done)
}

func (p *progress) finishBar() {
	if p.bar != nil {
		_ = p.bar.Finish()
		p.bar = nil
	}
}

func (p *progress) finish() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.finishBar()
	p.done = true
}

// withTimeout derives a per-query context; d <= 0 means no limit.
func withTimeout(ctx context.Context, d time.Duration) (context.Context, context.CancelFunc) {
	if d <= 0 {
		return context.WithCancel(ctx)
	}
	return context.WithTimeout(ctx, d)
}

// defaultChromaTokenEnv is the variable --chroma-token-env names unless
// told otherwise; unset, no token is sent (a local server needs none).
const defaultChromaTokenEnv = "RLM_CHROMA_TOKEN"

// chromaConfig is the Chroma configuration the --chroma-* flags describe.
// A token variable named on purpose (not the default) must be set: a
// request without the token would only fail later, at the server.
func (b *backendFlags) chromaConfig() (*rlm.ChromaConfig, error) {
	cfg := &rlm.ChromaConfig{URL: b.chromaURL, Tenant: b.chromaTenant, Database: b.chromaDatabase, TokenEnv: b.chromaTokenEnv}
	if b.chromaTokenEnv != defaultChromaTokenEnv && os.Getenv(b.chromaTokenEnv) == "" {
		return nil, usageError{fmt.Sprintf("--chroma-token-env %s: the variable is not set", b.chromaTokenEnv)}
	}
	switch b.chromaLimits {
	case "server":
	case "cloud":
		cfg.Limits = rlm.ChromaCloudLimits()
	case "auto":
		if isChromaCloud(b.chromaURL) {
			cfg.Limits = rlm.ChromaCloudLimits()
		}
	default:
		return nil, usageError{fmt.Sprintf("--chroma-limits %q: want server, cloud or auto", b.chromaLimits)}
	}
	return cfg, nil
}

// isChromaCloud reports whether rawURL names Chroma Cloud (a host under
// trychroma.com, e.g. api.trychroma.com).
func isChromaCloud(rawURL string) bool {
	u, err := url.Parse(rawURL)
	if err != nil {
		return false
	}
	h := strings.ToLower(u.Hostname())
	return h == "trychroma.com" || strings.HasSuffix(h, ".trychroma.com")
}
