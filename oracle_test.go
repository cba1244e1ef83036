package rlm_test

import (
	"errors"
	"fmt"
	"go/ast"
	"go/build"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"io/fs"
	"path"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/rlm-dev/rlm/internal/gocall"
)

// The callers oracle: go/types over every package of the indexed tree
// (net/http and its subpackages), each with its in-package tests and its
// external test package, for this GOOS/GOARCH with cgo off. A call is keyed
// by the declaration its callee resolves to (the *types.Func, through
// Origin for instantiated generics, identified by its position), so a call
// of (*sync.Mutex).Lock never counts as a call of a net/http method named
// Lock.

// declaration is one top-level declaration of package net/http (non-test
// files of the package directory itself).
type declaration struct {
	name string // Name, or Recv.Name for methods
	bare string // Name
	file string // base name
	line int
	kind string // func, method, type
	key  string // declKey of its object ("" for types)
}

// oracle holds net/http's declarations and, for every function or method
// declared in the tree, the functions, methods and package-level variables
// whose bodies or initialisers call it.
type oracle struct {
	decls []declaration
	// callers: callee declKey -> set of "path:line" of the enclosing
	// top-level declaration (path relative to the tree root, slash-separated).
	callers map[string]map[string]bool
	// seen: relative paths of every file go/types checked.
	seen map[string]bool
}

var (
	oracleOnce sync.Once
	theOracle  *oracle
	oracleErr  error
)

func loadOracle(t *testing.T) *oracle {
	t.Helper()
	oracleOnce.Do(func() { theOracle, oracleErr = buildOracle(netHTTPRoot(), "net/http") })
	if oracleErr != nil {
		t.Fatalf("go/types oracle: %v", oracleErr)
	}
	return theOracle
}

// treeChecker type-checks the packages whose import paths are under
// rootPath from source itself, and delegates every other import to one
// shared source importer, so an object declared in the tree has one
// position however it is reached.
type treeChecker struct {
	fset     *token.FileSet
	ctxt     build.Context
	root     string // directory of rootPath
	rootPath string
	std      types.ImporterFrom
	base     map[string]*types.Package // non-test variants, by import path
	deps     map[string][]string       // in-tree imports of in-tree packages (non-test files)
	o        *oracle
}

// variant imports in-tree packages for one check: a package under test
// replaced by its with-tests variant, and in-tree packages that import it
// re-checked against that variant (as `go test` builds them).
type variant struct {
	c        *treeChecker
	override map[string]*types.Package
	under    string // import path of the package under test, or ""
	pkgs     map[string]*types.Package
}

func (v *variant) Import(p string) (*types.Package, error) { return v.ImportFrom(p, "", 0) }

func (v *variant) ImportFrom(p, dir string, mode types.ImportMode) (*types.Package, error) {
	if pkg, ok := v.override[p]; ok {
		return pkg, nil
	}
	if !v.c.inTree(p) {
		return v.c.std.ImportFrom(p, dir, mode)
	}
	if v.under == "" || !v.c.importsTransitively(p, v.under) {
		return v.c.check(p)
	}
	if pkg, ok := v.pkgs[p]; ok {
		return pkg, nil
	}
	bp, err := v.c.ctxt.Import(p, "", 0)
	if err != nil {
		return nil, err
	}
	pkg, _, err := v.c.typeCheck(p, bp.Dir, bp.GoFiles, v)
	if err != nil {
		return nil, err
	}
	v.pkgs[p] = pkg
	return pkg, nil
}

func (c *treeChecker) inTree(p string) bool {
	return p == c.rootPath || strings.HasPrefix(p, c.rootPath+"/")
}

// importsTransitively reports whether in-tree package p imports target,
// directly or through other in-tree packages (no package outside the tree
// imports one inside it: checked by buildOracle).
func (c *treeChecker) importsTransitively(p, target string) bool {
	for _, d := range c.deps[p] {
		if d == target || c.importsTransitively(d, target) {
			return true
		}
	}
	return false
}

