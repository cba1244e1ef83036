// Command mcplatency measures what serving rlm over MCP adds to a tool
// call: each tool is called over stdio (the official Go SDK client talking
// to `rlm mcp`, a separate process, as an editor would) and the same work
// is done through the Go API (rlm.Project) in this process, alternately,
// on the same tree; it reports the median and p90 of both and the median
// difference per tool.
//
//	go build -o /tmp/rlm ./cmd/rlm
//	go run ./bench/mcplatency -rlm /tmp/rlm -root "$(go env GOROOT)/src/net/http" -n 50
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"slices"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/rlm-dev/rlm"
)

// call is one tool call and the Go API doing the same work.
type call struct {
	tool string
	args map[string]any
	api  func(ctx context.Context, p *rlm.Project) error
}

func search(q string) func(context.Context, *rlm.Project) error {
	return func(ctx context.Context, p *rlm.Project) error { _, err := p.Search(ctx, q, 10); return err }
}

var calls = []call{
	{"search", map[string]any{"query": "how are idle connections closed after a timeout"}, search("how are idle connections closed after a timeout")},
	{"definition", map[string]any{"name": "Server"}, search("where is Server defined?")},
	{"callers", map[string]any{"name": "readRequest"}, search("what calls readRequest?")},
	{"callees", map[string]any{"name": "Server.Serve"}, search("what does Server.Serve call?")},
	{"explain", map[string]any{"query": "what calls ServeHTTP?"}, func(ctx context.Context, p *rlm.Project) error {
		_, err := p.Explain(ctx, "what calls ServeHTTP?")
		return err
	}},
	{"read", map[string]any{"path": "server.go", "start_line": 1, "end_line": 200}, func(ctx context.Context, p *rlm.Project) error {
		if _, err := p.Refresh(ctx); err != nil {
			return err
		}
		h, _ := p.FileHash("server.go")
		_, err := p.ReadSource(ctx, "server.go", h)
		return err
	}},
	{"status", map[string]any{}, func(ctx context.Context, p *rlm.Project) error {
		if _, err := p.Refresh(ctx); err != nil {
			return err
		}
		_, err := p.Status(ctx)
		return err
	}},
}

func main() {
	bin := flag.String("rlm", "", "the rlm binary (go build -o /tmp/rlm ./cmd/rlm)")
	root := flag.String("root", "", "source tree")
	n := flag.Int("n", 50, "measured calls per tool and path")
	flag.Parse()
	if *bin == "" || *root == "" {
		fail(fmt.Errorf("-rlm and -root are required"))
	}
	ctx := context.Background()
	emb, err := rlm.LocalEmbedder()
	if err != nil {
		fail(err)
	}
	p, err := rlm.Open(ctx, *root, rlm.Options{InMemory: true, Embedder: emb})
	if err != nil {
		fail(err)
	}
	defer p.Close()
	client := sdk.NewClient(&sdk.Implementation{Name: "mcplatency", Version: "1"}, nil)
	cmd := exec.Command(*bin, "mcp", "--root", *root, "--in-memory")
	cmd.Stderr = os.Stderr
	cs, err := client.Connect(ctx, &sdk.CommandTransport{Command: cmd}, nil)
	if err != nil {
		fail(err)
	}
	defer cs.Close()
	fmt.Printf("tree %s, %d files; protocol %s; %d calls per tool and path (after 5 warm-up calls)\n\n",
		*root, p.Stats().Files, cs.InitializeResult().ProtocolVersion, *n)
	fmt.Println("| tool | Go API median | Go API p90 | MCP stdio median | MCP stdio p90 | median difference | result bytes |")
	fmt.Println("| --- | ---: | ---: | ---: | ---: | ---: | ---: |")
	for _, c := range calls {
		var api, mcp []time.Duration
		size := 0
		for i := range *n + 5 {
			t := time.Now()
			if err := c.api(ctx, p); err != nil {
				fail(fmt.Errorf("%s (Go API): %w", c.tool, err))
			}
			da := time.Since(t)
			t = time.Now()
			res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: c.tool, Arguments: c.args})
			dm := time.Since(t)
			if err != nil || res.IsError {
				b, _ := json.Marshal(res)
				fail(fmt.Errorf("%s (MCP): %v %s", c.tool, err, b))
			}
			if i >= 5 {
				api, mcp = append(api, da), append(mcp, dm)
			}
			size = len(res.Content[0].(*sdk.TextContent).Text)
		}
		fmt.Printf("| %s | %s | %s | %s | %s | %s | %d |\n", c.tool, ms(pct(api, 50)), ms(pct(api, 90)), ms(pct(mcp, 50)), ms(pct(mcp, 90)),
			ms(pct(mcp, 50)-pct(api, 50)), size)
	}
}

func pct(ds []time.Duration, p int) time.Duration {
	s := slices.Clone(ds)
	slices.Sort(s)
	return s[(len(s)-1)*p/100]
}

func ms(d time.Duration) string { return fmt.Sprintf("%.2f ms", float64(d.Microseconds())/1000) }

func fail(err error) {
	fmt.Fprintln(os.Stderr, "mcplatency:", err)
	os.Exit(1)
}
