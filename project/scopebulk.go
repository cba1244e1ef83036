package project

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/rlm-dev/rlm/sourcefacts"
)

// bulkScopes are every file's contribution and lookups (deps[i] those of
// files[i]), gathered to be written into emptied scope tables at once (scopeStore.write): the rows
// sorted by their keys and many to a statement, which costs SQLite far
// less than a statement per row.
type bulkScopes struct {
	files []sourcefacts.FileScope
	deps  [][]int32
}

// defRow and depRow are rows of scope_defs and scope_deps, the tables
// with a row per definition and per lookup of the tree: held as values,
// not as rows of boxed cells, until they are inserted.
type defRow struct {
	scope      int64
	typ, name  string
	file, kind int64
	decl       string
}

type depRow struct {
	key  int32
	file int64
}

// write fills the emptied tables (reset) with b: the files get the ids 1,
// 2, ... in their order.
func (s *scopeStore) write(b bulkScopes) error {
	clear(s.memo)
	var files, fields [][]any
	var defs []defRow
	var deps []depRow
	entries := map[sourcefacts.ScopeEntry]int{}
	for i, fs := range b.files {
		id := int64(i + 1)
		files = append(files, []any{id, fs.Path, fs.Language, fs.Scope, encodeImports(fs.Imports), s.encodeContribution(fs), encodeDeps(b.deps[i])})
		sid, err := s.scopeID(fs.Scope, true)
		if err != nil {
			return err
		}
		for _, d := range fs.Defs {
			kind, err := s.scopeID(kindKey+d.Kind, true)
			if err != nil {
				return err
			}
			defs = append(defs, defRow{sid, d.Type, d.Name, id, kind, d.Decl})
		}
		for _, f := range fs.Fields {
			fields = append(fields, []any{sid, f.Container, id, int64(f.Index), f.Qual, f.Name})
		}
		for _, e := range fs.Entries {
			entries[e]++
		}
		for _, h := range b.deps[i] {
			deps = append(deps, depRow{h, id})
		}
	}
	var erows [][]any
	for e, n := range entries {
		erows = append(erows, []any{e.Kind, e.A, e.B, int64(n)})
	}
	// Each table in the order of its primary key (its first key columns).
	if err := s.insertSorted("scope_files", "id, path, language, scope, imports, contrib, deps", files, 1); err != nil {
		return err
	}
	slices.SortFunc(defs, func(a, b defRow) int {
		return cmp.Or(cmp.Compare(a.scope, b.scope), strings.Compare(a.typ, b.typ), strings.Compare(a.name, b.name), cmp.Compare(a.file, b.file))
	})
	if err := s.insertEach("scope_defs", "scope, type, name, file, kind, decl", 6, len(defs), func(i int, a []any) []any {
		d := &defs[i]
		return append(a, d.scope, d.typ, d.name, d.file, d.kind, d.decl)
	}); err != nil {
		return fmt.Errorf("scope_defs: %w", err)
	}
	if err := s.insertSorted("scope_fields", "scope, type, file, idx, qual, name", fields, 4); err != nil {
		return err
	}
	if err := s.insertSorted("scope_entries", "kind, a, b, n", erows, 3); err != nil {
		return err
	}
	slices.SortFunc(deps, func(a, b depRow) int { return cmp.Or(cmp.Compare(a.key, b.key), cmp.Compare(a.file, b.file)) })
	if err := s.insertEach("scope_deps", "key, file", 2, len(deps), func(i int, a []any) []any {
		return append(a, deps[i].key, deps[i].file)
	}); err != nil {
		return fmt.Errorf("scope_deps: %w", err)
	}
	return nil
}

// insertSorted inserts rows into table (columns cols) in the order of
// their first key cells.
func (s *scopeStore) insertSorted(table, cols string, rows [][]any, key int) error {
	slices.SortFunc(rows, func(a, b []any) int {
		for c := range key {
			if d := compareCell(a[c], b[c]); d != 0 {
				return d
			}
		}
		return 0
	})
	if err := s.insertRows(table, cols, rows); err != nil {
		return fmt.Errorf("%s: %w", table, err)
	}
	return nil
}

// compareCell orders two values of one column as SQLite's BINARY
// collation does (integers numerically, text bytewise).
func compareCell(a, b any) int {
	switch a := a.(type) {
	case int64:
		return cmp.Compare(a, b.(int64))
	case int32:
		return cmp.Compare(a, b.(int32))
	case string:
		return strings.Compare(a, b.(string))
	}
	return 0
}

// insertRows inserts rows (each of the columns cols) into table, many
// rows to a statement.
func (s *scopeStore) insertRows(table, cols string, rows [][]any) error {
	if len(rows) == 0 {
		return nil
	}
	return s.insertEach(table, cols, len(rows[0]), len(rows), func(i int, a []any) []any { return append(a, rows[i]...) })
}

// insertEach inserts n rows of width columns cols into table, row i's
// values appended to a by row, many rows to a statement: only one
// statement's values are boxed at a time.
func (s *scopeStore) insertEach(table, cols string, width, n int, row func(i int, a []any) []any) error {
	per := max(1, 30000/width) // SQLite's bound on parameters is 32766
	one := "(" + strings.TrimSuffix(strings.Repeat("?, ", width), ", ") + ")"
	for at := 0; at < n; {
		k := min(per, n-at)
		args := make([]any, 0, k*width)
		for i := at; i < at+k; i++ {
			args = row(i, args)
		}
		q := "INSERT INTO " + table + " (" + cols + ") VALUES " + strings.TrimSuffix(strings.Repeat(one+", ", k), ", ")
		if err := s.exec(q, args...); err != nil {
			return err
		}
		at += k
	}
	return nil
}
