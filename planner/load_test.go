package planner_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rlm-dev/rlm/engine"
	"github.com/rlm-dev/rlm/planner"
)

// TestRuleFileMistakesAreReportedAtTheirOwnLine: a harness author's rule
// file loaded over the defaults is refused at load time, at the line (and
// column) of the mistake, in plain words.
func TestRuleFileMistakesAreReportedAtTheirOwnLine(t *testing.T) {
	for _, tc := range []struct {
		name, src string
		line      int
		words     []string // the message says these
	}{{
		name: "redefined prelude predicate after a block comment naming it",
		src:  "/* helpers\n   member is defined here\n*/\n\nmember(X, [X|_]).\n",
		line: 5, words: []string{"member/2", "prelude"},
	}, {
		name: "syntax error on line 7",
		src:  "ok(1).\nok(2).\n\n% a comment\nok(3).\n\nbroken(a b).\n",
		line: 7, words: []string{"syntax error"},
	}, {
		name: "undefined predicate",
		src:  ":- multifile(extra_class_rule/4).\n\nextra_class_rule(cls_x, F, x, []) :-\n    feature(text(T), F),\n    no_such_helper(T).\n",
		line: 5, words: []string{"undefined", "no_such_helper/1"},
	}, {
		name: "misspelled step role",
		src: ":- multifile(extra_strategy/4).\n\nextra_strategy(broad, F,\n" +
			"    step(lexical, [text(T)], evidnce),\n    because(st_x, [])) :-\n    feature(text(T), F).\n",
		line: 4, words: []string{"role", "evidnce", "evidence, check"},
	}, {
		name: "misspelled step argument",
		src: ":- multifile(extra_strategy/4).\n\nextra_strategy(broad, F, step(lexical, [txt(T)], evidence), because(st_x, [])) :-\n" +
			"    feature(text(T), F).\n",
		line: 3, words: []string{"txt/1"},
	}, {
		name: "misspelt hook",
		src:  "\n:- multifile(extra_clas_rule/4).\nextra_clas_rule(cls_x, _, broad, []).\n",
		line: 2, words: []string{"extra_clas_rule/4", "did you mean extra_class_rule/4?"},
	}, {
		name: "a query in a rule file",
		src:  "ok.\n?- halt.\n",
		line: 2, words: []string{"never run"},
	}, {
		name: "byte order mark before a mistake",
		src:  "\uFEFFok.\nbroken(a b).\n",
		line: 2, words: []string{"syntax error"},
	}} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			if err := os.WriteFile(filepath.Join(dir, "bad.pl"), []byte(tc.src), 0o644); err != nil {
				t.Fatal(err)
			}
			_, err := planner.New(planner.Options{RulesDir: dir})
			var le *engine.LoadError
			if !errors.As(err, &le) {
				t.Fatalf("want a *engine.LoadError, got %v", err)
			}
			if filepath.Base(le.File) != "bad.pl" || le.Line != tc.line || le.Column == 0 {
				t.Fatalf("reported at %s:%d:%d, want bad.pl:%d:<col>: %v", le.File, le.Line, le.Column, tc.line, err)
			}
			msg := err.Error()
			for _, w := range tc.words {
				if !strings.Contains(msg, w) {
					t.Errorf("message %q does not say %q", msg, w)
				}
			}
			for _, leak := range []string{"letter", "digit(", "token:"} {
				if strings.Contains(msg, leak) {
					t.Errorf("message %q leaks parser internals (%q)", msg, leak)
				}
			}
		})
	}
}

// TestEmptyOrMissingRulesDirectoryIsAnError: --rules naming a directory
// with no rule files, a missing one, or a file is refused, never silently
// the defaults alone.
func TestEmptyOrMissingRulesDirectoryIsAnError(t *testing.T) {
	empty := t.TempDir()
	os.WriteFile(filepath.Join(empty, "notes.txt"), []byte("not rules"), 0o644)
	file := filepath.Join(t.TempDir(), "x.pl")
	os.WriteFile(file, []byte("a.\n"), 0o644)
	for _, dir := range []string{empty, filepath.Join(empty, "missing"), file} {
		_, err := planner.New(planner.Options{RulesDir: dir})
		if err == nil {
			t.Errorf("--rules %s: loaded without error", dir)
			continue
		}
		if !strings.Contains(err.Error(), dir) {
			t.Errorf("--rules %s: error %q does not name the directory", dir, err)
		}
	}
	_, err := planner.New(planner.Options{RulesDir: empty})
	if !errors.Is(err, engine.ErrNoRuleFiles) {
		t.Errorf("empty directory: %v does not match engine.ErrNoRuleFiles", err)
	}
}
