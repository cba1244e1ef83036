// Package rules holds rlm's default rule files, embedded, one folder per
// concern:
//
//	retrieval/   classify.pl, strategy.pl, evidence.pl, explain.pl,
//	             toplevel.pl: the retrieval planner's decisions
//	prompt/      units.pl, compile.pl, select.pl, capabilities.pl,
//	             closure.pl, conflicts.pl, packing.pl: the prompt
//	             compiler's decisions (which units a model sees)
//	intent/      the intent router's resolver and validation
//	tms/         label.pl: truth maintenance, which kept conclusions
//	             are IN or OUT and what their owners do about it
//	concepts/    code.pl: a default vocabulary of code concepts that
//	             retrieval/expand.pl expands descriptive queries with
//	cases/       reuse.pl: case-based reuse, which kept case's steps a
//	             similar query reuses (and the vetoes)
//
// Each X.pl has its unit tests in X_test.pl beside it; `go test ./rules/`
// runs them through engine's rule-test runner, one subtest per test clause.
// Every decision rule has an ID registered with rule_id/2 in the file that
// uses it. Harness authors extend the defaults through the multifile hook
// predicates each file documents (extra_class_rule/4, extra_strategy/4,
// extra_strategy/5, extra_fallback/5, extra_verdict/5, extra_floor/2,
// extra_floor/3; extra_reject/4, extra_select/4,
// extra_conflict/4) in files of their own, loaded as a layer over these
// (engine.Options.Layers, `--rules DIR`). The prompt compiler loads only
// prompt/ (and DIR/prompt/); the planner loads every folder.
package rules

import (
	"embed"
	"io/fs"
)

// FS holds the default rule files (*.pl, including *_test.pl), in their
// concern folders.
//
//go:embed retrieval prompt intent tms concepts cases
var FS embed.FS

// Folder is the default rules of one concern folder (e.g. "prompt",
// "tms"), rooted at that folder; an unknown folder is empty.
func Folder(concern string) fs.FS {
	sub, err := fs.Sub(FS, concern)
	if err != nil {
		return emptyFS{}
	}
	return sub
}

type emptyFS struct{}

func (emptyFS) Open(name string) (fs.File, error) {
	return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrNotExist}
}
