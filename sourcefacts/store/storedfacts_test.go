package store

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/rlm-dev/rlm/sourcefacts"
)

// schemaOf lists the database's schema: every table, index and trigger
// sqlite_master holds with its statement, by name.
func schemaOf(t *testing.T, db *sql.DB) string {
	t.Helper()
	rows, err := db.QueryContext(context.Background(), `SELECT type, name, tbl_name, COALESCE(sql, '') FROM sqlite_master ORDER BY name`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var b strings.Builder
	for rows.Next() {
		var typ, name, tbl, stmt string
		if err := rows.Scan(&typ, &name, &tbl, &stmt); err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&b, "%s %s ON %s: %s\n", typ, name, tbl, stmt)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// queryPlan is SQLite's plan of query, one detail a line.
func queryPlan(t *testing.T, db *sql.DB, query string) string {
	t.Helper()
	rows, err := db.QueryContext(context.Background(), `EXPLAIN QUERY PLAN `+query)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var plan strings.Builder
	for rows.Next() {
		var id, parent, unused int
		var detail string
		if err := rows.Scan(&id, &parent, &unused, &detail); err != nil {
			t.Fatal(err)
		}
		plan.WriteString(detail + "\n")
	}
	return plan.String()
}

// allFacts reads every present file's Facts of a fresh snapshot, by path.
func allFacts(t *testing.T, s *Store) map[string]*sourcefacts.FileFacts {
	t.Helper()
	ctx := testCtx(t)
	sn := snapshot(t, s, All(), SnapshotOptions{SkipValidation: true})
	files, err := sn.Files(ctx)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]*sourcefacts.FileFacts{}
	for _, f := range files {
		r, err := sn.Facts(ctx, f.Path)
		if err != nil {
			t.Fatal(err)
		}
		out[f.Path] = r.Facts
	}
	return out
}

// TestFactsAreOneRowPerFileAndCountedFromTheirIndex: the knowledge base
// holds one facts row per file with facts (no table or index per fact),
// whose counts are the lengths of the file's facts; Stats sums them from
// the covering index facts_counts, not the rows; Verify passes; and an
// edit replaces the file's row, the counts following it.
func TestFactsAreOneRowPerFileAndCountedFromTheirIndex(t *testing.T) {
	ctx := testCtx(t)
	root := realTree(t)
	s := openStore(t, root, nil)
	snapshot(t, s, All(), SnapshotOptions{RequireCurrent: true}).Close()
	schema := schemaOf(t, s.db)
	for _, gone := range []string{"table symbols ", "table refs ", "table imports ", "refs_name", "symbols_name", "imports_path"} {
		if strings.Contains(schema, gone) {
			t.Errorf("the schema still has %q:\n%s", gone, schema)
		}
	}
	check := func(when string) {
		t.Helper()
		facts := allFacts(t, s)
		var sym, ref, imp, withFacts int
		for path, ff := range facts {
			var n [3]int
			err := s.db.QueryRowContext(ctx, `SELECT x.symbols, x.refs, x.imports FROM facts x JOIN files f ON f.id = x.file_id WHERE f.path = ?`, path).Scan(&n[0], &n[1], &n[2])
			if err != nil {
				t.Fatalf("%s: %s: %v", when, path, err)
			}
			if want := [3]int{len(ff.Symbols), len(ff.References), len(ff.Imports)}; n != want {
				t.Errorf("%s: %s: the row counts %v, the facts %v", when, path, n, want)
			}
			sym, ref, imp, withFacts = sym+n[0], ref+n[1], imp+n[2], withFacts+1
		}
		if sym == 0 || ref == 0 || imp == 0 {
			t.Fatalf("%s: %d symbols, %d refs, %d imports: the case proves nothing", when, sym, ref, imp)
		}
		var rows int
		if err := s.db.QueryRowContext(ctx, `SELECT COUNT(*) FROM facts`).Scan(&rows); err != nil {
			t.Fatal(err)
		}
		if rows != withFacts {
			t.Errorf("%s: %d facts rows for %d files with facts", when, rows, withFacts)
		}
		st, err := s.Stats(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if st.Symbols != sym || st.References != ref || st.Imports != imp {
			t.Errorf("%s: Stats counts %d/%d/%d, the facts %d/%d/%d", when, st.Symbols, st.References, st.Imports, sym, ref, imp)
		}
		if err := s.Verify(ctx); err != nil {
			t.Errorf("%s: %v", when, err)
		}
	}
	check("after the build")
	if plan := queryPlan(t, s.db, `SELECT `+countsColumns); strings.Count(plan, "USING COVERING INDEX facts_counts") != 3 {
		t.Errorf("the counts do not read the covering index:\n%s", plan)
	}
	writeFile(t, root, "errors/wrap.go", append(readFile(t, root, "errors/wrap.go"), "\nfunc Added() { Unwrap(nil) }\n"...))
	s2 := openStore(t, root, nil) // a new connection: the counts are counted again, not kept
	snapshot(t, s2, All(), SnapshotOptions{RequireCurrent: true}).Close()
	check("after an edit")
}

// TestStoredFactsReadBackAsWritten: storeFacts keeps short packed facts as
// they are and deflates long ones when that is shorter, and loadFacts
// gives back the bytes; a value of unknown flags, bad deflate data or no
// bytes is errStored.
func TestStoredFactsReadBackAsWritten(t *testing.T) {
	long := packedFacts(bytes.Repeat([]byte("fmt.Println "), 200))
	for _, tc := range []struct {
		name     string
		p        packedFacts
		deflated bool
	}{
		{"short", packedFacts("\x01abc"), false},
		{"long", long, true},
		{"long, incompressible", packedFacts(noise(4096)), false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			data := storeFacts(tc.p)
			if got := data[0] == factsDeflate; got != tc.deflated {
				t.Fatalf("deflated %v, want %v (%d of %d bytes)", got, tc.deflated, len(data), len(tc.p))
			}
			if tc.deflated && len(data) >= len(tc.p) {
				t.Errorf("deflated to %d bytes of %d", len(data), len(tc.p))
			}
			got, err := loadFacts(data)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, tc.p) {
				t.Errorf("read back %d bytes differing from the %d written", len(got), len(tc.p))
			}
		})
	}
	for name, data := range map[string][]byte{
		"no bytes":      nil,
		"unknown flags": append([]byte{1 << 3}, long...),
		"bad deflate":   {factsDeflate, 0xff, 0xff, 0xff},
	} {
		if _, err := loadFacts(data); !errors.Is(err, errStored) {
			t.Errorf("%s: %v, want errStored", name, err)
		}
	}
}

