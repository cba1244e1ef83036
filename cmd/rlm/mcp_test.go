package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/rlm-dev/rlm/internal/testfixture"
)

// TestARealMCPClientDrivesRlmMCP: the official MCP TypeScript SDK client
// (testdata/mcp/client.mjs, run with node) drives the built `rlm mcp` over
// stdio: initialize, list tools, every tool on a copy of testdata/gosample
// and on net/http (read-only), an edit through apply_patch seen by the
// next search, a conflicting patch refused, malformed and hostile
// arguments, the 2025-11-25 and 2025-06-18 handshakes, and the
// cancellation of a call held in a slow embedding request. Without node it
// is skipped, except under CI (env CI non-empty), where it fails.
func TestARealMCPClientDrivesRlmMCP(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("node is not installed but CI is set: install Node.js 20+ and run npm ci in the repository root")
		}
		t.Skip("node is not installed; install Node.js 20+ and run npm ci to drive rlm mcp with the MCP TypeScript SDK")
	}
	if _, err := os.Stat("../../node_modules/@modelcontextprotocol/sdk/package.json"); err != nil {
		t.Fatalf("the MCP TypeScript SDK is not installed: run npm ci in the repository root (%v)", err)
	}
	bin := filepath.Join(t.TempDir(), "rlm")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	cmd := exec.CommandContext(t.Context(), node, "../../testdata/mcp/client.mjs")
	cmd.Env = append(os.Environ(),
		"RLM_BIN="+bin,
		"RLM_SAMPLE="+testfixture.CopyTree(t, sample),
		"RLM_SLOW_SAMPLE="+testfixture.CopyTree(t, sample),
		"RLM_NETHTTP="+filepath.Join(runtime.GOROOT(), "src", "net", "http"),
		"RLM_HOSTILE=../../testdata/hostile-queries.txt",
		"RLM_CATALOG="+exampleCatalog,
	)
	cmd.WaitDelay = 10 * time.Second
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("node testdata/mcp/client.mjs: %v\n%s", err, out)
	}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	var report struct{ Checks []string }
	if err := json.Unmarshal([]byte(lines[len(lines)-1]), &report); err != nil {
		t.Fatalf("no report on the last line: %v\n%s", err, out)
	}
	for _, want := range []string{"initialize", "list tools", "search", "definition", "callers", "callees", "explain", "read", "status",
		"compile", "resources", "apply_patch seen by the next search", "conflicting patch refused", "malformed arguments",
		"hostile arguments", "protocol versions 2025-11-25 and 2025-06-18", "net/http read-only", "cancellation"} {
		if !slices.Contains(report.Checks, want) {
			t.Errorf("check %q did not run; ran %v", want, report.Checks)
		}
	}
	t.Logf("%s", out)
}

// mcpSession sends JSON-RPC lines to `rlm mcp ARGS` on stdin, reads
// replies from stdout until every request (a line with an "id") has one,
// then closes stdin and returns the replies by id and the exit code.
func mcpSession(t *testing.T, args []string, lines ...string) (map[float64]map[string]any, string, int) {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	var errb bytes.Buffer
	code := make(chan int, 1)
	go func() {
		code <- run(t.Context(), append([]string{"mcp"}, args...), inR, outW, &errb)
		outW.Close()
	}()
	want := 0
	go func() {
		for _, l := range lines {
			io.WriteString(inW, l+"\n")
		}
	}()
	for _, l := range lines {
		if strings.Contains(l, `"id":`) {
			want++
		}
	}
	replies := map[float64]map[string]any{}
	sc := bufio.NewScanner(outR)
	sc.Buffer(make([]byte, 1<<20), 8<<20)
	for len(replies) < want && sc.Scan() {
		var m map[string]any
		if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
			t.Fatalf("stdout holds something other than JSON-RPC: %q", sc.Text())
		}
		if id, ok := m["id"].(float64); ok {
			replies[id] = m
		}
	}
	inW.Close()
	go io.Copy(io.Discard, outR)
	select {
	case c := <-code:
		return replies, errb.String(), c
	case <-time.After(30 * time.Second):
		t.Fatalf("rlm mcp did not exit after stdin closed: %s", errb.String())
		return nil, "", 0
	}
}

// TestMCPServesStdioWithTheToolsItsFlagsAllow: `rlm mcp` answers on
// stdout (nothing else is written there), lists apply_patch only with
// --allow-write and compile only with --catalog, and exits 0 when stdin
// closes.
func TestMCPServesStdioWithTheToolsItsFlagsAllow(t *testing.T) {
	initialize := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`
	for _, c := range []struct {
		name  string
		flags []string
		want  []string
	}{
		{"read-only", nil, []string{"callees", "callers", "definition", "explain", "read", "search", "status"}},
		{"allow write", []string{"--allow-write"}, []string{"apply_patch", "callees", "callers", "definition", "explain", "read", "search", "status"}},
		{"catalog", []string{"--catalog", exampleCatalog}, []string{"callees", "callers", "compile", "definition", "explain", "read", "search", "status"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			args := append([]string{"--root", testfixture.CopyTree(t, sample), "--in-memory", "--embedder", "none"}, c.flags...)
			replies, errs, code := mcpSession(t, args, initialize, `{"jsonrpc":"2.0","method":"notifications/initialized"}`,
				`{"jsonrpc":"2.0","id":2,"method":"tools/list"}`)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, errs)
			}
			res, _ := replies[2]["result"].(map[string]any)
			var got []string
			for _, tool := range res["tools"].([]any) {
				got = append(got, tool.(map[string]any)["name"].(string))
			}
			slices.Sort(got)
			if !slices.Equal(got, c.want) {
				t.Fatalf("tools %v, want %v", got, c.want)
			}
		})
	}
}

// TestMCPRefusesANonLoopbackHTTPAddress: --http serves only on a loopback
// address (there is no authentication); anything else is a usage error
// before the tree is opened.
func TestMCPRefusesANonLoopbackHTTPAddress(t *testing.T) {
	for _, addr := range []string{"0.0.0.0:0", "192.168.1.10:8765", "example.com:80", ":8765", "8765"} {
		// A refused address is refused at once; one that were served would
		// serve until this deadline and exit 0.
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		var out, errb bytes.Buffer
		code := run(ctx, []string{"mcp", "--root", sample, "--in-memory", "--http", addr}, strings.NewReader(""), &out, &errb)
		cancel()
		if code != 2 || !strings.Contains(errb.String(), "--http") {
			t.Errorf("--http %s: exit %d, %s", addr, code, errb.String())
		}
	}
}

// TestMCPSessionLimitsMustBePositive: --max-sessions below 1 or a
// --session-idle that is not positive is a usage error, not a server
// without limits.
func TestMCPSessionLimitsMustBePositive(t *testing.T) {
	for _, flags := range [][]string{{"--max-sessions", "0"}, {"--session-idle", "0s"}, {"--session-idle", "-1m"}} {
		var out, errb bytes.Buffer
		code := run(t.Context(), append([]string{"mcp", "--root", sample, "--in-memory"}, flags...), strings.NewReader(""), &out, &errb)
		if code != 2 || !strings.Contains(errb.String(), "--max-sessions must be at least 1") {
			t.Errorf("%v: exit %d, %s", flags, code, errb.String())
		}
	}
}
