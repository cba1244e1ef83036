package project_test

import (
	"context"
	"database/sql"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/rlm-dev/rlm/project"
	"github.com/rlm-dev/rlm/retrieval"
)

// callTree is a Go module (example.com/m) whose files call across
// packages through imports, results, fields, embedded fields and
// methods of other files, a Python package, JavaScript modules, a Rust
// crate without its root, and files that depend on none of it.
func callTree() map[string]string {
	t := map[string]string{
		"lib/lib.go": `package lib

import "example.com/m/sub"

// Client calls the server.
type Client struct {
	*Base
	Conn *Conn
	R    *sub.Reader
}

// Conn is a connection.
type Conn struct{}

// Send sends.
func (c *Conn) Send() {}

// New makes a client.
func New() *Client { return nil }

// Helper helps.
func Helper() int { return 1 }
`,
		"lib/base.go": `package lib

// Base is embedded in Client.
type Base struct{}

// Close closes.
func (b *Base) Close() {}
`,
		"lib/extra.go": `package lib

// Do does.
func (c *Client) Do() {}
`,
		"sub/sub.go":   "package sub\n\n// Reader reads.\ntype Reader struct{}\n\n// Read reads.\nfunc (r *Reader) Read() {}\n",
		"sub2/sub.go":  "package sub\n\n// Reader reads too.\ntype Reader struct{}\n\n// Read reads too.\nfunc (r *Reader) Read() {}\n",
		"tool/tool.go": "package tool\n\n// X is a tool.\nfunc X() {}\n",
		"app/app.go": `package app

import "example.com/m/lib"

// Run runs.
func Run() {
	c := lib.New()
	c.Do()
	c.Conn.Send()
	c.R.Read()
	c.Close()
	lib.Helper()
	lib.Missing()
}
`,
		"app/more.go":      "package app\n\nimport \"example.com/m/lib\"\n\n// More helps more.\nfunc More() int { return lib.Helper() + lib.Assist() }\n",
		"app/tools.go":     "package app\n\nimport \"example.com/m/tool\"\n\n// Tools calls the tool.\nfunc Tools() { tool.X() }\n",
		"py/pkg/a.py":      "from .util import f\n\n\ndef g():\n    f()\n",
		"py/pkg/base.py":   "class Base:\n    def close(self):\n        pass\n",
		"py/pkg/child.py":  "from .base import Base\n\n\nclass Child(Base):\n    def run(self):\n        self.close()\n",
		"web/app.js":       "const s = require('./store');\nfunction h() { s.put(); }\n",
		"web/store.js":     "function put() {}\nmodule.exports = { put };\n",
		"rs/src/conn.rs":   "pub struct Conn;\nimpl Conn {\n    pub fn open() -> Conn { Conn }\n}\n",
		"rs/src/server.rs": "use crate::conn::Conn;\nfn dial() { Conn::open(); }\n",
	}
	for i := range 4 {
		t[fmt.Sprintf("filler/f%d.go", i)] = fmt.Sprintf("package filler\n\n// F%[1]d fills.\nfunc F%[1]d() { G%[1]d() }\n\n// G%[1]d fills.\nfunc G%[1]d() {}\n", i)
	}
	return t
}

// offsetTree is a tree whose import paths place it two ways: two files
// import example.com/m/lib, one other.org/x/lib (a tie would go to the
// shorter other.org/x).
func offsetTree() map[string]string {
	return map[string]string{
		"lib/lib.go": "package lib\n\n// X is it.\nfunc X() {}\n",
		"a.go":       "package main\n\nimport \"example.com/m/lib\"\n\n// A calls X.\nfunc A() { lib.X() }\n",
		"b.go":       "package main\n\nimport \"other.org/x/lib\"\n\n// B calls X.\nfunc B() { lib.X() }\n",
		"c.go":       "package main\n\nimport \"example.com/m/lib\"\n\n// C calls X.\nfunc C() { lib.X() }\n",
		"d.go":       "package main\n\n// D calls nothing.\nfunc D() {}\n",
	}
}

func writeTree(t *testing.T, root string, files map[string]string) {
	t.Helper()
	for p, src := range files {
		writeFile(t, root, p, src)
	}
}

