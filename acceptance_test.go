package rlm_test

import (
	"context"
	"fmt"
	"go/ast"
	"go/build"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"sort"
	"sync"
	"testing"

	"github.com/rlm-dev/rlm"
	"github.com/rlm-dev/rlm/sourcefacts"
)

// These tests run the whole product on a real tree: the Go standard
// library's net/http, as installed with the toolchain that runs the tests.

var (
	httpOnce  sync.Once
	httpP     *rlm.Project
	httpNames map[string]int // definitions per bare name in the indexed tree
	httpErr   error
	kbDir     string // knowledge bases of this test binary (TestMain)
)

func TestMain(m *testing.M) {
	var err error
	if kbDir, err = os.MkdirTemp("", "rlm-root-test-*"); err != nil {
		panic(err)
	}
	code := m.Run()
	if httpP != nil {
		httpP.Close()
	}
	os.RemoveAll(kbDir)
	os.Exit(code)
}

func netHTTPRoot() string { return filepath.Join(build.Default.GOROOT, "src", "net", "http") }

// netHTTPOptions open net/http with its knowledge base under kbDir (never
// inside the Go installation); a second Open with them reuses it.
func netHTTPOptions() rlm.Options {
	return rlm.Options{DBPath: filepath.Join(kbDir, "nethttp", "kb.sqlite"), NoRefresh: true}
}

// netHTTP opens net/http once per test binary (no embedder: BM25 only).
func netHTTP(t testing.TB) *rlm.Project {
	t.Helper()
	httpOnce.Do(func() {
		httpP, httpErr = rlm.Open(context.Background(), netHTTPRoot(), netHTTPOptions())
		if httpErr != nil {
			return
		}
		var facts []*sourcefacts.FileFacts
		facts, httpErr = sourcefacts.Walk(context.Background(), netHTTPRoot(), sourcefacts.WalkOptions{IncludeGenerated: true})
		httpNames = map[string]int{}
		for _, f := range facts {
			for _, s := range f.Symbols {
				httpNames[s.Name]++
			}
		}
	})
	if httpErr != nil {
		t.Fatalf("indexing net/http: %v", httpErr)
	}
	return httpP
}

// declaration is one top-level declaration of package net/http (non-test
// files of the package directory itself).
type declaration struct {
	name string // Name, or Recv.Name for methods
	bare string // Name
	file string // base name
	line int
	kind string // func, method, type
}

// oracle type-checks net/http with go/types and records its declarations
// and, for each called function or method object name, the functions and
// methods whose bodies contain such a call.
type oracle struct {
	decls   []declaration
	callers map[string]map[string]bool // callee name -> set of "file:line" of enclosing FuncDecl
	files   map[string]bool            // base names of the files the build context selects
}

var (
	oracleOnce sync.Once
	theOracle  *oracle
	oracleErr  error
)

func loadOracle(t *testing.T) *oracle {
	t.Helper()
	oracleOnce.Do(func() { theOracle, oracleErr = buildOracle(netHTTPRoot()) })
	if oracleErr != nil {
		t.Fatalf("go/types oracle: %v", oracleErr)
	}
	return theOracle
}

