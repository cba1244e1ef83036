package engine

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"testing/fstest"

	"github.com/rlm-dev/rlm/internal/testfixture"

	"github.com/google/go-cmp/cmp"
)

func mapFS(files map[string]string) fstest.MapFS {
	m := fstest.MapFS{}
	for n, s := range files {
		m[n] = &fstest.MapFile{Data: []byte(s)}
	}
	return m
}

// sourceRow is what a test compares about a Source.
type sourceRow struct {
	Name  string
	Layer int
	Path  string
}

func rows(srcs []Source) []sourceRow {
	var out []sourceRow
	for _, s := range srcs {
		out = append(out, sourceRow{s.Name, s.Layer, s.Path})
	}
	return out
}

var defaults = map[string]string{
	"retrieval/classify.pl":      "cls(default).\n",
	"retrieval/classify_test.pl": "test(default) :- cls(default).\n",
	"strategy.pl":                "plan(X) :- cls(X).\n",
	"testdata/broken.pl":         "this is not prolog\n",
	".hidden/broken.pl":          "nor this\n",
	"_drafts/broken.pl":          "nor this\n",
	"retrieval/.#classify.pl":    "an editor's lock file\n",
	"README.md":                  "not a rule file\n",
}

func TestLayersLoadInOrderAndLaterFilesReplaceEarlierOnes(t *testing.T) {
	cases := []struct {
		name    string
		user    map[string]string
		sources []sourceRow
		tests   []sourceRow
		cls     string
	}{
		{"defaults only", nil,
			[]sourceRow{{"retrieval/classify.pl", 0, "rules/retrieval/classify.pl"}, {"strategy.pl", 0, "rules/strategy.pl"}},
			[]sourceRow{{"retrieval/classify_test.pl", 0, "rules/retrieval/classify_test.pl"}}, "default"},
		{"same relative path", map[string]string{"retrieval/classify.pl": "cls(user).\n", "retrieval/extra.pl": "extra.\n"},
			[]sourceRow{{"strategy.pl", 0, "rules/strategy.pl"}, {"retrieval/classify.pl", 1, "user/retrieval/classify.pl"}, {"retrieval/extra.pl", 1, "user/retrieval/extra.pl"}},
			[]sourceRow{{"retrieval/classify_test.pl", 0, "rules/retrieval/classify_test.pl"}}, "user"},
		{"flat override by base name", map[string]string{"classify.pl": "cls(flat).\n", "classify_test.pl": "test(flat) :- cls(flat).\n"},
			[]sourceRow{{"strategy.pl", 0, "rules/strategy.pl"}, {"classify.pl", 1, "user/classify.pl"}},
			[]sourceRow{{"classify_test.pl", 1, "user/classify_test.pl"}}, "flat"},
		{"a nested user file does not replace by base name", map[string]string{"other/strategy.pl": "s2.\n"},
			[]sourceRow{{"retrieval/classify.pl", 0, "rules/retrieval/classify.pl"}, {"strategy.pl", 0, "rules/strategy.pl"}, {"other/strategy.pl", 1, "user/other/strategy.pl"}},
			[]sourceRow{{"retrieval/classify_test.pl", 0, "rules/retrieval/classify_test.pl"}}, "default"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			layers := []Layer{{FS: mapFS(defaults), Label: "rules"}}
			if c.user != nil {
				layers = append(layers, Layer{FS: mapFS(c.user), Label: "user"})
			}
			e, err := New(Options{Layers: layers})
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(c.sources, rows(e.Sources())); diff != "" {
				t.Errorf("sources (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(c.tests, rows(e.TestSources())); diff != "" {
				t.Errorf("test sources (-want +got):\n%s", diff)
			}
			sol, err := e.Once(context.Background(), "plan", NewVar())
			if err != nil || sol[0] != AtomValue(c.cls) {
				t.Errorf("plan: %v %v, want %s", sol, err, c.cls)
			}
			if f, ok := e.DefinedIn("cls", 1); !ok || !strings.HasSuffix(f, "classify.pl") || f == "rules/retrieval/classify.pl" && c.cls != "default" {
				t.Errorf("DefinedIn(cls/1) = %q, %v", f, ok)
			}
		})
	}
}

func TestFlatOverrideOfTwoFilesWithTheSameBaseNameIsAmbiguous(t *testing.T) {
	def := mapFS(map[string]string{"retrieval/classify.pl": "a.\n", "intent/classify.pl": "b.\n"})
	_, err := New(Options{Layers: []Layer{{FS: def, Label: "rules"}, {FS: mapFS(map[string]string{"classify.pl": "c.\n"}), Label: "user"}}})
	var le *LoadError
	if !errors.As(err, &le) || le.File != "user/classify.pl" ||
		!strings.Contains(err.Error(), "rules/intent/classify.pl and rules/retrieval/classify.pl") {
		t.Fatalf("want an ambiguity naming both files, got %v", err)
	}
	// Without the flat override the two files load side by side.
	if _, err := New(Options{Layers: []Layer{{FS: def, Label: "rules"}}}); err != nil {
		t.Fatal(err)
	}
}

