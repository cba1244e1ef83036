package project

import (
	"context"
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/rlm-dev/rlm/internal/subwords"
	"github.com/rlm-dev/rlm/retrieval/embedded"
	"github.com/rlm-dev/rlm/sourcefacts"
)

// TestTheWordsReadForSomeNamesSplitThemAsTheWholeVocabularyDoes: an
// update splits the names it resolves with only the tree's words that are
// pieces of them (vocabularyFor), read from the name word tables; every
// name splits as with the whole vocabulary of the files still in the tree
// (treeVocabulary) — words of three letters and of MaxWordBytes, a word
// at the end of a name, words only a file that left the tree gave (gone
// from the vocabulary though still in the table with no file), and the
// same when there are too many pieces and the whole vocabulary is read.
func TestTheWordsReadForSomeNamesSplitThemAsTheWholeVocabularyDoes(t *testing.T) {
	ctx := context.Background()
	long := "abcdefghijklmnopqrstuvwx" // MaxWordBytes letters
	if len(long) != subwords.MaxWordBytes {
		t.Fatalf("the long word has %d letters", len(long))
	}
	file := func(path string, defs []string, refs ...string) *sourcefacts.FileFacts {
		f := &sourcefacts.FileFacts{Provenance: sourcefacts.Provenance{Path: path}}
		for _, d := range defs {
			f.Symbols = append(f.Symbols, sourcefacts.Symbol{Name: d, Kind: sourcefacts.KindFunction})
		}
		for _, r := range refs {
			f.References = append(f.References, sourcefacts.Reference{Name: r, Kind: sourcefacts.RefCall})
		}
		return f
	}
	kept := []*sourcefacts.FileFacts{
		file("words.py", []string{"get_addr_spec", "parse_list"}, "read_dir", "mime_type", "Abcdefghijklmnopqrstuvwx_Tail"),
		file("compounds.py", []string{"getaddrlist", "parselist", "readdir", "mimetype", "abcdefghijklmnopqrstuvwxtail", "addrlistget", "Getaddr"}),
	}
	gone := file("gone.py", []string{"local_time"}, "dir_entry")
	names := []string{"getaddrlist", "parselist", "readdir", "mimetype", "abcdefghijklmnopqrstuvwxtail", "addrlistget",
		"localtime", "direntry", "timelocal", "Getaddr", "getAddrList", "x_getaddrlist", "x"}
	want := treeVocabulary(kept)
	if !want.Has("get") || !want.Has(long) || want.Has("local") {
		t.Fatalf("the fixture's vocabulary: get %v, %s %v, local %v", want.Has("get"), long, want.Has(long), want.Has("local"))
	}

	b, err := embedded.Open(ctx, "")
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	w, err := b.BeginWrite(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Rollback()
	ss, err := openScopeStore(ctx, w.Tx())
	if err != nil {
		t.Fatal(err)
	}
	defer ss.close()
	nw, err := openNameWordStore(ctx, w.Tx(), ss)
	if err != nil {
		t.Fatal(err)
	}
	_, fileWords := treeNameWords(append(kept, gone))
	if err := nw.reset(fileWords); err != nil {
		t.Fatal(err)
	}
	if _, err := nw.update("gone.py", nil); err != nil { // local, time, dir, entry: no file gives them now
		t.Fatal(err)
	}
	for _, maxPieces := range []int{maxVocabularyPieces, 0} {
		t.Run(fmt.Sprintf("at most %d pieces", maxPieces), func(t *testing.T) {
			got, err := nw.vocabularyFor(names, maxPieces)
			if err != nil {
				t.Fatal(err)
			}
			for _, name := range names {
				if diff := cmp.Diff(nameWords(want, name), nameWords(got, name)); diff != "" {
					t.Errorf("the words of %s (-whole vocabulary +read for the names):\n%s", name, diff)
				}
			}
			if maxPieces > 0 && got.Len() >= want.Len() {
				t.Errorf("%d words read for %d names, the whole vocabulary has %d", got.Len(), len(names), want.Len())
			}
		})
	}
}
