// Command callres counts how many of a tree's calls resolve: every call
// reference of the files of -lang (sourcefacts.Walk, the default skip
// policy) is given to sourcefacts.Scopes.Call over the whole tree, and a
// call counts as resolved when Call places it in a scope (in the tree or
// outside it). Calls through self/this are counted apart: they resolve
// only when the enclosing class, or a class it inherits from, defines
// the method. It prints one line:
//
//	CALLRES lang L files N calls C resolved R (P%) self-calls S resolved SR (SP%)
//
//	go run ./bench/callres -lang python "$(python3 -c 'import sysconfig; print(sysconfig.get_path("stdlib"))')"
package main

import (
	"context"
	"flag"
	"fmt"
	"os"

	"github.com/rlm-dev/rlm/sourcefacts"
)

func main() {
	lang := flag.String("lang", sourcefacts.LangPython, "language whose calls are counted (a sourcefacts.Lang* value)")
	flag.Parse()
	if flag.NArg() != 1 {
		fmt.Fprintln(os.Stderr, "usage: callres [-lang L] ROOT")
		os.Exit(2)
	}
	root := flag.Arg(0)
	ffs, err := sourcefacts.Walk(context.Background(), root, sourcefacts.WalkOptions{Project: root, Languages: []string{*lang}})
	if err != nil {
		fmt.Fprintln(os.Stderr, "callres:", err)
		os.Exit(1)
	}
	sc := sourcefacts.NewScopes(root, ffs)
	var calls, resolved, self, selfResolved int
	for _, f := range ffs {
		for _, r := range f.References {
			if r.Kind != sourcefacts.RefCall {
				continue
			}
			calls++
			isSelf := r.Receiver == "self" || r.Receiver == "this"
			if isSelf {
				self++
			}
			if sc.Call(f, r).Scope != "" {
				resolved++
				if isSelf {
					selfResolved++
				}
			}
		}
	}
	fmt.Printf("CALLRES lang %s files %d calls %d resolved %d (%.1f%%) self-calls %d resolved %d (%.1f%%)\n",
		*lang, len(ffs), calls, resolved, pct(resolved, calls), self, selfResolved, pct(selfResolved, self))
}

func pct(a, b int) float64 {
	if b == 0 {
		return 0
	}
	return 100 * float64(a) / float64(b)
}