func writeFile(t *testing.T, root, p, src string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Join(root, filepath.Dir(p)), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, p), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestAnUpdateResolvesAgainExactlyTheFilesAnEditCanChange: after edits
// that change what another file's calls resolve to — a definition
// added, removed or renamed, an import of a declaring file changed, an
// import that moves the tree's import offset, a method moved between
// files, an embedded field or its type's method removed, a struct moved to
// a file with other imports, an earlier file declaring the same name, a
// defining file deleted, a package renamed, a directory's importable
// package changed, a Python, JavaScript or Rust module added or deleted,
// a Python base class's method or a class's base removed — the updated search index holds what a fresh build holds (documents,
// versions, answers) and so do its scope tables (the next update starts
// from them); and the update resolved the changed files and exactly the
// files whose calls depend on what they define or defined (no filler
// file), writing those whose documents changed.
func TestAnUpdateResolvesAgainExactlyTheFilesAnEditCanChange(t *testing.T) {
	edit := func(p, old, new string) func(t *testing.T, root string) {
		return func(t *testing.T, root string) { editFile(t, filepath.Join(root, p), old, new) }
	}
	remove := func(p string) func(t *testing.T, root string) {
		return func(t *testing.T, root string) { mustRemove(t, filepath.Join(root, p)) }
	}
	add := func(p, src string) func(t *testing.T, root string) {
		return func(t *testing.T, root string) { writeFile(t, root, p, src) }
	}
	cases := []struct {
		name                     string
		tree                     func() map[string]string
		step                     []func(t *testing.T, root string)
		changed, resolved, wrote int
	}{
		{"a body edited: no other file", callTree, steps(edit("lib/lib.go", "return 1", "return 2")), 1, 1, 1},
		{"a definition another file calls added", callTree, steps(edit("lib/extra.go", "func (c *Client) Do() {}", "func (c *Client) Do() {}\n\n// Missing is here now.\nfunc Missing() {}")), 1, 2, 2},
		{"a definition other files call removed", callTree, steps(edit("lib/lib.go", "// Helper helps.\nfunc Helper() int { return 1 }\n", "")), 1, 3, 3},
		{"a definition other files call renamed", callTree, steps(edit("lib/lib.go", "func Helper() int", "func Assist() int")), 1, 3, 3},
		{"an import of a declaring file changed", callTree, steps(edit("lib/lib.go", `import "example.com/m/sub"`, `import sub "example.com/m/sub2"`)), 1, 2, 2},
		{"an import edit moves the tree's import offset", offsetTree, steps(add("c.go", "package main\n\n// C calls nothing now.\nfunc C() {}\n")), 1, 3, 3},
		{"a method moved between files", callTree, steps(
			edit("lib/extra.go", "// Do does.\nfunc (c *Client) Do() {}\n", ""),
			edit("lib/lib.go", "// Helper helps.", "// Do does.\nfunc (c *Client) Do() {}\n\n// Helper helps."),
		), 2, 3, 2},
		{"an embedded type's method removed", callTree, steps(edit("lib/base.go", "func (b *Base) Close() {}", "")), 1, 2, 2},
		{"an embedded field removed", callTree, steps(edit("lib/lib.go", "\t*Base\n", "")), 1, 2, 2},
		{"a struct moved to a file with other imports", callTree, steps(
			edit("lib/lib.go", "// Client calls the server.\ntype Client struct {\n\t*Base\n\tConn *Conn\n\tR    *sub.Reader\n}\n", ""),
			add("lib/extra.go", "package lib\n\nimport sub \"example.com/m/sub2\"\n\n// Client calls the server.\ntype Client struct {\n\t*Base\n\tConn *Conn\n\tR    *sub.Reader\n}\n\n// Do does.\nfunc (c *Client) Do() {}\n"),
		), 2, 3, 3},
		{"an earlier file declares the same name", callTree, steps(add("lib/aaa.go", "package lib\n\n// New is declared again.\nfunc New() *Conn { return nil }\n")), 1, 2, 2},
		{"a file defining what others call deleted", callTree, steps(remove("lib/extra.go")), 1, 1, 2},
		{"a package renamed", callTree, steps(edit("tool/tool.go", "package tool", "package tools")), 1, 2, 2},
		{"a directory's importable package changes", callTree, steps(add("tool/main.go", "package main\n\nfunc main() {}\n")), 1, 2, 2},
		{"a Python module added", callTree, steps(add("py/pkg/util.py", "def f():\n    pass\n")), 1, 2, 2},
		{"a Python base class's method removed", callTree, steps(edit("py/pkg/base.py", "    def close(self):\n        pass\n", "    pass\n")), 1, 2, 2},
		{"a Python class's base removed", callTree, steps(edit("py/pkg/child.py", "class Child(Base):", "class Child:")), 1, 1, 1},
		{"a JavaScript module deleted", callTree, steps(remove("web/store.js")), 1, 1, 2},
		{"a Rust crate root added", callTree, steps(add("rs/src/lib.rs", "pub mod conn;\npub mod server;\n")), 1, 2, 2},
	}
	reqs := []retrieval.Request{
		{Strategy: retrieval.Graph, Relation: retrieval.Callers, Name: "Helper", Limit: 50},
		{Strategy: retrieval.Graph, Relation: retrieval.Callees, Name: "Run", Limit: 50},
		{Strategy: retrieval.Exact, Name: "Do", Limit: 20},
		{Strategy: retrieval.Graph, Relation: retrieval.Callers, Name: "Base.close", Limit: 50},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			root := t.TempDir()
			writeTree(t, root, c.tree())
			dir := t.TempDir()
			opts := project.Options{DBPath: filepath.Join(dir, "kb.sqlite")}
			ctx := context.Background()
			p, err := project.Open(ctx, root, opts)
			if err != nil {
				t.Fatal(err)
			}
			files := p.Stats().Files
			var resolved, changed, wrote int
			for _, step := range c.step {
				step(t, root)
			}
			if ok, err := p.Refresh(ctx); err != nil || !ok {
				t.Fatalf("refresh: changed %v, %v", ok, err)
			}
			st, id := p.Stats(), p.Snapshot()
			changed, resolved, wrote = st.IndexChanged, st.IndexResolved, st.IndexFiles
			if st.DerivedFrom == 0 {
				t.Fatalf("the search index was not derived: %+v", st)
			}
			derived := contentOf(t, p, reqs)
			p.Close()
			derivedScopes := scopeTables(t, dir, id.Generation)
			removeIndexFiles(t, dir)
			p, err = project.Open(ctx, root, opts)
			if err != nil {
				t.Fatal(err)
			}
			defer p.Close()
			if st := p.Stats(); st.DerivedFrom != 0 || st.Reused || p.Snapshot().Generation != id.Generation {
				t.Fatalf("the second open: %+v at %v, want a build of %v", st, p.Snapshot(), id)
			}
			built := contentOf(t, p, reqs)
			if diff := cmp.Diff(built, derived); diff != "" {
				t.Errorf("the derived index differs from a fresh build (-built +derived):\n%s", diff)
			}
			p.Close()
			builtScopes := scopeTables(t, dir, id.Generation)
			if len(builtScopes["scope_deps"]) == 0 || len(builtScopes["scope_defs"]) == 0 {
				t.Fatalf("the fresh build's scope tables hold no lookups or definitions: %v", builtScopes)
			}
			if diff := cmp.Diff(builtScopes, derivedScopes); diff != "" {
				t.Errorf("the derived scope tables differ from a fresh build's (-built +derived):\n%s", diff)
			}
			if changed != c.changed || resolved != c.resolved || wrote != c.wrote {
				t.Errorf("of %d files the update changed %d, resolved %d, wrote %d; want %d, %d, %d",
					files, changed, resolved, wrote, c.changed, c.resolved, c.wrote)
			}
		})
	}
}

