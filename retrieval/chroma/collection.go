package chroma

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"strings"
)

var namePartRE = regexp.MustCompile(`^[a-zA-Z0-9][a-zA-Z0-9._-]{0,63}$`)

// CollectionName returns the collection name for (prefix, model, dims,
// space): prefix-<model, sanitised, ≤64 chars>-<dims>d-<space>-<8 hex of
// SHA-256 over the exact values>. Different inputs give different names even
// when sanitising makes the readable parts equal. The result satisfies
// Chroma's rule (3–512 characters of [a-zA-Z0-9._-], alphanumeric at both
// ends).
func CollectionName(prefix, model string, dims int, space Space) string {
	sum := sha256.Sum256([]byte(prefix + "\x00" + model + "\x00" + strconv.Itoa(dims) + "\x00" + string(space)))
	var b strings.Builder
	dash := false
	for _, r := range model {
		ok := r < 128 && (r == '.' || r == '_' || r == '-' || (r >= '0' && r <= '9') || (r >= 'a' && r <= 'z') || (r >= 'A' && r <= 'Z'))
		if !ok {
			r = '-'
		}
		if r == '-' {
			if dash {
				continue
			}
			dash = true
		} else {
			dash = false
		}
		b.WriteRune(r)
	}
	m := b.String()
	if len(m) > 64 {
		m = m[:64]
	}
	m = strings.Trim(m, "-._")
	if m == "" {
		m = "model"
	}
	return fmt.Sprintf("%s-%s-%dd-%s-%s", prefix, m, dims, space, hex.EncodeToString(sum[:4]))
}

func (b *Backend) dbPath() string {
	return "/api/v2/tenants/" + url.PathEscape(b.tenant) + "/databases/" + url.PathEscape(b.database)
}

func (b *Backend) ensureTenantDatabase(ctx context.Context) error {
	tp := "/api/v2/tenants/" + url.PathEscape(b.tenant)
	err := b.c.do(ctx, "get tenant", http.MethodGet, tp, nil, nil)
	if isNotFound(err) {
		err = b.c.do(ctx, "create tenant", http.MethodPost, "/api/v2/tenants", map[string]any{"name": b.tenant}, nil)
		if isConflict(err) {
			err = nil // created concurrently
		}
	}
	if err != nil {
		return err
	}
	err = b.c.do(ctx, "get database", http.MethodGet, b.dbPath(), nil, nil)
	if isNotFound(err) {
		err = b.c.do(ctx, "create database", http.MethodPost, tp+"/databases", map[string]any{"name": b.database}, nil)
		if isConflict(err) {
			err = nil
		}
	}
	return err
}

func isConflict(err error) bool {
	var e *Error
	return errors.As(err, &e) && e.Status == http.StatusConflict
}

type spaceConf struct {
	Space    *string `json:"space"`
	EfSearch *int    `json:"ef_search"`
}

type collectionInfo struct {
	ID                string         `json:"id"`
	Name              string         `json:"name"`
	Metadata          map[string]any `json:"metadata"`
	Dimension         *int           `json:"dimension"`
	ConfigurationJSON *struct {
		HNSW  *spaceConf `json:"hnsw"`
		SPANN *spaceConf `json:"spann"`
	} `json:"configuration_json"`
}

// Collection metadata keys recording what the vectors are.
const (
	collMetaModel = "rlm:model"
	collMetaDims  = "rlm:dimensions"
	collMetaSpace = "rlm:space"
)

// collection returns the collection id, creating the collection if needed.
func (b *Backend) collection(ctx context.Context) (string, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.collID != "" {
		return b.collID, nil
	}
	body := map[string]any{
		"name":          b.name,
		"get_or_create": true,
		"configuration": map[string]any{"hnsw": b.hnswConfig()},
		"metadata": map[string]any{
			collMetaModel: b.model,
			collMetaDims:  b.dims,
			collMetaSpace: string(b.space),
		},
	}
	var info collectionInfo
	if err := b.c.do(ctx, "create collection", http.MethodPost, b.dbPath()+"/collections", body, &info); err != nil {
		return "", err
	}
	if err := b.verify(info); err != nil {
		return "", err
	}
	// ef_search is a query-time setting: bring an existing collection to
	// the configured value.
	if cj := info.ConfigurationJSON; b.hnsw.EfSearch > 0 && cj != nil && cj.HNSW != nil &&
		cj.HNSW.EfSearch != nil && *cj.HNSW.EfSearch != b.hnsw.EfSearch {
		upd := map[string]any{"new_configuration": map[string]any{"hnsw": map[string]any{"ef_search": b.hnsw.EfSearch}}}
		if err := b.c.do(ctx, "update collection", http.MethodPut, b.dbPath()+"/collections/"+url.PathEscape(info.ID), upd, nil); err != nil {
			return "", err
		}
	}
	b.collID = info.ID
	return b.collID, nil
}

