package chroma

import (
	"context"
	"fmt"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	"github.com/rlm-dev/rlm/retrieval"
)

// Space is the HNSW distance space of a collection.
type Space string

// Distance spaces (Chroma's "hnsw:space" / configuration.hnsw.space).
const (
	Cosine       Space = "cosine" // default
	L2           Space = "l2"
	InnerProduct Space = "ip"
)

// HNSW holds Chroma's HNSW index parameters (configuration.hnsw). Higher
// values trade write/query time for recall.
type HNSW struct {
	EfConstruction int // candidate list size while building (Chroma default 100)
	EfSearch       int // candidate list size while querying (Chroma default 100; ours DefaultEfSearch)
	MaxNeighbors   int // graph degree, "M" (Chroma default 16)
}

// ScoreInnerProduct is the score kind of hits from an InnerProduct
// collection: the dot product of query and record vectors, higher is better.
// (retrieval has no kind for it; rank fusion never compares raw scores.)
const ScoreInnerProduct retrieval.ScoreKind = "inner_product"

// Defaults and bounds.
const (
	DefaultTenant           = "default_tenant"
	DefaultDatabase         = "default_database"
	DefaultCollectionPrefix = "rlm"
	DefaultTimeout          = 60 * time.Second
	// DefaultBatchSize bounds records per upsert/get/delete request; the
	// server's max_batch_size (GET /api/v2/pre-flight-checks) caps it.
	DefaultBatchSize = 1000
	// DefaultMaxRequestBytes bounds the estimated size of one write request
	// body; batches are split further to stay under it.
	DefaultMaxRequestBytes = 16 << 20
	// DefaultMaxResponseBytes bounds one response body.
	DefaultMaxResponseBytes = 256 << 20
	DefaultEmbedBatchSize   = 64
	// DefaultEfSearch replaces Chroma's ef_search of 100. Against exact
	// cosine top-10 on 2,000 random 384-dim vectors (20 queries), ef 100
	// gave a mean overlap of 9.25/10 with a worst query at 6/10, ef 200 a
	// mean of 9.9 but occasionally a query at 8/10, ef 400 10/10; query time
	// roughly doubles from 100 to 400 (a few ms at 10k vectors).
	DefaultEfSearch = 400
	// DefaultMaxScan bounds the records examined for one Exact or
	// Structural search or fetched for one vector search when a path prefix
	// must be checked on the client.
	DefaultMaxScan = 100_000
)

// Config configures a Backend. URL and either Embedder or Model+Dimensions
// are required; everything else has a default.
type Config struct {
	// URL is the server's base URL, e.g. "http://127.0.0.1:8000" (no
	// credentials, no query).
	URL string
	// Tenant and Database, created if missing (names of 3+ characters).
	Tenant, Database string
	// CollectionPrefix starts every collection name (default "rlm"); use it
	// to keep projects apart: [a-zA-Z0-9][a-zA-Z0-9._-]{0,63}.
	CollectionPrefix string
	// Namespace, if set, names the project whose records the collection
	// holds ([a-zA-Z0-9][a-zA-Z0-9._-]{0,63}): it becomes part of the
	// collection name (prefix-namespace-model-...), so two trees whose
	// files share relative paths never overwrite each other's records.
	// Empty: one collection per prefix, model, dimensions and space.
	// project.Open sets it to the tree's namespace unless given.
	Namespace string
	// Embedder embeds Document.Text on Upsert and Request.Text on Search.
	// Without one, only UpsertVectors, QueryVector, Fetch, Delete, Exact and
	// Structural work, and Model and Dimensions must be set. Its model id
	// and dimensions must be known (retrieval.CheckEmbedder): Open refuses
	// an embedder that reports 0 dimensions (a remote embedder with none
	// configured) with an error wrapping retrieval.ErrBadRequest.
	Embedder retrieval.Embedder
	// Model and Dimensions identify the vectors when Embedder is nil; when
	// it is set they must be empty/zero or equal to its values.
	Model      string
	Dimensions int
	// Space is the distance space (default Cosine).
	Space Space
	// HNSW tunes the index. EfConstruction and MaxNeighbors apply when the
	// collection is created (zero: server default); EfSearch (zero:
	// DefaultEfSearch) is also applied to an existing collection at Open.
	HNSW HNSW
	// HTTPClient is used for every request (default: a private clone of
	// http.DefaultTransport). Its own Timeout, if any, also applies.
	HTTPClient *http.Client
	// Timeout bounds each HTTP request (default DefaultTimeout; negative: no
	// per-request bound beyond the caller's context).
	Timeout time.Duration
	// BatchSize bounds records per request (default DefaultBatchSize,
	// capped by the server's max_batch_size).
	BatchSize int
	// MaxRequestBytes bounds the estimated body of one write request.
	MaxRequestBytes int
	// MaxResponseBytes bounds one response body (default 256 MiB).
	MaxResponseBytes int64
	// EmbedBatchSize bounds texts per Embedder.Embed call (default 64).
	EmbedBatchSize int
	// MaxScan: see DefaultMaxScan.
	MaxScan int
	// TokenEnv names an environment variable holding a Chroma token, read at
	// each request and sent as X-Chroma-Token. The token never appears in
	// errors.
	TokenEnv string
	// Limits bound what one record keeps in the collection itself; what
	// does not fit is kept in the overflow collection (see Limits; zero
	// fields take its defaults, CloudLimits are Chroma Cloud's quotas).
	Limits Limits
	// NoBase64 sends embeddings as JSON float arrays even when the server
	// supports base64-encoded float32 (the default when supported).
	NoBase64 bool
}

