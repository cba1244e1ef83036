// Command interfaces is a host that adds one query class to rlm's rules
// without copying them: the rule files in rules/ extend the defaults
// through their hooks (extra_class_rule/4, extra_strategy/4).
//
//	go run ./examples/interfaces ROOT "which interfaces write output?"
package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/rlm-dev/rlm"
)

// rulesDir is this example's rules directory, wherever it is run from.
func rulesDir() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "rules")
}

func main() {
	if len(os.Args) < 3 {
		fmt.Fprintln(os.Stderr, "usage: interfaces ROOT QUERY")
		os.Exit(2)
	}
	if err := run(context.Background(), os.Args[1], strings.Join(os.Args[2:], " ")); err != nil {
		fmt.Fprintln(os.Stderr, "interfaces:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, root, query string) error {
	p, err := rlm.Open(ctx, root, rlm.Options{Rules: rulesDir(), InMemory: true})
	if err != nil {
		return err
	}
	defer p.Close()
	ans, err := p.Search(ctx, query, 10)
	if err != nil {
		return err
	}
	fmt.Printf("class %s (%s)\n", ans.Class, ans.Explain[0].Rule)
	for _, h := range ans.Hits {
		fmt.Printf("%s:%d %s (%s)\n", h.Path, h.StartLine, h.Symbol, h.Kind)
	}
	return nil
}