// scopeTables reads the scope tables of the search index of generation
// gen in dir, file and scope ids replaced by paths and keys: table ->
// rows, sorted.
func scopeTables(t *testing.T, dir string, gen int64) map[string][]string {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+filepath.Join(dir, indexFileOf(t, dir, gen))+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	queries := map[string]string{
		"scope_files": `SELECT path, language, scope, imports, hex(contrib), hex(deps) FROM scope_files`,
		"scope_defs": `SELECT k.key, d.type, d.name, f.path, n.key, d.decl FROM scope_defs d
			JOIN scope_keys k ON k.id = d.scope JOIN scope_files f ON f.id = d.file JOIN scope_keys n ON n.id = d.kind`,
		"scope_fields": `SELECT k.key, x.type, f.path, x.idx, x.qual, x.name FROM scope_fields x
			JOIN scope_keys k ON k.id = x.scope JOIN scope_files f ON f.id = x.file`,
		"scope_entries": `SELECT kind, a, b, n FROM scope_entries`,
		"scope_deps":    `SELECT d.key, f.path FROM scope_deps d JOIN scope_files f ON f.id = d.file`,
		"scope_meta":    `SELECT k, v FROM scope_meta`,
		"orphan_deps":   `SELECT key, file FROM scope_deps WHERE file NOT IN (SELECT id FROM scope_files)`,
	}
	out := map[string][]string{}
	for table, q := range queries {
		rows, err := db.Query(q)
		if err != nil {
			t.Fatalf("%s: %v", table, err)
		}
		cols, _ := rows.Columns()
		for rows.Next() {
			vals := make([]any, len(cols))
			ptrs := make([]any, len(cols))
			for i := range vals {
				ptrs[i] = &vals[i]
			}
			if err := rows.Scan(ptrs...); err != nil {
				t.Fatal(err)
			}
			var parts []string
			for _, v := range vals {
				if b, ok := v.([]byte); ok {
					v = hex.EncodeToString(b)
				}
				parts = append(parts, fmt.Sprint(v))
			}
			out[table] = append(out[table], strings.Join(parts, " | "))
		}
		if err := rows.Err(); err != nil {
			t.Fatal(err)
		}
		rows.Close()
		slices.Sort(out[table])
	}
	return out
}