// check returns the non-test variant of in-tree package p, recording its
// calls.
func (c *treeChecker) check(p string) (*types.Package, error) {
	if pkg, ok := c.base[p]; ok {
		return pkg, nil
	}
	bp, err := c.ctxt.Import(p, "", 0)
	if err != nil {
		return nil, err
	}
	pkg, _, err := c.typeCheck(p, bp.Dir, bp.GoFiles, &variant{c: c})
	if err != nil {
		return nil, err
	}
	c.base[p] = pkg
	return pkg, nil
}

// typeCheck parses and checks files of dir as package p, records every
// call in them, and returns the package and its syntax.
func (c *treeChecker) typeCheck(p, dir string, names []string, imp types.ImporterFrom) (*types.Package, []*ast.File, error) {
	var files []*ast.File
	for _, name := range names {
		f, err := parser.ParseFile(c.fset, filepath.Join(dir, name), nil, parser.SkipObjectResolution)
		if err != nil {
			return nil, nil, err
		}
		files = append(files, f)
	}
	conf := types.Config{Importer: imp}
	info := &types.Info{Uses: map[*ast.Ident]types.Object{}, Defs: map[*ast.Ident]types.Object{}}
	pkg, err := conf.Check(p, c.fset, files, info)
	if err != nil {
		return nil, nil, fmt.Errorf("type-checking %s: %w", p, err)
	}
	for _, f := range files {
		c.recordCalls(f, info)
	}
	return pkg, files, nil
}

// rel is the tree-relative, slash-separated path of a position's file, or
// "" for a file outside the tree.
func (c *treeChecker) rel(pos token.Pos) string {
	r, err := filepath.Rel(c.root, c.fset.Position(pos).Filename)
	if err != nil || strings.HasPrefix(r, "..") {
		return ""
	}
	return filepath.ToSlash(r)
}

// declKey identifies a declared object by where it is declared: the
// relative path, line and column of its name.
func (c *treeChecker) declKey(obj types.Object) string { return c.posKey(obj.Pos()) }

// posKey is "path:line:column" of pos, path relative to the tree root, or
// "" for a position outside the tree.
func (c *treeChecker) posKey(pos token.Pos) string {
	r := c.rel(pos)
	if r == "" {
		return ""
	}
	p := c.fset.Position(pos)
	return fmt.Sprintf("%s:%d:%d", r, p.Line, p.Column)
}

// recordCalls adds every call in f whose callee is a function or method
// declared in the tree, attributed to the enclosing top-level function,
// method or package-level variable.
func (c *treeChecker) recordCalls(f *ast.File, info *types.Info) {
	file := c.rel(f.Pos())
	c.o.seen[file] = true
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			if d.Body != nil {
				c.callsIn(d.Body, fmt.Sprintf("%s:%d", file, c.fset.Position(d.Pos()).Line), info)
			}
		case *ast.GenDecl:
			if d.Tok != token.VAR {
				continue
			}
			for _, s := range d.Specs {
				vs := s.(*ast.ValueSpec)
				for _, v := range vs.Values {
					c.callsIn(v, fmt.Sprintf("%s:%d", file, c.fset.Position(vs.Pos()).Line), info)
				}
			}
		}
	}
}

func (c *treeChecker) callsIn(n ast.Node, caller string, info *types.Info) {
	ast.Inspect(n, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok {
			return true
		}
		fobj := gocall.Callee(info, call)
		if fobj == nil {
			return true
		}
		key := c.declKey(fobj.Origin())
		if key == "" {
			return true
		}
		if c.o.callers[key] == nil {
			c.o.callers[key] = map[string]bool{}
		}
		c.o.callers[key][caller] = true
		return true
	})
}

