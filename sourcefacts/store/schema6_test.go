package store

import (
	"testing"

	"github.com/rlm-dev/rlm/internal/testfixture"
	"github.com/rlm-dev/rlm/sourcefacts"
)

// TestSchema6KeepsOlderFactsAndResolvesCallsOnReextraction: a schema 4
// database keeps its rows when migrated through 5 and 6 (their calls
// read as by name), and the facts the store extracts after it record
// how each call resolved and the types declarations write.
func TestSchema6KeepsOlderFactsAndResolvesCallsOnReextraction(t *testing.T) {
	ctx := testCtx(t)
	root := realTree(t)
	old, err := open(ctx, root, nil, 4)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := old.db.ExecContext(ctx, `INSERT INTO files(path, present, status) VALUES ('kept.go', 0, 'current')`); err != nil {
		t.Fatal(err)
	}
	if _, err := old.db.ExecContext(ctx, `INSERT INTO refs(file_id, idx, file_gen, name, kind, receiver, enclosing, sb, eb, sl, el, sc, ec)
		VALUES (1, 0, 0, 'Read', 'call', 'b', -1, 0, 4, 1, 1, 0, 4)`); err != nil {
		t.Fatal(err)
	}
	old.Close()

	s6, err := open(ctx, root, nil, 6)
	if err != nil {
		t.Fatal(err)
	}
	var name, via, module, typ, path string
	if err := s6.db.QueryRowContext(ctx, `SELECT name, via, module, type, path FROM refs WHERE file_id = 1`).Scan(&name, &via, &module, &typ, &path); err != nil {
		t.Fatal(err)
	}
	if name != "Read" || via+module+typ+path != "" {
		t.Fatalf("kept row: %q via %q module %q type %q path %q", name, via, module, typ, path)
	}
	s6.Close()

	s := openStore(t, root, nil)
	sn := snapshot(t, s, All(), SnapshotOptions{RequireCurrent: true})
	r := testfixture.Must(sn.Facts(ctx, "list/list.go"))(t)
	var lazy *sourcefacts.Reference
	for i, ref := range r.Facts.References {
		if ref.Name == "lazyInit" && ref.Kind == sourcefacts.RefCall {
			lazy = &r.Facts.References[i]
		}
	}
	if lazy == nil || lazy.Via != sourcefacts.ViaReceiver || lazy.Type != "List" {
		t.Fatalf("l.lazyInit() read back as %+v, want resolved to List", lazy)
	}
	typed := false
	for _, y := range r.Facts.Symbols {
		typed = typed || y.Name == "Front" && y.Type == "*Element"
	}
	if !typed {
		t.Fatal("List.Front's result type (*Element) is not kept")
	}
}
