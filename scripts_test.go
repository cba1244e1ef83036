package rlm_test

import (
	"context"
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/rlm-dev/rlm/internal/testfixture"
)

// TestTestScriptStopsWhenChromaIsNotHealthy runs scripts/test.sh with a
// Chroma server that cannot start (node and npm are stubs that fail) and
// go a stub that logs its arguments: the script must exit non-zero within
// seconds and never run go vet or go test, whose Chroma lanes would
// otherwise skip and let the run go green.
func TestTestScriptStopsWhenChromaIsNotHealthy(t *testing.T) {
	stubs := t.TempDir()
	goLog := filepath.Join(t.TempDir(), "go.log")
	writeStubs(t, stubs, map[string]string{
		"node": "#!/bin/sh\necho stub node: no Chroma here >&2\nexit 1\n",
		"npm":  "#!/bin/sh\necho stub npm: nothing installed >&2\nexit 1\n",
		"go":   "#!/bin/sh\necho \"$*\" >>\"$STUB_GO_LOG\"\nexit 0\n",
	})
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, "bash", "scripts/test.sh")
	cmd.Env = append(os.Environ(),
		"PATH="+stubs+string(os.PathListSeparator)+os.Getenv("PATH"),
		"STUB_GO_LOG="+goLog,
		"RLM_CHROMA_STATE="+t.TempDir(),
		"RLM_CHROMA_WAIT=5",
		"RLM_CHROMA_URL=", "CI=")
	start := time.Now()
	out, runErr := cmd.CombinedOutput()
	took := time.Since(start)
	if runErr == nil {
		t.Fatalf("scripts/test.sh exited 0 without a Chroma server:\n%s", out)
	}
	if ctx.Err() != nil {
		t.Fatalf("scripts/test.sh still running after %v:\n%s", took, out)
	}
	calls, err := os.ReadFile(goLog)
	if err != nil && !errors.Is(err, fs.ErrNotExist) { // absent if go never ran
		t.Fatal(err)
	}
	for _, l := range strings.Split(string(calls), "\n") {
		if strings.HasPrefix(l, "vet") || strings.HasPrefix(l, "test") {
			t.Errorf("scripts/test.sh ran `go %s` without a healthy Chroma server", l)
		}
	}
	if !strings.Contains(string(out), "did not become healthy") {
		t.Errorf("no clear message in the output:\n%s", out)
	}
	t.Logf("exited with %v after %v", runErr, took.Round(time.Millisecond))
}

// TestChromaScriptInstallsEveryNpmPackageTheTestsUse: scripts/chroma-server.sh
// (which scripts/test.sh runs first) runs npm ci when a package of
// package.json is missing — the MCP TypeScript SDK too, even with chromadb
// installed — and leaves node_modules alone when all are there.
func TestChromaScriptInstallsEveryNpmPackageTheTestsUse(t *testing.T) {
	script, err := os.ReadFile("scripts/chroma-server.sh")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name         string
		sdkInstalled bool
		wantNpm      bool
	}{{"the MCP SDK missing", false, true}, {"everything installed", true, false}} {
		t.Run(c.name, func(t *testing.T) {
			root, stubs := t.TempDir(), t.TempDir()
			npmLog := filepath.Join(t.TempDir(), "npm.log")
			files := map[string]string{
				"scripts/chroma-server.sh":                                 string(script),
				"package-lock.json":                                        "{}",
				"node_modules/chromadb/dist/cli.mjs":                       "",
				"node_modules/chromadb-js-bindings-linux-x64-gnu/index.js": "",
			}
			if c.sdkInstalled {
				files["node_modules/@modelcontextprotocol/sdk/package.json"] = "{}"
			}
			testfixture.WriteFiles(t, root, files)
			writeStubs(t, stubs, map[string]string{
				"npm":  "#!/bin/sh\necho \"$*\" >>\"$STUB_NPM_LOG\"\nexit 1\n",
				"node": "#!/bin/sh\nexit 1\n",
				"curl": "#!/bin/sh\nexit 7\n",
			})
			ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
			defer cancel()
			cmd := exec.CommandContext(ctx, "bash", filepath.Join(root, "scripts/chroma-server.sh"), "start")
			cmd.Env = append(os.Environ(), "PATH="+stubs+string(os.PathListSeparator)+os.Getenv("PATH"), "STUB_NPM_LOG="+npmLog,
				"RLM_CHROMA_STATE="+t.TempDir(), "RLM_CHROMA_WAIT=2", "RLM_CHROMA_PORT=1")
			out, _ := cmd.CombinedOutput()
			calls, _ := os.ReadFile(npmLog)
			if ran := strings.HasPrefix(string(calls), "ci "); ran != c.wantNpm {
				t.Errorf("npm calls %q, want npm ci: %v\n%s", calls, c.wantNpm, out)
			}
		})
	}
}

// TestPackageLockPinsTheNpmPackagesOfPackageJSON: package-lock.json is in
// step with package.json (npm ci refuses otherwise), and pins the MCP
// TypeScript SDK at the version package.json names.
func TestPackageLockPinsTheNpmPackagesOfPackageJSON(t *testing.T) {
	type deps struct {
		Dependencies    map[string]string `json:"dependencies"`
		DevDependencies map[string]string `json:"devDependencies"`
		Version         string            `json:"version"`
	}
	var pkg deps
	var lock struct {
		Packages map[string]deps `json:"packages"`
	}
	for file, v := range map[string]any{"package.json": &pkg, "package-lock.json": &lock} {
		b, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(b, v); err != nil {
			t.Fatalf("%s: %v", file, err)
		}
	}
	top := lock.Packages[""]
	if diff := cmp.Diff(pkg.Dependencies, top.Dependencies); diff != "" {
		t.Errorf("dependencies (-package.json +lock):\n%s", diff)
	}
	if diff := cmp.Diff(pkg.DevDependencies, top.DevDependencies); diff != "" {
		t.Errorf("devDependencies (-package.json +lock):\n%s", diff)
	}
	want := pkg.DevDependencies["@modelcontextprotocol/sdk"]
	if got := lock.Packages["node_modules/@modelcontextprotocol/sdk"].Version; want == "" || got != want {
		t.Errorf("package.json wants @modelcontextprotocol/sdk %q, the lock has %q", want, got)
	}
}

// writeStubs writes executable scripts (name → body) into dir, to stand in
// for commands on PATH.
func writeStubs(t *testing.T, dir string, stubs map[string]string) {
	t.Helper()
	for name, body := range stubs {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o755); err != nil {
			t.Fatal(err)
		}
	}
}