func TestShorthandOptionsAreTwoLayers(t *testing.T) {
	dir := testfixture.WriteTree(t, map[string]string{"classify.pl": "cls(user).\n"})
	e, err := New(Options{Rules: mapFS(defaults), RulesLabel: "rules", UserDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	want := []sourceRow{{"strategy.pl", 0, "rules/strategy.pl"}, {"classify.pl", 1, filepath.Join(dir, "classify.pl")}}
	if diff := cmp.Diff(want, rows(e.Sources())); diff != "" {
		t.Errorf("sources (-want +got):\n%s", diff)
	}
	if got := e.Layers(); len(got) != 2 || got[1].Label != dir {
		t.Errorf("layers %+v", got)
	}
}

func TestRulesDirectoryMustHoldRuleFiles(t *testing.T) {
	empty := testfixture.WriteTree(t, map[string]string{"notes.txt": "x\n", "testdata/t.pl": "t.\n"})
	file := filepath.Join(testfixture.WriteTree(t, map[string]string{"a.pl": "a.\n"}), "a.pl")
	cases := []struct {
		name, dir, problem string
		notExist           bool
	}{
		{"missing", filepath.Join(empty, "nope"), "does not exist", true},
		{"not a directory", file, "is not a directory", false},
		{"no .pl files", empty, "holds no .pl files", false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := DirLayer(c.dir)
			var de *RulesDirError
			if !errors.As(err, &de) || de.Dir != c.dir || de.Problem != c.problem || !errors.Is(err, ErrNoRuleFiles) ||
				errors.Is(err, fs.ErrNotExist) != c.notExist {
				t.Fatalf("DirLayer: want a RulesDirError %q for %s, got %#v", c.problem, c.dir, err)
			}
			_, err = New(Options{Rules: mapFS(defaults), UserDir: c.dir})
			var le *LoadError
			if !errors.As(err, &le) || !errors.As(err, &de) || !errors.Is(err, ErrNoRuleFiles) {
				t.Fatalf("New: want a LoadError wrapping the RulesDirError, got %v", err)
			}
			if want := "engine: rules directory " + c.dir + " " + c.problem; !strings.HasPrefix(err.Error(), want) {
				t.Errorf("message %q, want it to start with %q", err.Error(), want)
			}
		})
	}
	if _, err := DirLayer(testfixture.WriteTree(t, map[string]string{"deep/er/x.pl": "x.\n"})); err != nil {
		t.Errorf("a .pl file at some depth: %v", err)
	}
}

func TestRuleDirectoryReadsOnlyBoundedRegularFiles(t *testing.T) {
	outside := testfixture.WriteTree(t, map[string]string{"linked/evil.pl": "evil.\n"})
	t.Run("symlinked directory is not followed", func(t *testing.T) {
		dir := testfixture.WriteTree(t, map[string]string{"a.pl": "a.\n"})
		for _, name := range []string{"linked", "linked.pl"} {
			if err := os.Symlink(filepath.Join(outside, "linked"), filepath.Join(dir, name)); err != nil {
				t.Skip(err)
			}
		}
		e, err := New(Options{UserDir: dir})
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff([]sourceRow{{"a.pl", 0, filepath.Join(dir, "a.pl")}}, rows(e.Sources())); diff != "" {
			t.Errorf("sources (-want +got):\n%s", diff)
		}
	})
	t.Run("oversized file", func(t *testing.T) {
		dir := testfixture.WriteTree(t, map[string]string{"a.pl": "a.\n", "big.pl": "% " + strings.Repeat("x", MaxRuleFileBytes) + "\n"})
		_, err := New(Options{UserDir: dir})
		var le *LoadError
		if !errors.As(err, &le) || le.File != filepath.Join(dir, "big.pl") || !strings.Contains(err.Error(), "over the") {
			t.Fatalf("want a LoadError for big.pl, got %v", err)
		}
	})
	t.Run("fifo", func(t *testing.T) {
		dir := testfixture.WriteTree(t, map[string]string{"a.pl": "a.\n"})
		if err := syscall.Mkfifo(filepath.Join(dir, "pipe.pl"), 0o644); err != nil {
			t.Skip(err)
		}
		_, err := New(Options{UserDir: dir})
		if err == nil || !strings.Contains(err.Error(), "not a regular file") {
			t.Fatalf("want a refusal of the FIFO, got %v", err)
		}
	})
}

// TestUserLayerExtendsADefaultHook is how extension hooks work: a default
// file declares the hook multifile and dynamic and calls it; a user file in
// its own directory declares it multifile and adds a clause.
func TestUserLayerExtendsADefaultHook(t *testing.T) {
	def := mapFS(map[string]string{"retrieval/classify.pl": `
:- multifile(extra_class_rule/4).
:- dynamic(extra_class_rule/4).
class_of(F, C) :- extra_class_rule(_, F, C, _), !.
class_of(_, broad).
`})
	user := mapFS(map[string]string{"mine/hooks.pl": `
:- multifile(extra_class_rule/4).
extra_class_rule(my_rule, F, special, [F]) :- F == magic.
`})
	cases := []struct {
		name   string
		layers []Layer
		want   map[string]string // input -> class
	}{
		{"without the user layer the hook fails quietly", []Layer{{FS: def, Label: "rules"}},
			map[string]string{"magic": "broad", "plain": "broad"}},
		{"the user layer's clause is seen", []Layer{{FS: def, Label: "rules"}, {FS: user, Label: "user"}},
			map[string]string{"magic": "special", "plain": "broad"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			e, err := New(Options{Layers: c.layers})
			if err != nil {
				t.Fatal(err)
			}
			got := map[string]string{}
			for in := range c.want {
				sol, err := e.Once(context.Background(), "class_of", Atom(in), NewVar())
				if err != nil {
					t.Fatalf("class_of(%s): %v", in, err)
				}
				got[in] = string(sol[1].(AtomValue))
			}
			if diff := cmp.Diff(c.want, got); diff != "" {
				t.Errorf("classes (-want +got):\n%s", diff)
			}
		})
	}
}