// TestScopeTablesThatAreNotWholeAreRebuiltByAnUpdate: an earlier index
// whose scope tables are not marked complete, or hold fewer files than it
// has documents for, is updated by resolving every file again (and
// rewriting the tables), never from what they hold; the result is a fresh
// build's.
func TestScopeTablesThatAreNotWholeAreRebuiltByAnUpdate(t *testing.T) {
	for _, damage := range []string{
		`DELETE FROM scope_meta WHERE k = 'complete'`,
		`DELETE FROM scope_files WHERE path = 'lib/base.go'`,
	} {
		t.Run(damage, func(t *testing.T) {
			root, dir := t.TempDir(), t.TempDir()
			writeTree(t, root, callTree())
			opts := project.Options{DBPath: filepath.Join(dir, "kb.sqlite")}
			ctx := context.Background()
			p, err := project.Open(ctx, root, opts)
			if err != nil {
				t.Fatal(err)
			}
			gen := p.Snapshot().Generation
			p.Close()
			db, err := sql.Open("sqlite", "file:"+filepath.Join(dir, indexFileOf(t, dir, gen)))
			if err != nil {
				t.Fatal(err)
			}
			if res, err := db.Exec(damage); err != nil {
				t.Fatal(err)
			} else if n, _ := res.RowsAffected(); n != 1 {
				t.Fatalf("%s: %d rows", damage, n)
			}
			if err := db.Close(); err != nil {
				t.Fatal(err)
			}
			editFile(t, filepath.Join(root, "lib/lib.go"), "return 1", "return 2")
			p, err = project.Open(ctx, root, opts)
			if err != nil {
				t.Fatal(err)
			}
			st, id := p.Stats(), p.Snapshot()
			p.Close()
			if st.DerivedFrom == 0 || st.IndexResolved != st.Files || st.IndexFiles != 1 {
				t.Errorf("derived from g%d resolving %d of %d files, writing %d: want derived, every file resolved, 1 written", st.DerivedFrom, st.IndexResolved, st.Files, st.IndexFiles)
			}
			derived := scopeTables(t, dir, id.Generation)
			removeIndexFiles(t, dir)
			p, err = project.Open(ctx, root, opts)
			if err != nil {
				t.Fatal(err)
			}
			p.Close()
			if diff := cmp.Diff(scopeTables(t, dir, id.Generation), derived); diff != "" {
				t.Errorf("the scope tables differ from a fresh build's (-built +derived):\n%s", diff)
			}
		})
	}
}

// indexFileOf is the name of the search index of generation gen in dir.
func indexFileOf(t *testing.T, dir string, gen int64) string {
	t.Helper()
	names := dirFiles(t, dir, func(n string) bool {
		return strings.HasPrefix(n, fmt.Sprintf("search-g%d-", gen)) && strings.HasSuffix(n, ".sqlite") && !strings.Contains(n, ".tmp")
	})
	if len(names) != 1 {
		t.Fatalf("search indexes of generation %d: %v", gen, names)
	}
	return names[0]
}
