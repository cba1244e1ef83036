package eval

import (
	"context"
	"go/ast"
	"go/build"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/rlm-dev/rlm/internal/gocall"
)

// goGold is the callers gold of a Go tree, from go/types: for each
// function or method defined in the tree (by where it starts), the
// functions and methods of the tree whose bodies call it. Checked lists
// the files that were type-checked; hits in other files are out of the
// gold's sight and are not scored.
type goGold struct {
	callers map[key]map[key]bool
	checked map[string]bool
}

// goCallers type-checks every Go package of the tree (the files go/build
// selects for this platform, in-package tests included, external test
// packages as their own package) and records resolved calls. Imports of
// the tree's own packages are resolved to the tree (its import path comes
// from go.mod, or from the root's place under GOROOT/src); other imports
// are type-checked from source by go/importer. Type errors are tolerated:
// a call that does not resolve is simply not gold.
func goCallers(ctx context.Context, root string) *goGold {
	g := &goGold{callers: map[key]map[key]bool{}, checked: map[string]bool{}}
	fset := token.NewFileSet()
	c := &goChecker{root: root, fset: fset, prefix: importPrefix(root), pkgs: map[string]*types.Package{}, busy: map[string]bool{},
		fallback: importer.ForCompiler(fset, "source", nil), decls: map[token.Pos]key{}}
	var dirs []string
	filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if d.IsDir() {
			n := d.Name()
			if p != root && (strings.HasPrefix(n, ".") || strings.HasPrefix(n, "_") || n == "testdata" || n == "vendor") {
				return filepath.SkipDir
			}
			dirs = append(dirs, p)
		}
		return nil
	})
	sort.Strings(dirs)
	for _, dir := range dirs {
		if ctx.Err() != nil {
			break
		}
		c.checkDir(dir, g)
	}
	return g
}

type goChecker struct {
	root, prefix string
	fset         *token.FileSet
	pkgs         map[string]*types.Package // by directory
	busy         map[string]bool
	fallback     types.Importer
	decls        map[token.Pos]key // function name position -> its definition
	files        []checkedFile
}

type checkedFile struct {
	rel  string
	file *ast.File
	info *types.Info
}

// importPrefix is the import path of the root directory: go.mod's module
// path, or the root's path under GOROOT/src, or "".
func importPrefix(root string) string {
	if b, err := os.ReadFile(filepath.Join(root, "go.mod")); err == nil {
		for _, l := range strings.Split(string(b), "\n") {
			if f := strings.Fields(l); len(f) == 2 && f[0] == "module" {
				return strings.Trim(f[1], `"`)
			}
		}
	}
	src := filepath.Join(build.Default.GOROOT, "src")
	if rel, err := filepath.Rel(src, root); err == nil && !strings.HasPrefix(rel, "..") && rel != "." {
		return filepath.ToSlash(rel)
	}
	return ""
}

// dirOf maps an import path to a directory of the tree, or "".
func (c *goChecker) dirOf(path string) string {
	if c.prefix == "" {
		return ""
	}
	if path == c.prefix {
		return c.root
	}
	if rest, ok := strings.CutPrefix(path, c.prefix+"/"); ok {
		return filepath.Join(c.root, filepath.FromSlash(rest))
	}
	return ""
}

func (c *goChecker) Import(path string) (*types.Package, error) {
	if dir := c.dirOf(path); dir != "" && !c.busy[dir] {
		if p := c.load(dir); p != nil {
			return p, nil
		}
	}
	return c.fallback.Import(path)
}

// load type-checks the package in dir (with its in-package tests) once.
func (c *goChecker) load(dir string) *types.Package {
	if p, ok := c.pkgs[dir]; ok {
		return p
	}
	bp, err := build.ImportDir(dir, 0)
	if err != nil || len(bp.GoFiles)+len(bp.TestGoFiles) == 0 {
		c.pkgs[dir] = nil
		return nil
	}
	c.busy[dir] = true
	defer delete(c.busy, dir)
	path := bp.Name
	if rel, err := filepath.Rel(c.root, dir); err == nil && c.prefix != "" {
		path = c.prefix
		if rel != "." {
			path += "/" + filepath.ToSlash(rel)
		}
	}
	p := c.check(path, dir, append(append([]string{}, bp.GoFiles...), bp.TestGoFiles...))
	c.pkgs[dir] = p
	return p
}

func (c *goChecker) checkDir(dir string, g *goGold) {
	c.load(dir)
	if bp, err := build.ImportDir(dir, 0); err == nil && len(bp.XTestGoFiles) > 0 {
		c.check(bp.Name+"_test", dir, bp.XTestGoFiles)
	}
	// Record the calls of every file checked so far, once.
	for _, f := range c.files {
		c.record(f, g)
	}
	c.files = nil
}

func (c *goChecker) check(path, dir string, names []string) *types.Package {
	var files []*ast.File
	var rels []string
	for _, n := range names {
		abs := filepath.Join(dir, n)
		f, err := parser.ParseFile(c.fset, abs, nil, parser.SkipObjectResolution)
		if err != nil && f == nil {
			continue
		}
		rel, _ := filepath.Rel(c.root, abs)
		rel = filepath.ToSlash(rel)
		files = append(files, f)
		rels = append(rels, rel)
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok {
				c.decls[fd.Name.Pos()] = key{rel, c.fset.Position(fd.Pos()).Line}
			}
		}
	}
	info := &types.Info{Uses: map[*ast.Ident]types.Object{}}
	conf := types.Config{Importer: c, Error: func(error) {}, FakeImportC: true}
	p, _ := conf.Check(path, c.fset, files, info)
	for i, f := range files {
		c.files = append(c.files, checkedFile{rels[i], f, info})
	}
	return p
}

// record adds the resolved calls of one file to the gold.
func (c *goChecker) record(cf checkedFile, g *goGold) {
	g.checked[cf.rel] = true
	for _, d := range cf.file.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok || fd.Body == nil {
			continue
		}
		caller := key{cf.rel, c.fset.Position(fd.Pos()).Line}
		ast.Inspect(fd.Body, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			fn := gocall.Callee(cf.info, call)
			if fn == nil {
				return true
			}
			callee, ok := c.decls[fn.Origin().Pos()]
			if !ok {
				return true
			}
			if g.callers[callee] == nil {
				g.callers[callee] = map[key]bool{}
			}
			g.callers[callee][caller] = true
			return true
		})
	}
}
