package rlm_test

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestTestScriptStopsWhenChromaIsNotHealthy runs scripts/test.sh with a
// Chroma server that cannot start (node and npm are stubs that fail) and
// go a stub that logs its arguments: the script must exit non-zero within
// seconds and never run go vet or go test, whose Chroma lanes would
// otherwise skip and let the run go green.
func TestTestScriptStopsWhenChromaIsNotHealthy(t *testing.T) {
	stubs := t.TempDir()
	goLog := filepath.Join(t.TempDir(), "go.log")
	for name, body := range map[string]string{
		"node": "#!/bin/sh\necho stub node: no Chroma here >&2\nexit 1\n",
		"npm":  "#!/bin/sh\necho stub npm: nothing installed >&2\nexit 1\n",
		"go":   "#!/bin/sh\necho \"$*\" >>\"$STUB_GO_LOG\"\nexit 0\n",
	} {
		if err := os.WriteFile(filepath.Join(stubs, name), []byte(body), 0o755); err != nil {
			t.Fatal(err)
		}
	}
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
