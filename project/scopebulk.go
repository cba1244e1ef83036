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

// write fills the emptied tables (reset) with b: the files get the ids 1,
// 2, ... in their order.
func (s *scopeStore) write(b bulkScopes) error {
	clear(s.memo)
	var files, defs, fields, deps [][]any
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
			defs = append(defs, []any{sid, d.Type, d.Name, id, kind, d.Decl})
		}
		for _, f := range fs.Fields {
			fields = append(fields, []any{sid, f.Container, id, int64(f.Index), f.Qual, f.Name})
		}
		for _, e := range fs.Entries {
			entries[e]++
		}
		for _, h := range b.deps[i] {
			deps = append(deps, []any{h, id})
		}
	}
	var erows [][]any
	for e, n := range entries {
		erows = append(erows, []any{e.Kind, e.A, e.B, int64(n)})
	}
	for _, t := range []struct {
		table string
		cols  string
		rows  [][]any
		key   int // columns of the primary key, compared in order
	}{
		{"scope_files", "id, path, language, scope, imports, contrib, deps", files, 1},
		{"scope_defs", "scope, type, name, file, kind, decl", defs, 4},
		{"scope_fields", "scope, type, file, idx, qual, name", fields, 4},
		{"scope_entries", "kind, a, b, n", erows, 3},
		{"scope_deps", "key, file", deps, 2},
	} {
		slices.SortFunc(t.rows, func(a, b []any) int {
			for c := range t.key {
				if d := compareCell(a[c], b[c]); d != 0 {
					return d
				}
			}
			return 0
		})
		if err := s.insertRows(t.table, t.cols, t.rows); err != nil {
			return fmt.Errorf("%s: %w", t.table, err)
		}
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
	width := len(rows[0])
	per := max(1, 30000/width) // SQLite's bound on parameters is 32766
	one := "(" + strings.TrimSuffix(strings.Repeat("?, ", width), ", ") + ")"
	for len(rows) > 0 {
		n := min(per, len(rows))
		args := make([]any, 0, n*width)
		for _, r := range rows[:n] {
			args = append(args, r...)
		}
		q := "INSERT INTO " + table + " (" + cols + ") VALUES " + strings.TrimSuffix(strings.Repeat(one+", ", n), ", ")
		if err := s.exec(q, args...); err != nil {
			return err
		}
		rows = rows[n:]
	}
	return nil
}