// Backend is a retrieval.Backend over one Chroma collection. It is safe for
// concurrent use.
type Backend struct {
	c        *client
	embedder retrieval.Embedder
	model    string
	dims     int
	space    Space
	hnsw     HNSW
	name     string
	tenant   string
	database string
	batch    int
	maxReq   int
	embedN   int
	maxScan  int
	base64   bool
	limits   Limits
	closed   atomic.Bool

	mu     sync.Mutex
	collID string
	ovfID  string // the overflow collection's id, once known
}

var _ retrieval.Backend = (*Backend)(nil)

// Open checks the server (heartbeat, pre-flight limits), creates the tenant,
// database and collection if missing, and verifies an existing collection
// matches the embedder. Errors are *Error for server and transport failures,
// ErrMismatch for a collection of another embedder, or wrap
// retrieval.ErrBadRequest for a bad Config.
func Open(ctx context.Context, cfg Config) (*Backend, error) {
	b, err := newBackend(cfg)
	if err != nil {
		return nil, err
	}
	if err := b.c.do(ctx, "heartbeat", http.MethodGet, "/api/v2/heartbeat", nil, nil); err != nil {
		b.c.close()
		return nil, err
	}
	var pf struct {
		MaxBatchSize           *int  `json:"max_batch_size"`
		SupportsBase64Encoding *bool `json:"supports_base64_encoding"`
	}
	switch err := b.c.do(ctx, "pre-flight checks", http.MethodGet, "/api/v2/pre-flight-checks", nil, &pf); {
	case err == nil:
		if pf.MaxBatchSize != nil && *pf.MaxBatchSize > 0 && *pf.MaxBatchSize < b.batch {
			b.batch = *pf.MaxBatchSize
		}
		b.base64 = b.base64 && pf.SupportsBase64Encoding != nil && *pf.SupportsBase64Encoding
	case isNotFound(err):
		b.base64 = false // older server: no limits advertised
	default:
		b.c.close()
		return nil, err
	}
	if err := b.ensureTenantDatabase(ctx); err != nil {
		b.c.close()
		return nil, err
	}
	if _, err := b.collection(ctx); err != nil {
		b.c.close()
		return nil, err
	}
	return b, nil
}