// buildOracle checks every package under root (import path rootPath) with
// its tests, and records net/http's own declarations.
func buildOracle(root, rootPath string) (*oracle, error) {
	// The source importer reads build.Default; cgo off keeps it from
	// needing the C toolchain (the build this oracle models has cgo off).
	build.Default.CgoEnabled = false
	c := &treeChecker{
		fset: token.NewFileSet(), ctxt: build.Default, root: root, rootPath: rootPath,
		base: map[string]*types.Package{}, deps: map[string][]string{},
		o: &oracle{callers: map[string]map[string]bool{}, seen: map[string]bool{}},
	}
	std, ok := importer.ForCompiler(c.fset, "source", nil).(types.ImporterFrom)
	if !ok {
		return nil, errors.New("the source importer is not a types.ImporterFrom")
	}
	c.std = std
	var pkgs []*build.Package
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || !d.IsDir() {
			return err
		}
		if d.Name() == "testdata" {
			return filepath.SkipDir
		}
		bp, err := c.ctxt.ImportDir(p, 0)
		var noGo *build.NoGoError
		if errors.As(err, &noGo) {
			return nil
		}
		if err != nil {
			return err
		}
		r, err := filepath.Rel(root, p)
		if err != nil {
			return err
		}
		bp.ImportPath = path.Join(rootPath, filepath.ToSlash(r))
		pkgs = append(pkgs, bp)
		return nil
	})
	if err != nil {
		return nil, err
	}
	for _, bp := range pkgs {
		for _, i := range bp.Imports {
			if c.inTree(i) {
				c.deps[bp.ImportPath] = append(c.deps[bp.ImportPath], i)
			}
		}
	}
	for _, bp := range pkgs {
		if _, err := c.check(bp.ImportPath); err != nil {
			return nil, err
		}
		// The in-package tests: the package again with its _test.go files.
		withTests := c.base[bp.ImportPath]
		if len(bp.TestGoFiles) > 0 {
			withTests, _, err = c.typeCheck(bp.ImportPath, bp.Dir, append(append([]string(nil), bp.GoFiles...), bp.TestGoFiles...), &variant{c: c})
			if err != nil {
				return nil, err
			}
		}
		if len(bp.XTestGoFiles) > 0 {
			v := &variant{c: c, under: bp.ImportPath, override: map[string]*types.Package{bp.ImportPath: withTests}, pkgs: map[string]*types.Package{}}
			if _, _, err := c.typeCheck(bp.ImportPath+"_test", bp.Dir, bp.XTestGoFiles, v); err != nil {
				return nil, err
			}
		}
		if bp.ImportPath == rootPath {
			if c.o.decls, err = c.declarations(bp); err != nil {
				return nil, err
			}
		}
	}
	return c.o, nil
}

// declarations lists the top-level functions, methods and types of the
// package bp (its non-test files).
func (c *treeChecker) declarations(bp *build.Package) ([]declaration, error) {
	var out []declaration
	for _, name := range bp.GoFiles {
		f, err := parser.ParseFile(c.fset, filepath.Join(bp.Dir, name), nil, parser.SkipObjectResolution)
		if err != nil {
			return nil, err
		}
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				pos := c.fset.Position(d.Pos())
				decl := declaration{name: d.Name.Name, bare: d.Name.Name, file: name, line: pos.Line, kind: "func",
					key: c.posKey(d.Name.Pos())}
				if d.Recv != nil && len(d.Recv.List) == 1 {
					decl.name = recvName(d.Recv.List[0].Type) + "." + d.Name.Name
					decl.kind = "method"
				}
				out = append(out, decl)
			case *ast.GenDecl:
				if d.Tok != token.TYPE {
					continue
				}
				for _, s := range d.Specs {
					ts := s.(*ast.TypeSpec)
					pos := c.fset.Position(ts.Pos())
					out = append(out, declaration{name: ts.Name.Name, bare: ts.Name.Name, file: name, line: pos.Line, kind: "type"})
				}
			}
		}
	}
	return out, nil
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