func buildOracle(dir string) (*oracle, error) {
	ctxt := build.Default
	ctxt.CgoEnabled = false
	pkg, err := ctxt.ImportDir(dir, 0)
	if err != nil {
		return nil, err
	}
	fset := token.NewFileSet()
	var files []*ast.File
	for _, name := range pkg.GoFiles {
		f, err := parser.ParseFile(fset, filepath.Join(dir, name), nil, parser.SkipObjectResolution)
		if err != nil {
			return nil, err
		}
		files = append(files, f)
	}
	build.Default.CgoEnabled = false
	conf := types.Config{Importer: importer.ForCompiler(fset, "source", nil)}
	info := &types.Info{Uses: map[*ast.Ident]types.Object{}}
	if _, err := conf.Check("net/http", fset, files, info); err != nil {
		return nil, err
	}
	o := &oracle{callers: map[string]map[string]bool{}, files: map[string]bool{}}
	for _, name := range pkg.GoFiles {
		o.files[name] = true
	}
	for _, f := range files {
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				pos := fset.Position(d.Pos())
				decl := declaration{name: d.Name.Name, bare: d.Name.Name, file: filepath.Base(pos.Filename), line: pos.Line, kind: "func"}
				if d.Recv != nil && len(d.Recv.List) == 1 {
					decl.name = recvName(d.Recv.List[0].Type) + "." + d.Name.Name
					decl.kind = "method"
				}
				o.decls = append(o.decls, decl)
				if d.Body == nil {
					continue
				}
				key := fmt.Sprintf("%s:%d", decl.file, decl.line)
				ast.Inspect(d.Body, func(n ast.Node) bool {
					call, ok := n.(*ast.CallExpr)
					if !ok {
						return true
					}
					var id *ast.Ident
					switch fn := ast.Unparen(call.Fun).(type) {
					case *ast.Ident:
						id = fn
					case *ast.SelectorExpr:
						id = fn.Sel
					case *ast.IndexExpr: // generic instantiation f[T](...)
						if x, ok := fn.X.(*ast.Ident); ok {
							id = x
						}
					}
					if id == nil {
						return true
					}
					if fobj, ok := info.Uses[id].(*types.Func); ok {
						if o.callers[fobj.Name()] == nil {
							o.callers[fobj.Name()] = map[string]bool{}
						}
						o.callers[fobj.Name()][key] = true
					}
					return true
				})
			case *ast.GenDecl:
				if d.Tok != token.TYPE {
					continue
				}
				for _, s := range d.Specs {
					ts := s.(*ast.TypeSpec)
					pos := fset.Position(ts.Pos())
					o.decls = append(o.decls, declaration{name: ts.Name.Name, bare: ts.Name.Name, file: filepath.Base(pos.Filename), line: pos.Line, kind: "type"})
				}
			}
		}
	}
	return o, nil
}

func recvName(e ast.Expr) string {
	switch t := e.(type) {
	case *ast.StarExpr:
		return recvName(t.X)
	case *ast.IndexExpr:
		return recvName(t.X)
	case *ast.IndexListExpr:
		return recvName(t.X)
	case *ast.Ident:
		return t.Name
	}
	return "?"
}

// uniqueExported returns the exported declarations whose bare name is
// declared once in the whole indexed tree (all of net/http and its
// subpackages, tests included), sorted by name.
func uniqueExported(o *oracle) []declaration {
	count := httpNames
	var out []declaration
	for _, d := range o.decls {
		if token.IsExported(d.bare) && count[d.bare] == 1 {
			out = append(out, d)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].name < out[j].name })
	return out
}

// TestUniqueNameQueriesPutDeclarationFirst: for every exported function,
// method or type of net/http whose name is unique in the tree, both the
// bare name and "where is X defined?" put its declaration first.
func TestUniqueNameQueriesPutDeclarationFirst(t *testing.T) {
	p := netHTTP(t)
	o := loadOracle(t)
	decls := uniqueExported(o)
	if len(decls) < 50 {
		t.Fatalf("only %d unique exported declarations found; the oracle or the index is broken", len(decls))
	}
	kinds := map[string]int{}
	for _, d := range decls {
		kinds[d.kind]++
		for _, q := range []string{d.bare, "where is " + d.bare + " defined?"} {
			a, err := p.Search(context.Background(), q, 5)
			if err != nil {
				t.Fatalf("%q: %v", q, err)
			}
			if len(a.Hits) == 0 {
				t.Errorf("%q: no hits (class %s)", q, a.Class)
				continue
			}
			h := a.Hits[0]
			if h.Path != d.file || h.StartLine != d.line {
				t.Errorf("%q: first hit %s:%d %s, want declaration %s:%d", q, h.Path, h.StartLine, h.Symbol, d.file, d.line)
			}
		}
	}
	t.Logf("checked %d declarations (%v), 2 queries each", len(decls), kinds)
}

