package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"time"

	"github.com/rlm-dev/rlm"
	"github.com/rlm-dev/rlm/mcp"
)

// cmdMCP serves the tree over the Model Context Protocol: stdio by
// default (the client starts `rlm mcp` and talks on its stdin/stdout),
// streamable HTTP on a loopback address with --http.
func cmdMCP(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	fs := newFlags("mcp", stderr)
	root := fs.String("root", "", "source tree to serve")
	allowWrite := fs.Bool("allow-write", false, "offer apply_patch: hash-checked edits of the tree's files")
	httpAddr := fs.String("http", "", "serve streamable HTTP at http://ADDR/mcp instead of stdio; ADDR must be a loopback address, e.g. 127.0.0.1:8765")
	catalog := fs.String("catalog", "", "prompt catalog file (YAML or JSON) for the compile tool (without it, no compile tool)")
	model := fs.String("model", "", "model whose tokenizer compile counts tokens with (see rlm compile)")
	maxSessions := fs.Int("max-sessions", mcp.DefaultMaxSessions, "with --http: the most sessions open at once; a client beyond it is refused (HTTP 503)")
	sessionIdle := fs.Duration("session-idle", mcp.DefaultSessionIdleTimeout, "with --http: close a session that has had no request for this long")
	verbose := fs.Bool("v", false, "log calls that fail, with their host-side cause, on stderr")
	bf := addBackendFlags(fs)
	pos, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(pos) > 0 {
		return usageError{fmt.Sprintf("unexpected argument %q", pos[0])}
	}
	if *maxSessions < 1 || *sessionIdle <= 0 {
		return usageError{"--max-sessions must be at least 1 and --session-idle positive"}
	}
	if *httpAddr != "" {
		if err := checkLoopback(*httpAddr); err != nil {
			return err
		}
	}
	p, err := openProject(ctx, *root, bf, stderr)
	if err != nil {
		return err
	}
	defer p.Close()
	opts := mcp.Options{AllowWrite: *allowWrite, Version: version, MaxSessions: *maxSessions, SessionIdleTimeout: *sessionIdle}
	if *verbose {
		opts.Logger = slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	}
	if *catalog != "" {
		cat, err := rlm.LoadCatalog(ctx, *catalog, *model)
		if err != nil {
			return err
		}
		defer cat.Release()
		if opts.Compiler, err = rlm.NewCompiler(bf.rules); err != nil {
			return err
		}
		opts.Catalog = cat
	}
	srv, err := mcp.New(p, opts)
	if err != nil {
		return err
	}
	if *httpAddr == "" {
		return srv.Serve(ctx, stdin, stdout)
	}
	return serveHTTP(ctx, *httpAddr, srv.Handler(), stderr)
}

// version is what `rlm mcp` reports to clients.
const version = "0.1.0"

// checkLoopback refuses an --http address that is not host:port on a
// loopback interface: the server has no authentication.
func checkLoopback(addr string) error {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return usageError{fmt.Sprintf("--http %q: want HOST:PORT, e.g. 127.0.0.1:8765", addr)}
	}
	if ip := net.ParseIP(host); host != "localhost" && (ip == nil || !ip.IsLoopback()) {
		return usageError{fmt.Sprintf("--http %q: only a loopback address (127.0.0.1, ::1, localhost) is allowed; the server has no authentication", addr)}
	}
	return nil
}

// serveHTTP serves h at /mcp on addr until ctx is done, then shuts down.
func serveHTTP(ctx context.Context, addr string, h http.Handler, stderr io.Writer) error {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	mux := http.NewServeMux()
	mux.Handle("/mcp", h)
	hs := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	fmt.Fprintf(stderr, "rlm mcp: serving http://%s/mcp\n", ln.Addr())
	done := make(chan error, 1)
	go func() { done <- hs.Serve(ln) }()
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
		sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		if err := hs.Shutdown(sctx); err != nil && !errors.Is(err, context.DeadlineExceeded) {
			return err
		}
		return nil
	}
}
