package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/rlm-dev/rlm"
	"github.com/rlm-dev/rlm/internal/testfixture"
)

// chromaGet decodes the JSON answer of a Chroma API call (GET without a
// body, POST with one) into v.
func chromaGet(t *testing.T, method, u string, body any, v any) {
	t.Helper()
	var rd *bytes.Reader
	if body != nil {
		b, _ := json.Marshal(body)
		rd = bytes.NewReader(b)
	} else {
		rd = bytes.NewReader(nil)
	}
	req, err := http.NewRequest(method, u, rd)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("%s %s: %s", method, u, resp.Status)
	}
	if err := json.NewDecoder(resp.Body).Decode(v); err != nil {
		t.Fatalf("%s %s: %v", method, u, err)
	}
}

// TestTheChromaFlagsChooseTenantDatabaseAndCloudBounds indexes a tree whose
// deepest definition has an id over Chroma Cloud's 128 bytes, with
// --chroma-tenant, --chroma-database and --chroma-limits cloud, against a
// real server; the server itself is asked what it holds: the tree's
// collection is in that tenant and database, and no record id there is
// over the Cloud bound.
func TestTheChromaFlagsChooseTenantDatabaseAndCloudBounds(t *testing.T) {
	base := testfixture.ChromaURL(t)
	deep := strings.Repeat("averyverylongdirectoryname/", 5) + "pkg/deep.go"
	root := testfixture.WriteTree(t, map[string]string{
		"go.mod": "module example.com/deep\n\ngo 1.22\n",
		deep:     "package pkg\n\n// ReconcileTheOverflowCollectionAfterAnInterruptedUpsert is long.\nfunc ReconcileTheOverflowCollectionAfterAnInterruptedUpsert() {}\n",
	})
	tenant := testfixture.UniquePrefix("rlm_cli_tenant_")
	database := testfixture.UniquePrefix("rlm_cli_db_")
	_, errs, code := runCLI(t, "", "index", "--root", root, "--backend", "chroma", "--chroma-url", base,
		"--chroma-tenant", tenant, "--chroma-database", database, "--chroma-limits", "cloud")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	dbURL := strings.TrimRight(base, "/") + "/api/v2/tenants/" + url.PathEscape(tenant) + "/databases/" + url.PathEscape(database)
	var colls []struct {
		ID   string `json:"id"`
		Name string `json:"name"`
	}
	chromaGet(t, http.MethodGet, dbURL+"/collections", nil, &colls)
	var ids []string
	for _, c := range colls {
		var got struct {
			IDs []string `json:"ids"`
		}
		chromaGet(t, http.MethodPost, dbURL+"/collections/"+c.ID+"/get", map[string]any{"include": []string{}}, &got)
		ids = append(ids, got.IDs...)
	}
	if len(ids) == 0 {
		t.Fatalf("no records in tenant %s database %s (collections %v): the flags did not reach the server", tenant, database, colls)
	}
	long := 0
	for _, id := range ids {
		if len(id) > 128 {
			t.Errorf("record id of %d bytes over Chroma Cloud's 128: %q", len(id), id)
		}
		if strings.HasPrefix(id, "#sha256:") {
			long++
		}
	}
	if long == 0 {
		t.Errorf("no record stored under a hashed id, though %s's definition id is over 128 bytes: ids %v", deep, ids)
	}
}

// TestTheChromaTokenIsSentFromTheNamedVariableAndNeverShown runs a search
// against a fake Chroma that refuses every request: the token reaches it
// as X-Chroma-Token, and neither the output nor the error shows it.
func TestTheChromaTokenIsSentFromTheNamedVariableAndNeverShown(t *testing.T) {
	const token = "ck-s3cr3t-chroma-token"
	t.Setenv("RLM_TEST_CHROMA_API_KEY", token)
	var mu sync.Mutex
	var seen []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		seen = append(seen, r.Header.Get("X-Chroma-Token"))
		mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusUnauthorized)
		_, _ = w.Write([]byte(`{"error":"AuthError","message":"bad token"}`))
	}))
	defer srv.Close()
	out, errs, code := runCLI(t, "", "search", "--root", sample, "--backend", "chroma", "--chroma-url", srv.URL,
		"--chroma-token-env", "RLM_TEST_CHROMA_API_KEY", "where is Fetch defined?")
	if code != 1 {
		t.Errorf("exit %d, want 1 (the server refuses): %s", code, errs)
	}
	if strings.Contains(out+errs, token) || strings.Contains(out+errs, "s3cr3t") {
		t.Fatalf("the token is shown:\n%s\n%s", out, errs)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(seen) == 0 {
		t.Fatal("no request reached the server")
	}
	for i, s := range seen {
		if s != token {
			t.Errorf("request %d: X-Chroma-Token %q, want the variable's token", i, s)
		}
	}
}

func TestChromaFlagErrorsAreUsageErrors(t *testing.T) {
	t.Setenv("RLM_TEST_CHROMA_UNSET", "")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--chroma-token-env", "RLM_TEST_CHROMA_UNSET"}, "RLM_TEST_CHROMA_UNSET: the variable is not set"},
		{[]string{"--chroma-limits", "huge"}, `--chroma-limits "huge"`},
	} {
		args := append([]string{"search", "--root", sample, "--backend", "chroma", "--chroma-url", "http://127.0.0.1:1"}, c.args...)
		_, errs, code := runCLI(t, "", append(args, "x")...)
		if code != 2 || !strings.Contains(errs, c.want) {
			t.Errorf("%v: exit %d, want 2 with %q: %s", c.args, code, c.want, errs)
		}
	}
}

func TestChromaLimitsFollowTheFlagAndTheHost(t *testing.T) {
	cloud := rlm.ChromaCloudLimits()
	for _, c := range []struct {
		url, limits string
		want        rlm.ChromaLimits
	}{
		{"http://127.0.0.1:8000", "auto", rlm.ChromaLimits{}},
		{"https://api.trychroma.com", "auto", cloud},
		{"https://API.TryChroma.com:443", "auto", cloud},
		{"https://trychroma.com.example.org", "auto", rlm.ChromaLimits{}},
		{"https://nottrychroma.com", "auto", rlm.ChromaLimits{}},
		{"https://api.trychroma.com", "server", rlm.ChromaLimits{}},
		{"http://127.0.0.1:8000", "cloud", cloud},
	} {
		b := &backendFlags{chromaURL: c.url, chromaLimits: c.limits, chromaTokenEnv: defaultChromaTokenEnv}
		cfg, err := b.chromaConfig()
		if err != nil {
			t.Fatalf("%s %s: %v", c.url, c.limits, err)
		}
		if diff := cmp.Diff(c.want, cfg.Limits); diff != "" {
			t.Errorf("%s --chroma-limits %s (-want +got):\n%s", c.url, c.limits, diff)
		}
	}
	var u usageError
	if _, err := (&backendFlags{chromaURL: "http://x", chromaLimits: "big", chromaTokenEnv: defaultChromaTokenEnv}).chromaConfig(); !errors.As(err, &u) {
		t.Errorf("a bad --chroma-limits: %v, want a usage error", err)
	}
}
