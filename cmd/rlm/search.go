package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/rlm-dev/rlm"
	"github.com/rlm-dev/rlm/internal/termsafe"
)

func cmdSearch(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	fs := newFlags("search", stderr)
	root := fs.String("root", "", "source tree to search")
	asJSON := fs.Bool("json", false, "print one JSON object")
	batch := fs.Bool("batch", false, "read one query per line from stdin; print one JSON object per line")
	explain := fs.Bool("explain", false, "print the rule chain")
	limit := fs.Int("limit", 10, "maximum hits")
	timeout := fs.Duration("timeout", 30*time.Second, "time limit per query (0: none)")
	bf := addBackendFlags(fs)
	pos, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if !*batch && len(pos) == 0 {
		return usageError{"a QUERY is required (or --batch)"}
	}
	if *limit < 1 || *limit > rlm.MaxLimit {
		return usageError{fmt.Sprintf("--limit must be 1..%d", rlm.MaxLimit)}
	}
	p, err := openProject(ctx, *root, bf, stderr)
	if err != nil {
		return err
	}
	defer p.Close()
	if *batch {
		return searchBatch(ctx, p, *limit, *timeout, stdin, stdout)
	}
	query := strings.Join(pos, " ")
	qctx, cancel := withTimeout(ctx, *timeout)
	defer cancel()
	ans, err := p.Search(qctx, query, *limit)
	if err != nil {
		if *asJSON {
			writeJSON(stdout, queryError(query, err))
		}
		return err
	}
	if *asJSON {
		return writeJSON(stdout, ans)
	}
	printAnswer(stdout, ans, *explain)
	return nil
}

// searchBatch answers one query per stdin line, one JSON object per line,
// flushed per line. A query that fails, or a line longer than
// rlm.MaxQueryBytes (read and discarded, never held whole), gives
// {"query","error"} and the batch goes on.
func searchBatch(ctx context.Context, p *rlm.Project, limit int, timeout time.Duration, stdin io.Reader, stdout io.Writer) error {
	r := bufio.NewReaderSize(stdin, 64*1024)
	w := bufio.NewWriter(stdout)
	for {
		line, tooLong, err := readLine(r, rlm.MaxQueryBytes)
		if err == io.EOF && line == "" && !tooLong {
			return nil
		}
		if err != nil && err != io.EOF {
			return fmt.Errorf("reading queries: %w", err)
		}
		if tooLong {
			writeJSON(w, queryError(line, fmt.Errorf("%w: over %d bytes", rlm.ErrQueryTooLarge, rlm.MaxQueryBytes)))
		} else {
			qctx, cancel := withTimeout(ctx, timeout)
			ans, serr := p.Search(qctx, line, limit)
			cancel()
			switch {
			case serr != nil && ctx.Err() != nil:
				return ctx.Err()
			case serr != nil:
				writeJSON(w, queryError(line, serr))
			default:
				writeJSON(w, ans)
			}
		}
		if ferr := w.Flush(); ferr != nil {
			return ferr
		}
		if err == io.EOF {
			return nil
		}
	}
}

// queryError is the JSON object printed for a query that failed.
func queryError(query string, err error) map[string]string {
	return map[string]string{"query": clipText(query, 200), "error": err.Error()}
}

// writeJSON writes v as one line of JSON, without HTML escaping, and
// safe on a terminal: DEL, the C1 controls and the bidirectional
// overrides, which encoding/json writes as they are, are escaped
// (termsafe.JSON), so that text from files, catalogs and models cannot
// reach the terminal as control sequences through --json or --trace.
func writeJSON(w io.Writer, v any) error {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return err
	}
	_, err := io.WriteString(w, termsafe.JSON(buf.String()))
	return err
}

// readLine reads one line (without its "\n" or "\r\n"). A line longer than
// max is consumed to its end and returned cut, with tooLong set.
func readLine(r *bufio.Reader, max int) (line string, tooLong bool, err error) {
	var b []byte
	for {
		chunk, err := r.ReadSlice('\n')
		if len(b)+len(chunk) > max+2 {
			tooLong = true
			if len(b) < max {
				b = append(b, chunk[:min(len(chunk), max-len(b))]...)
			}
		} else {
			b = append(b, chunk...)
		}
		if err == bufio.ErrBufferFull {
			continue
		}
		s := strings.TrimRight(string(b), "\r\n")
		return s, tooLong, err
	}
}
