package store

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestHeldFactsReadAsTheDatabaseRowsDo: a check with HoldFacts keeps the
// packed facts of every file it publishes with the snapshot, and Facts of
// such a file returns exactly what reading its rows back returns (every
// field, slices without spare capacity); held facts whose row identity is
// not the file's row (another publish since) are not used, a released or
// closed snapshot holds none, and a check that publishes nothing or was
// not asked holds nothing.
func TestHeldFactsReadAsTheDatabaseRowsDo(t *testing.T) {
	ctx := testCtx(t)
	s := openStore(t, realTree(t), nil)
	held := snapshot(t, s, All(), SnapshotOptions{HoldFacts: true})
	plain := snapshot(t, s, All(), SnapshotOptions{SkipValidation: true})
	if held.Identity() != plain.Identity() {
		t.Fatalf("identities %v and %v", held.Identity(), plain.Identity())
	}
	files, err := held.Files(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(files) < 2 || len(held.held) != len(files) {
		t.Fatalf("%d files, %d held", len(files), len(held.held))
	}
	facts := func(sn *Snapshot, path string) *FileFactsResult {
		t.Helper()
		r, err := sn.Facts(ctx, path)
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	symbols := 0
	for _, f := range files {
		if !held.held[f.Path].matches(&f) {
			t.Errorf("%s: the held facts' row identity is not the file's row: %+v", f.Path, f)
		}
		got, want := facts(held, f.Path), facts(plain, f.Path)
		if d := cmp.Diff(want, got); d != "" {
			t.Errorf("%s: held facts differ from the rows (-rows +held):\n%s", f.Path, d)
		}
		ff := got.Facts
		if cap(ff.Symbols) != len(ff.Symbols) || cap(ff.References) != len(ff.References) || cap(ff.Imports) != len(ff.Imports) {
			t.Errorf("%s: spare capacity: symbols %d/%d, refs %d/%d, imports %d/%d", f.Path,
				len(ff.Symbols), cap(ff.Symbols), len(ff.References), cap(ff.References), len(ff.Imports), cap(ff.Imports))
		}
		symbols += len(ff.Symbols)
	}
	if symbols == 0 {
		t.Fatal("no symbols at all: nothing compared")
	}

	// Held facts are used only for the row they were written with: another
	// file's facts under p's row identity come back (they are used), the
	// same under any other identity do not.
	p, q := files[0].Path, files[1].Path
	other := held.held[q]
	forged := other
	forged.hash, forged.fileGen, forged.parseGen, forged.gen = files[0].Hash, files[0].FileGeneration, files[0].ParseGeneration, files[0].PublishedIn
	held.held[p] = forged
	if d := cmp.Diff(facts(plain, q).Facts.Symbols, facts(held, p).Facts.Symbols); d != "" {
		t.Fatalf("held facts matching the row were not used (-q's +p's):\n%s", d)
	}
	for name, bump := range map[string]func(*heldFacts){
		"file generation":  func(h *heldFacts) { h.fileGen++ },
		"parse generation": func(h *heldFacts) { h.parseGen++ },
		"generation":       func(h *heldFacts) { h.gen++ },
		"hash":             func(h *heldFacts) { h.hash.XXH64++ },
	} {
		h := forged
		bump(&h)
		held.held[p] = h
		if d := cmp.Diff(facts(plain, p), facts(held, p)); d != "" {
			t.Errorf("held facts of another %s were used (-rows +held):\n%s", name, d)
		}
	}

	held.ReleaseFacts(p)
	if _, ok := held.held[p]; ok {
		t.Error("ReleaseFacts kept the facts")
	}
	if d := cmp.Diff(facts(plain, p), facts(held, p)); d != "" {
		t.Errorf("released: (-rows +held):\n%s", d)
	}
	if err := held.Close(); err != nil {
		t.Fatal(err)
	}
	if held.held != nil {
		t.Errorf("a closed snapshot holds %d files' facts", len(held.held))
	}
	if again := snapshot(t, s, All(), SnapshotOptions{HoldFacts: true}); len(again.held) != 0 {
		t.Errorf("a check that published nothing holds %d files' facts", len(again.held))
	}
	writeFile(t, s.root, files[0].Path, append(readFile(t, s.root, files[0].Path), "\n// edited\n"...))
	if unasked := snapshot(t, s, All(), SnapshotOptions{}); unasked.held != nil {
		t.Errorf("a check without HoldFacts holds %d files' facts", len(unasked.held))
	}
}
