package rlm_test

import (
	"encoding/json"
	"os/exec"
	"path"
	"strings"
	"testing"
)

// layers lists, for each room of the house, the rooms of this module it
// may import (docs/ARCHITECTURE.md draws the same picture). Arrows point
// down only: the leaves (engine, retrieval, providers, sourcefacts) import
// no capability package, and only the façade, the MCP server and the CLI
// sit on top.
var layers = map[string][]string{
	"internal/*":              {"internal/*"},
	"internal/testfixture":    {"retrieval", "internal/*"}, // test helpers only
	"internal/hostile":        {"engine", "internal/*"},    // test helpers only
	"engine":                  {"internal/*"},
	"engine/ruletest":         {"engine"},
	"retrieval":               {"internal/*"},
	"retrieval/embedded":      {"retrieval", "internal/*"},
	"retrieval/chroma":        {"retrieval", "internal/*"},
	"retrieval/retrievaltest": {"retrieval", "internal/*"},
	"providers":               {"retrieval", "internal/*"},
	"sourcefacts":             {"sourcefacts/prologsrc", "internal/*"},
	"sourcefacts/prologsrc":   {"internal/*"},
	"sourcefacts/store":       {"sourcefacts", "internal/*"},
	"rules":                   {},
	"bridge":                  {"engine", "retrieval", "internal/*"},
	"planner":                 {"bridge", "engine", "retrieval", "rules", "internal/*"},
	"tms":                     {"engine", "rules", "internal/*"},
	"cases":                   {"planner", "bridge", "internal/*"},
	"tools":                   {"internal/*"},
	"project":                 {"retrieval", "retrieval/embedded", "retrieval/chroma", "providers", "sourcefacts", "sourcefacts/store", "internal/*"},
	"prompt":                  {"engine", "rules", "retrieval", "retrieval/embedded", "internal/*"},
	"loop":                    {"planner", "prompt", "tools", "providers", "retrieval", "tms", "internal/*"},
	"intent":                  {"engine", "rules", "loop", "prompt", "tools", "providers", "retrieval", "retrieval/embedded", "internal/*"},
	"intent/eval":             {"intent", "loop", "prompt", "providers", "tools", "internal/*"},
	"":                        {"planner", "project", "prompt", "loop", "tools", "intent", "intent/eval", "tms", "cases", "engine", "bridge", "retrieval", "retrieval/chroma", "providers", "rules", "sourcefacts", "sourcefacts/store", "internal/*"},
	"mcp":                     {"", "tools", "prompt", "internal/*"},
	"eval":                    {"", "sourcefacts", "retrieval/embedded", "internal/*"},
	"cmd/rlm":                 {"", "mcp", "eval", "internal/*"},
}

func allowed(list []string, dep string) bool {
	for _, a := range list {
		if a == dep || strings.HasSuffix(a, "/*") && strings.HasPrefix(dep, strings.TrimSuffix(a, "*")) {
			return true
		}
	}
	return false
}

// TestPackagesImportOnlyDownward: every package of the module imports only
// the rooms its layer allows (non-test files), and every package has a
// layer — a new package must be placed in the house before it lands.
func TestPackagesImportOnlyDownward(t *testing.T) {
	out, err := exec.Command("go", "list", "-json", "./...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	const mod = "github.com/rlm-dev/rlm"
	dec := json.NewDecoder(strings.NewReader(string(out)))
	for dec.More() {
		var p struct {
			ImportPath string
			Imports    []string
		}
		if err := dec.Decode(&p); err != nil {
			t.Fatal(err)
		}
		rel := strings.TrimPrefix(strings.TrimPrefix(p.ImportPath, mod), "/")
		if strings.HasPrefix(rel, "bench/") || strings.HasPrefix(rel, "examples/") {
			continue // programs on top of everything
		}
		key := rel
		if _, own := layers[rel]; !own && strings.HasPrefix(rel, "internal/") {
			key = "internal/*"
		}
		list, ok := layers[key]
		if !ok {
			t.Errorf("package %q has no layer in architecture_test.go (and docs/ARCHITECTURE.md)", p.ImportPath)
			continue
		}
		for _, im := range p.Imports {
			if im != mod && !strings.HasPrefix(im, mod+"/") {
				continue
			}
			dep := strings.TrimPrefix(strings.TrimPrefix(im, mod), "/")
			if !allowed(list, dep) {
				t.Errorf("%s imports %s, which its layer does not allow", path.Join("rlm", rel), path.Join("rlm", dep))
			}
		}
	}
}
