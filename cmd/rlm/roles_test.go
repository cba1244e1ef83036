package main

import (
	"encoding/json"
	"regexp"
	"strings"
	"testing"
)

// TestSearchShowsRolesAndTheSnapshotTheAnswerCameFrom: `rlm search --json`
// gives each hit its document id, signature, doc comment, role and content
// hash, and the answer its snapshot (generation and fingerprint); the
// human output marks tests and examples and names the snapshot in one
// line each.
func TestSearchShowsRolesAndTheSnapshotTheAnswerCameFrom(t *testing.T) {
	const root = "../../testdata/roles/go"
	out, errs, code := runCLI(t, "", "search", "--root", root, "--in-memory", "--embedder", "none", "--json", "--limit", "20", "shipping cost of a parcel weight")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var a struct {
		Hits []struct {
			ID, Path, Signature, Doc, Role string
			ContentHash                    string `json:"content_hash"`
		} `json:"hits"`
		Snapshot struct {
			Generation  int64  `json:"generation"`
			Fingerprint string `json:"fingerprint"`
		} `json:"snapshot"`
	}
	if err := json.Unmarshal([]byte(out), &a); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	roles := map[string]bool{}
	for _, h := range a.Hits {
		roles[h.Role] = true
		// Every definition of the tree has a doc comment but the example
		// program's main (found by the names it calls).
		documented := !strings.HasSuffix(h.ID, "#main")
		if !strings.HasPrefix(h.ID, h.Path+"#") || h.Signature == "" || (h.Doc == "") == documented || !strings.HasPrefix(h.ContentHash, "xxh64:") {
			t.Errorf("hit %+v lacks an id, signature, doc or content hash", h)
		}
	}
	if !roles["source"] || !roles["test"] || !roles["example"] || len(roles) != 3 {
		t.Errorf("roles %v, want source, test and example", roles)
	}
	if a.Snapshot.Generation != 1 || !regexp.MustCompile(`^[0-9a-f]{16}$`).MatchString(a.Snapshot.Fingerprint) {
		t.Errorf("snapshot %+v", a.Snapshot)
	}

	out, errs, code = runCLI(t, "", "search", "--root", root, "--in-memory", "--embedder", "none", "--limit", "20", "shipping cost of a parcel weight")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, want := range []string{
		" 1. cost.go:5 ShippingCost (function) lexical\n",
		"cost_test.go:6 parcelWeightShippingCost (function) lexical [test]\n",
		"example_test.go:6 ExampleShippingCost (function) lexical [example]\n",
		"snapshot: generation 1 (fingerprint " + a.Snapshot.Fingerprint + ")\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}
