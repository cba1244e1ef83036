package project_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/rlm-dev/rlm/internal/testfixture"
	"github.com/rlm-dev/rlm/project"
)

// TestToolchainTreesKeepTheirKnowledgeBaseInTheUserCache: a package of a
// Go installation or of a Python standard library is not the user's
// project: its knowledge base goes to the user cache even when the tree
// is writable; a project's own tree keeps ROOT/.rlm.
func TestToolchainTreesKeepTheirKnowledgeBaseInTheUserCache(t *testing.T) {
	cache := t.TempDir()
	t.Setenv("XDG_CACHE_HOME", cache)
	base := testfixture.WriteTree(t, map[string]string{
		"go/VERSION":                    "go1.99\n",
		"go/src/runtime/runtime.go":     "package runtime\n",
		"go/src/net/http/server.go":     "package http\n",
		"py/lib/python3.11/os.py":       "import sys\n",
		"py/lib/python3.11/json/dec.py": "def f(): pass\n",
		"proj/main.go":                  "package main\n",
		"proj/lib/python3.11/x.py":      "x = 1\n", // no os.py: a project's own directory
	})
	for _, c := range []struct {
		root  string
		cache bool
	}{
		{"go/src/net/http", true},
		{"go", true},
		{"py/lib/python3.11/json", true},
		{"proj", false},
		{"proj/lib/python3.11", false},
	} {
		root := filepath.Join(base, filepath.FromSlash(c.root))
		got := project.DefaultDBPath(root)
		if inCache := strings.HasPrefix(got, cache); inCache != c.cache {
			t.Errorf("DefaultDBPath(%s) = %s; in the user cache: %v, want %v", c.root, got, inCache, c.cache)
		}
		if !c.cache && got != filepath.Join(root, ".rlm", "kb.sqlite") {
			t.Errorf("DefaultDBPath(%s) = %s, want ROOT/.rlm/kb.sqlite", c.root, got)
		}
	}
}