func newBackend(cfg Config) (*Backend, error) {
	bad := func(format string, a ...any) error {
		return fmt.Errorf("%w: chroma config: %s", retrieval.ErrBadRequest, fmt.Sprintf(format, a...))
	}
	b := &Backend{
		embedder: cfg.Embedder,
		model:    cfg.Model,
		dims:     cfg.Dimensions,
		space:    cfg.Space,
		hnsw:     cfg.HNSW,
		tenant:   cfg.Tenant,
		database: cfg.Database,
		batch:    cfg.BatchSize,
		maxReq:   cfg.MaxRequestBytes,
		embedN:   cfg.EmbedBatchSize,
		maxScan:  cfg.MaxScan,
		base64:   !cfg.NoBase64,
		limits:   cfg.Limits.withDefaults(),
	}
	if e := cfg.Embedder; e != nil {
		if err := retrieval.CheckEmbedder(e); err != nil {
			return nil, fmt.Errorf("chroma config: %w", err)
		}
		if b.model != "" && b.model != e.Model() {
			return nil, bad("Model %q differs from Embedder.Model() %q", b.model, e.Model())
		}
		if b.dims != 0 && b.dims != e.Dimensions() {
			return nil, bad("Dimensions %d differs from Embedder.Dimensions() %d", b.dims, e.Dimensions())
		}
		b.model, b.dims = e.Model(), e.Dimensions()
	}
	if b.model == "" || b.dims <= 0 {
		return nil, bad("need an Embedder or Model and Dimensions > 0")
	}
	if b.dims > retrieval.MaxDimensions {
		return nil, bad("Dimensions %d over %d", b.dims, retrieval.MaxDimensions)
	}
	switch b.space {
	case "":
		b.space = Cosine
	case Cosine, L2, InnerProduct:
	default:
		return nil, bad("unknown Space %q (want cosine, l2 or ip)", b.space)
	}
	if b.tenant == "" {
		b.tenant = DefaultTenant
	}
	if b.database == "" {
		b.database = DefaultDatabase
	}
	prefix := cfg.CollectionPrefix
	if prefix == "" {
		prefix = DefaultCollectionPrefix
	}
	if !namePartRE.MatchString(prefix) {
		return nil, bad("CollectionPrefix %q: want [a-zA-Z0-9][a-zA-Z0-9._-]{0,63}", prefix)
	}
	if cfg.Namespace != "" {
		if !namePartRE.MatchString(cfg.Namespace) {
			return nil, bad("Namespace %q: want [a-zA-Z0-9][a-zA-Z0-9._-]{0,63}", cfg.Namespace)
		}
		prefix += "-" + cfg.Namespace
	}
	b.name = CollectionName(prefix, b.model, b.dims, b.space)
	if l := b.limits.MaxIDBytes; l < 0 || l > 0 && l < HashedIDBytes {
		return nil, bad("Limits.MaxIDBytes %d: want 0 (no bound) or at least %d, a hashed id's length", l, HashedIDBytes)
	}
	if b.batch <= 0 {
		b.batch = DefaultBatchSize
	}
	if b.maxReq <= 0 {
		b.maxReq = DefaultMaxRequestBytes
	}
	if b.embedN <= 0 {
		b.embedN = DefaultEmbedBatchSize
	}
	if b.maxScan <= 0 {
		b.maxScan = DefaultMaxScan
	}
	if b.hnsw.EfSearch <= 0 {
		b.hnsw.EfSearch = DefaultEfSearch
	}
	if cfg.Timeout == 0 {
		cfg.Timeout = DefaultTimeout
	}
	if cfg.MaxResponseBytes <= 0 {
		cfg.MaxResponseBytes = DefaultMaxResponseBytes
	}
	c, err := newClient(cfg)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", retrieval.ErrBadRequest, err)
	}
	b.c = c
	return b, nil
}

// CollectionName is the name of this backend's collection.
func (b *Backend) CollectionName() string { return b.name }

// Model is the embedder model id the collection's vectors come from.
func (b *Backend) Model() string { return b.model }

// Dimensions is the length of every vector in the collection.
func (b *Backend) Dimensions() int { return b.dims }

// Space is the collection's distance space.
func (b *Backend) Space() Space { return b.space }

// BatchSize is the effective maximum of records per request (Config.BatchSize
// capped by the server's max_batch_size).
func (b *Backend) BatchSize() int { return b.batch }

// Capabilities: Exact and Structural always, Vector when an Embedder is
// configured (QueryVector works regardless); filters on all of them.
func (b *Backend) Capabilities() retrieval.Capabilities {
	s := []retrieval.Strategy{retrieval.Exact}
	if b.embedder != nil {
		s = append(s, retrieval.Vector)
	}
	s = append(s, retrieval.Structural)
	return retrieval.Capabilities{Strategies: s, Filters: true, MaxLimit: retrieval.MaxLimit,
		Embedder: retrieval.EmbedderNature(b.embedder)}
}

// Close releases idle connections; later calls return ErrClosed. It does not
// touch the server's data.
func (b *Backend) Close() error {
	if b.closed.CompareAndSwap(false, true) {
		b.c.close()
	}
	return nil
}

func (b *Backend) check() error {
	if b.closed.Load() {
		return ErrClosed
	}
	return nil
}