// TestCallersMatchTypeCheckedOracle: "what calls X?" returns the functions
// and methods whose bodies call X, checked against go/types over at least
// 30 X, with micro-averaged precision and recall both >= 0.9.
func TestCallersMatchTypeCheckedOracle(t *testing.T) {
	p := netHTTP(t)
	o := loadOracle(t)
	var targets []declaration
	for _, d := range uniqueExported(o) {
		if d.kind != "type" && len(o.callers[d.bare]) > 0 {
			targets = append(targets, d)
		}
	}
	// Unexported functions too: "what calls readRequest?" is a real question.
	count := httpNames
	for _, d := range o.decls {
		if d.kind != "type" && !token.IsExported(d.bare) && count[d.bare] == 1 && len(o.callers[d.bare]) > 0 {
			targets = append(targets, d)
		}
	}
	if len(targets) < 30 {
		t.Fatalf("only %d targets with callers; need at least 30", len(targets))
	}
	var tp, fp, fn int
	var macroP, macroR float64
	for _, d := range targets {
		a, err := p.Search(context.Background(), "what calls "+d.bare+"?", 1000)
		if err != nil {
			t.Fatalf("%s: %v", d.bare, err)
		}
		if a.Class != "relationship" {
			t.Errorf("what calls %s?: class %s, want relationship", d.bare, a.Class)
		}
		got := map[string]bool{}
		for _, h := range a.Hits {
			// Compare like with like: functions and methods in the files
			// the oracle type-checks (the package's own non-test files for
			// this GOOS/GOARCH; the index also holds files for js/wasm and
			// `//go:build ignore` programs, which go/types never sees).
			if !o.files[h.Path] || (h.Kind != "function" && h.Kind != "method") {
				continue
			}
			got[fmt.Sprintf("%s:%d", h.Path, h.StartLine)] = true
		}
		want := o.callers[d.bare]
		var ltp int
		for k := range got {
			if want[k] {
				ltp++
			} else {
				fp++
				t.Logf("what calls %s?: extra %s", d.bare, k)
			}
		}
		for k := range want {
			if !got[k] {
				fn++
				t.Logf("what calls %s?: missed %s", d.bare, k)
			}
		}
		tp += ltp
		p, r := 1.0, 1.0
		if len(got) > 0 {
			p = float64(ltp) / float64(len(got))
		}
		if len(want) > 0 {
			r = float64(ltp) / float64(len(want))
		}
		macroP += p
		macroR += r
	}
	precision := float64(tp) / float64(tp+fp)
	recall := float64(tp) / float64(tp+fn)
	n := float64(len(targets))
	t.Logf("%d targets: micro precision %.3f recall %.3f; macro precision %.3f recall %.3f (tp=%d fp=%d fn=%d)",
		len(targets), precision, recall, macroP/n, macroR/n, tp, fp, fn)
	if precision < 0.9 || recall < 0.9 {
		t.Errorf("precision %.3f, recall %.3f: both must be >= 0.9", precision, recall)
	}
	if os.Getenv("RLM_ORACLE_VERBOSE") != "" {
		for _, d := range targets {
			t.Logf("target %s (%s:%d) callers %d", d.name, d.file, d.line, len(o.callers[d.bare]))
		}
	}
}

// TestQualifiedRelationRetargetsToTheLastSegment: on net/http, "what does
// http.Get call?" finds no symbol "http.Get"; the rules resolve it to "Get",
// say so, and the graph step then follows Get's edges — the note appears
// only because the retarget really ran.
func TestQualifiedRelationRetargetsToTheLastSegment(t *testing.T) {
	p := netHTTP(t)
	a, err := p.Search(context.Background(), "what does http.Get call?", 10)
	if err != nil {
		t.Fatal(err)
	}
	graph := ""
	for _, s := range a.Plan {
		if s.Strategy == "graph" {
			graph = s.Name
		}
	}
	if graph != "Get" {
		t.Fatalf("the graph step searched %q, want \"Get\" (plan %+v)", graph, a.Plan)
	}
	if a.Resolved == nil || a.Resolved.From != "http.Get" || a.Resolved.To != "Get" {
		t.Fatalf("resolved %+v, want http.Get -> Get", a.Resolved)
	}
	if len(a.Hits) == 0 {
		t.Fatal("no callees of Get")
	}
	// A qualified name whose last segment does not exist either is a gap,
	// with no claim of a resolution.
	a, err = p.Search(context.Background(), "what does http.Zqxwvkj call?", 10)
	if err != nil {
		t.Fatal(err)
	}
	if a.Resolved != nil || a.Gap == "" {
		t.Fatalf("resolved %+v gap %q: want no resolution and a gap", a.Resolved, a.Gap)
	}
}