func (b *Backend) hnswConfig() map[string]any {
	m := map[string]any{"space": string(b.space)}
	if b.hnsw.EfConstruction > 0 {
		m["ef_construction"] = b.hnsw.EfConstruction
	}
	if b.hnsw.EfSearch > 0 {
		m["ef_search"] = b.hnsw.EfSearch
	}
	if b.hnsw.MaxNeighbors > 0 {
		m["max_neighbors"] = b.hnsw.MaxNeighbors
	}
	return m
}

// verify refuses a collection recorded for another model, size or space.
func (b *Backend) verify(info collectionInfo) error {
	if info.ID == "" {
		return &Error{Op: "create collection", Status: 200, Kind: KindMalformed, Message: "collection without id"}
	}
	mismatch := func(what string, got, want any) error {
		return fmt.Errorf("%w: collection %q has %s %v, want %v", ErrMismatch, b.name, what, got, want)
	}
	if v, ok := info.Metadata[collMetaModel]; ok && v != b.model {
		return mismatch("model", v, b.model)
	}
	if v, ok := info.Metadata[collMetaDims]; ok {
		if n, err := integer(v); err != nil || n != b.dims {
			return mismatch("dimensions", v, b.dims)
		}
	}
	if info.Dimension != nil && *info.Dimension != b.dims {
		return mismatch("vector dimension", *info.Dimension, b.dims)
	}
	space := ""
	if cj := info.ConfigurationJSON; cj != nil {
		if cj.HNSW != nil && cj.HNSW.Space != nil {
			space = *cj.HNSW.Space
		} else if cj.SPANN != nil && cj.SPANN.Space != nil {
			space = *cj.SPANN.Space
		}
	}
	if space == "" {
		if s, ok := info.Metadata["hnsw:space"].(string); ok {
			space = s
		} else {
			space = string(L2) // Chroma's default
		}
	}
	if Space(space) != b.space {
		return mismatch("space", space, b.space)
	}
	return nil
}

// withCollection runs f with the collection id; if the server says the
// collection is gone (deleted behind our back), it re-resolves once.
func (b *Backend) withCollection(ctx context.Context, f func(base string) error) error {
	if err := b.check(); err != nil {
		return err
	}
	return b.withResolved(func() (string, error) { return b.collection(ctx) }, &b.collID, f)
}

// withResolved runs f with the base URL of the collection resolve names
// (resolve gives "" for none: f is not run). If the server says that
// collection is gone (deleted behind our back), it forgets the id cached
// in *cached (guarded by b.mu) and resolves once more.
func (b *Backend) withResolved(resolve func() (string, error), cached *string, f func(base string) error) error {
	for attempt := 0; ; attempt++ {
		id, err := resolve()
		if err != nil || id == "" {
			return err
		}
		err = f(b.dbPath() + "/collections/" + url.PathEscape(id))
		if attempt == 0 && isNotFound(err) {
			b.mu.Lock()
			if *cached == id {
				*cached = ""
			}
			b.mu.Unlock()
			continue
		}
		return err
	}
}

// Count returns the number of records in the collection.
func (b *Backend) Count(ctx context.Context) (int, error) {
	var n int
	err := b.withCollection(ctx, func(base string) error {
		return b.c.do(ctx, "count", http.MethodGet, base+"/count", nil, &n)
	})
	return n, err
}

// DeleteCollection drops this backend's collection and all its records,
// and its overflow collection (e.g. after an embedder change made it
// obsolete). A later call recreates it empty.
func (b *Backend) DeleteCollection(ctx context.Context) error {
	if err := b.check(); err != nil {
		return err
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	err := b.c.do(ctx, "delete collection", http.MethodDelete, b.dbPath()+"/collections/"+url.PathEscape(b.name), nil, nil)
	if isNotFound(err) {
		err = nil
	}
	if err == nil {
		b.collID = ""
		err = b.c.do(ctx, "delete overflow collection", http.MethodDelete, b.dbPath()+"/collections/"+url.PathEscape(OverflowCollectionName(b.name)), nil, nil)
		if isNotFound(err) {
			err = nil
		}
	}
	if err == nil {
		b.ovfID = ""
	}
	return err
}