// noise is n bytes of a fixed pseudo-random sequence (deflate cannot
// shorten it).
func noise(n int) []byte {
	b := make([]byte, n)
	x := uint32(2463534242)
	for i := range b {
		x ^= x << 13
		x ^= x >> 17
		x ^= x << 5
		b[i] = byte(x)
	}
	return b
}

// TestSchema7MovesEveryFactRowIntoItsFilesRow: a schema 6 knowledge base
// (one row per fact; made here from a schema 7 one's facts) opened by this
// build is migrated in place: every file's Facts, the Stats counts and
// Symbols/Callers/Importers answers are what they were, the old tables
// are gone, Verify passes and the file is vacuumed (smaller than before);
// a file whose rows disagreed on their file generation reads ErrCorrupt.
func TestSchema7MovesEveryFactRowIntoItsFilesRow(t *testing.T) {
	ctx := testCtx(t)
	root := realTree(t)
	dir := t.TempDir()
	s7 := openStore(t, root, &Options{DBPath: dir + "/new.sqlite"})
	snapshot(t, s7, All(), SnapshotOptions{RequireCurrent: true}).Close()
	want := allFacts(t, s7)
	wantSt, err := s7.Stats(ctx)
	if err != nil {
		t.Fatal(err)
	}
	type answer struct {
		Symbols   []SymbolHit
		Callers   []CallerHit
		Importers []ImportHit
	}
	answers := func(s *Store) answer {
		sn := snapshot(t, s, All(), SnapshotOptions{SkipValidation: true})
		syms, err := sn.Symbols(ctx, "Unwrap")
		if err != nil {
			t.Fatal(err)
		}
		calls, err := sn.Callers(ctx, "lazyInit")
		if err != nil {
			t.Fatal(err)
		}
		imps, err := sn.Importers(ctx, "internal/reflectlite")
		if err != nil {
			t.Fatal(err)
		}
		if len(syms) == 0 || len(calls) == 0 || len(imps) == 0 {
			t.Fatalf("%d symbols, %d callers, %d importers: the case proves nothing", len(syms), len(calls), len(imps))
		}
		for _, h := range syms {
			if h.Symbol.Name != "Unwrap" {
				t.Errorf("Symbols(Unwrap) gave %q", h.Symbol.Name)
			}
		}
		for _, h := range calls {
			r, c := h.Reference, h.Caller
			if r.Name != "lazyInit" || r.Kind != sourcefacts.RefCall {
				t.Errorf("Callers(lazyInit) gave %s %q", r.Kind, r.Name)
			}
			if c == nil || c.Range.StartByte > r.Range.StartByte || c.Range.EndByte < r.Range.EndByte {
				t.Errorf("the call at %d..%d is not inside its caller %+v", r.Range.StartByte, r.Range.EndByte, c)
			}
		}
		for _, h := range imps {
			if h.Import.Path != "internal/reflectlite" {
				t.Errorf("Importers(internal/reflectlite) gave %q", h.Import.Path)
			}
		}
		return answer{syms, calls, imps}
	}
	wantAnswers := answers(s7)

	// The schema 6 database: its schema, the files rows, the facts as rows.
	p6 := dir + "/old.sqlite"
	s6, err := open(ctx, root, &Options{DBPath: p6}, 6)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s6.db.ExecContext(ctx, `ATTACH DATABASE ? AS n`, dir+"/new.sqlite"); err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{
		`DELETE FROM generations`, `DELETE FROM current_generation`,
		`INSERT INTO files SELECT * FROM n.files`, `INSERT INTO generations SELECT * FROM n.generations`,
		`INSERT INTO current_generation SELECT * FROM n.current_generation`,
	} {
		if _, err := s6.db.ExecContext(ctx, q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	var broken string // a file whose rows get another file generation
	for path, ff := range want {
		var id, gen int64
		if err := s6.db.QueryRowContext(ctx, `SELECT id, file_gen FROM files WHERE path = ?`, path).Scan(&id, &gen); err != nil {
			t.Fatal(err)
		}
		if broken == "" && len(ff.Symbols) > 1 {
			broken = path
		}
		for i, y := range ff.Symbols {
			g, n := y.Range, y.NameRange
			rowGen := gen
			if path == broken && i == 1 {
				rowGen = gen + 1
			}
			if _, err := s6.db.ExecContext(ctx, `INSERT INTO symbols(file_id, idx, file_gen, name, kind, receiver, container, signature, doc,
				sb, eb, sl, el, sc, ec, nsb, neb, nsl, nel, nsc, nec, role, type) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)`,
				id, i, rowGen, y.Name, y.Kind, y.Receiver, y.Container, y.Signature, y.Doc,
				g.StartByte, g.EndByte, g.StartLine, g.EndLine, g.StartCol, g.EndCol,
				n.StartByte, n.EndByte, n.StartLine, n.EndLine, n.StartCol, n.EndCol, y.Role, y.Type); err != nil {
				t.Fatal(err)
			}
		}
		for i, r := range ff.References {
			g := r.Range
			if _, err := s6.db.ExecContext(ctx, `INSERT INTO refs(file_id, idx, file_gen, name, kind, receiver, enclosing, sb, eb, sl, el, sc, ec, via, module, type, path)
				VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)`, id, i, gen, r.Name, r.Kind, r.Receiver, r.Enclosing,
				g.StartByte, g.EndByte, g.StartLine, g.EndLine, g.StartCol, g.EndCol, r.Via, r.Module, r.Type, r.Path); err != nil {
				t.Fatal(err)
			}
		}
		for i, im := range ff.Imports {
			g := im.Range
			if _, err := s6.db.ExecContext(ctx, `INSERT INTO imports(file_id, idx, file_gen, path, alias, sb, eb, sl, el, sc, ec) VALUES (?,?,?,?,?,?,?,?,?,?,?)`,
				id, i, gen, im.Path, im.Alias, g.StartByte, g.EndByte, g.StartLine, g.EndLine, g.StartCol, g.EndCol); err != nil {
				t.Fatal(err)
			}
		}
	}
	// Pad the old tables so that the vacuum after the migration shows.
	if _, err := s6.db.ExecContext(ctx, `INSERT INTO imports(file_id, idx, file_gen, path, alias, sb, eb, sl, el, sc, ec)
		SELECT 1000000 + value, 0, 0, printf('%.2000c', 'x'), '', 0, 0, 0, 0, 0, 0 FROM generate_series(1, 500)`); err != nil {
		// no generate_series: a recursive CTE
		if _, err := s6.db.ExecContext(ctx, `WITH RECURSIVE n(v) AS (SELECT 1 UNION ALL SELECT v + 1 FROM n WHERE v < 500)
			INSERT INTO imports(file_id, idx, file_gen, path, alias, sb, eb, sl, el, sc, ec)
			SELECT 1000000 + v, 0, 0, printf('%.2000c', 'x'), '', 0, 0, 0, 0, 0, 0 FROM n`); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := s6.db.ExecContext(ctx, `DETACH DATABASE n`); err != nil {
		t.Fatal(err)
	}
	if _, err := s6.db.ExecContext(ctx, `PRAGMA wal_checkpoint(TRUNCATE)`); err != nil {
		t.Fatal(err)
	}
	s6.Close()
	before := fileSize(t, p6)

	s := openStore(t, root, &Options{DBPath: p6})
	if after := fileSize(t, p6); after >= before {
		t.Errorf("the migrated file is %d bytes, %d before: not vacuumed", after, before)
	}
	schema := schemaOf(t, s.db)
	for _, gone := range []string{"table symbols ", "table refs ", "table imports "} {
		if strings.Contains(schema, gone) {
			t.Errorf("the migrated schema still has %q", gone)
		}
	}
	sn := snapshot(t, s, All(), SnapshotOptions{SkipValidation: true})
	if _, err := sn.Facts(ctx, broken); !errors.Is(err, ErrCorrupt) {
		t.Fatalf("%s, whose rows disagreed on their generation: %v, want ErrCorrupt", broken, err)
	}
	// Put the broken file's row right, then everything reads as before.
	if _, err := s.db.ExecContext(ctx, `UPDATE facts SET file_gen = (SELECT file_gen FROM files WHERE files.id = facts.file_id)
		WHERE file_gen = -1`); err != nil {
		t.Fatal(err)
	}
	if _, err := s.db.ExecContext(ctx, `DELETE FROM facts WHERE file_id >= 1000000`); err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(want, allFacts(t, s)); d != "" {
		t.Errorf("facts after the migration (-schema 7 build +migrated):\n%s", d)
	}
	st, err := s.Stats(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if st.Symbols != wantSt.Symbols || st.References != wantSt.References || st.Imports != wantSt.Imports {
		t.Errorf("counts %d/%d/%d after the migration, %d/%d/%d built", st.Symbols, st.References, st.Imports, wantSt.Symbols, wantSt.References, wantSt.Imports)
	}
	if d := cmp.Diff(wantAnswers, answers(s)); d != "" {
		t.Errorf("Symbols, Callers, Importers after the migration (-built +migrated):\n%s", d)
	}
	if err := s.Verify(ctx); err != nil {
		t.Error(err)
	}
	// The migrated rows say whose facts they are.
	assertSwappedRowIsCorrupt(t, ctx, s)
}

func fileSize(t *testing.T, path string) int64 {
	t.Helper()
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	return fi.Size()
}

// TestFactsReadFromTheDatabaseAreTheExtractedFacts: a Store that holds no
// facts of its own (a new process) reads each file's facts from its facts
// row field for field as the extractor gave them, every definition,
// reference and import, the call references' resolution included.
func TestFactsReadFromTheDatabaseAreTheExtractedFacts(t *testing.T) {
	ctx := testCtx(t)
	root := realTree(t)
	dbPath := t.TempDir() + "/kb.sqlite"
	snapshot(t, openStore(t, root, &Options{DBPath: dbPath}), All(), SnapshotOptions{RequireCurrent: true}).Close()
	got := allFacts(t, openStore(t, root, &Options{DBPath: dbPath}))
	ex := newCountingExtractor(t)
	var refs, modules, typed int
	for path := range realSources {
		want, err := ex.Extract(ctx, path, readFile(t, root, path))
		if err != nil {
			t.Fatal(err)
		}
		g := got[path]
		if g == nil {
			t.Fatalf("%s: no facts read", path)
		}
		if d := cmp.Diff(want.Symbols, g.Symbols); d != "" {
			t.Errorf("%s: definitions (-extracted +read):\n%s", path, d)
		}
		if d := cmp.Diff(want.References, g.References); d != "" {
			t.Errorf("%s: references (-extracted +read):\n%s", path, d)
		}
		if d := cmp.Diff(want.Imports, g.Imports); d != "" {
			t.Errorf("%s: imports (-extracted +read):\n%s", path, d)
		}
		for _, r := range want.References {
			refs++
			if r.Module != "" {
				modules++
			}
			if r.Type != "" {
				typed++
			}
		}
	}
	if refs == 0 || modules == 0 || typed == 0 {
		t.Fatalf("%d references, %d with a module, %d with a type: the case proves little", refs, modules, typed)
	}
}

// swapFactsRows swaps the facts data of the first two files (by path)
// with facts of s, and returns their paths.
func swapFactsRows(t *testing.T, s *Store) (string, string) {
	t.Helper()
	ctx := testCtx(t)
	var a, b string
	var ia, ib int64
	if err := s.db.QueryRowContext(ctx, `SELECT f.path, f.id FROM files f JOIN facts x ON x.file_id = f.id ORDER BY f.path LIMIT 1`).Scan(&a, &ia); err != nil {
		t.Fatal(err)
	}
	if err := s.db.QueryRowContext(ctx, `SELECT f.path, f.id FROM files f JOIN facts x ON x.file_id = f.id ORDER BY f.path LIMIT 1 OFFSET 1`).Scan(&b, &ib); err != nil {
		t.Fatal(err)
	}
	// The same file generation on both, so only the data tells them apart.
	if _, err := s.db.ExecContext(ctx, `UPDATE facts SET file_gen = (SELECT file_gen FROM files WHERE files.id = ?),
		data = (SELECT data FROM facts WHERE file_id = ?) WHERE file_id = ?`, ia, ib, ia); err != nil {
		t.Fatal(err)
	}
	return a, b
}

// TestAFactsRowHoldingAnotherFilesFactsIsCorrupt: a facts row whose data
// decodes but was packed for another file (rows swapped or copied in a
// damaged or hand-edited database, the generations agreeing) is
// ErrCorrupt naming the file, not the other file's definitions
// attributed to it (TestSchema7MovesEveryFactRowIntoItsFilesRow: the
// same in an upgraded knowledge base).
func TestAFactsRowHoldingAnotherFilesFactsIsCorrupt(t *testing.T) {
	ctx := testCtx(t)
	root := realTree(t)
	dbPath := t.TempDir() + "/kb.sqlite"
	snapshot(t, openStore(t, root, &Options{DBPath: dbPath}), All(), SnapshotOptions{RequireCurrent: true}).Close()
	s := openStore(t, root, &Options{DBPath: dbPath})
	assertSwappedRowIsCorrupt(t, ctx, s)
}

// assertSwappedRowIsCorrupt swaps in another file's facts data into a
// file's row of s and checks that Facts of the file is ErrCorrupt naming
// it, and that the file's own facts read before the swap.
func assertSwappedRowIsCorrupt(t *testing.T, ctx context.Context, s *Store) {
	t.Helper()
	sn := snapshot(t, s, All(), SnapshotOptions{SkipValidation: true})
	var a string
	if err := s.db.QueryRowContext(ctx, `SELECT f.path FROM files f JOIN facts x ON x.file_id = f.id ORDER BY f.path LIMIT 1`).Scan(&a); err != nil {
		t.Fatal(err)
	}
	var b string
	if err := s.db.QueryRowContext(ctx, `SELECT f.path FROM files f JOIN facts x ON x.file_id = f.id ORDER BY f.path LIMIT 1 OFFSET 1`).Scan(&b); err != nil {
		t.Fatal(err)
	}
	if _, err := sn.Facts(ctx, a); err != nil {
		t.Fatalf("Facts(%s) before the swap: %v", a, err)
	}
	fb, err := sn.Facts(ctx, b)
	if err != nil || len(fb.Facts.Symbols) == 0 {
		t.Fatalf("Facts(%s) before the swap: %v, %d definitions", b, err, len(fb.Facts.Symbols))
	}
	name := fb.Facts.Symbols[0].Name
	sn.Close()
	if a2, b2 := swapFactsRows(t, s); a2 != a || b2 != b {
		t.Fatalf("swapped %s and %s, want %s and %s", a2, b2, a, b)
	}
	sn = snapshot(t, s, All(), SnapshotOptions{SkipValidation: true})
	defer sn.Close()
	_, err = sn.Facts(ctx, a)
	if !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), a) || !strings.Contains(err.Error(), b) {
		t.Errorf("Facts(%s) of a row holding %s's facts: %v, want ErrCorrupt naming both", a, b, err)
	}
	// A scan decodes the row too (it holds the name's bytes).
	if _, err := sn.Symbols(ctx, name); !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), a) {
		t.Errorf("Symbols(%s) with %s's row holding %s's facts: %v, want ErrCorrupt naming %s", name, a, b, err, a)
	}
}
